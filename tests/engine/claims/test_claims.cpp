// The claims lab (engine/claims/, docs/claims.md): the statistics, the claims file, every
// protocol on a hand-made run whose answer is known, and the lab on the built-in octet model.
// Covers: claim_catalog.cpp, claim_lab.cpp, claim_protocols.cpp, claim_statistics.cpp,
//   claim_svg.cpp, claims_report.cpp, dip_test.cpp, exact_statistics.cpp,
//   protocol_cross_effect.cpp, protocol_degrade.cpp, protocol_head_groups.cpp,
//   protocol_kv_reuse.cpp, protocol_latency.cpp, protocol_multi_turn.cpp,
//   protocol_position_profile.cpp, protocol_prompt_ab.cpp, protocol_router_accuracy.cpp,
//   protocol_token_after_number.cpp
#include <cmath>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

#include "engine/claims/claim_protocols.h"
#include "engine/claims/claim_svg.h"
#include "engine/claims/claims_report.h"
#include "engine/claims/dip_test.h"
#include "engine/evaluation/task_eval.h"
#include "engine/model/synthetic_model.h"
#include "engine/tokenizer/vocab.h"
#include "engine/host/claim_variant.h"
#include "engine/host/model_setup.h"
#include "engine/instrumentation/subsystem.h"
#include <unistd.h>

namespace octo {
namespace {

const std::string kResources = std::string(OCTOSCOPE_SOURCE_DIR) + "/resources";

// ---- statistics ---------------------------------------------------------------------------

TEST(ClaimStatistics, SmallSamplesGetTheExpandedPercentiles) {
    // 3 of 4 units are hits. The plain 95 % percentiles of the resampled means are k = 1 and k = 4
    // of 4 (P(k ≤ 0) = .004, P(k ≤ 1) = .051); with n = 4 the expanded interval uses
    // α' = 2 Φ(−√(4/3) t_{.975, 3}) = 2 Φ(−3.674) ≈ 0.00024, i.e. the extreme resamples: [0, 1].
    const std::vector<double> hits = {1, 1, 1, 0};
    const std::vector<int> strata(4, 0);
    const auto e = bootstrap(strata, [&](std::span<const double> w) { return weighted_mean(hits, w); }, {2000, 7});
    ASSERT_TRUE(e);
    EXPECT_DOUBLE_EQ(e->value, 0.75);
    EXPECT_DOUBLE_EQ(e->ci95.lo, 0.0);
    EXPECT_DOUBLE_EQ(e->ci95.hi, 1.0);
    EXPECT_EQ(e->n, 4);
    EXPECT_EQ(e->resamples, 2000);
    EXPECT_EQ(e->method, IntervalMethod::Bootstrap);
}

TEST(ClaimStatistics, LargeSampleIntervalMatchesTheNormalApproximation) {
    std::vector<double> hits(400, 0.0);
    for (size_t i = 0; i < 300; ++i) hits[i] = 1.0;
    const std::vector<int> strata(hits.size(), 0);
    const auto e = bootstrap(strata, [&](std::span<const double> w) { return weighted_mean(hits, w); }, {4000, 11});
    ASSERT_TRUE(e);
    const double half = 1.96 * std::sqrt(0.75 * 0.25 / 400.0); // 0.0424
    EXPECT_NEAR(e->ci95.lo, 0.75 - half, 0.01);
    EXPECT_NEAR(e->ci95.hi, 0.75 + half, 0.01);
}

TEST(ClaimStatistics, SameSeedSameInterval_IntervalAlwaysContainsTheValue) {
    std::vector<double> v;
    std::vector<int> strata;
    for (int i = 0; i < 40; ++i) {
        v.push_back(std::sin(i * 1.3) + 0.01 * i);
        strata.push_back(i % 3);
    }
    auto mean = [&](std::span<const double> w) { return weighted_mean(v, w); };
    const auto a = bootstrap(strata, mean, {1000, 42});
    const auto b = bootstrap(strata, mean, {1000, 42});
    const auto c = bootstrap(strata, mean, {1000, 43});
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(a->ci95.lo, b->ci95.lo);
    EXPECT_EQ(a->ci95.hi, b->ci95.hi);
    EXPECT_EQ(a->value, c->value);
    EXPECT_TRUE(a->ci95.lo != c->ci95.lo || a->ci95.hi != c->ci95.hi) << "another seed draws other resamples";
    // A statistic whose resamples all lie above the point estimate: the interval is widened to hold it.
    const auto skew = bootstrap(strata, [&](std::span<const double> w) -> std::optional<double> {
        double sum = 0;
        for (double x : w) sum += x;
        return sum == 40.0 && w[0] == 1.0 && w[6] == 1.0 && w[3] == 1.0 ? 0.0 : 1.0;
    }, {500, 1});
    ASSERT_TRUE(skew);
    EXPECT_LE(skew->ci95.lo, skew->value);
    EXPECT_GE(skew->ci95.hi, skew->value);
}

TEST(ClaimStatistics, StratifiedResamplesKeepEachStratumsSize) {
    // Stratum 0 is all 0, stratum 1 all 1 (5 units each): with the strata kept, every resample's mean is 0.5.
    const std::vector<double> v = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    const std::vector<int> strata = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    const auto e = bootstrap(strata, [&](std::span<const double> w) { return weighted_mean(v, w); }, {300, 3});
    ASSERT_TRUE(e);
    EXPECT_DOUBLE_EQ(e->ci95.lo, 0.5);
    EXPECT_DOUBLE_EQ(e->ci95.hi, 0.5);
}

TEST(ClaimStatistics, SmallStrataArePooled) {
    // Strata of one or two units: resampled together, so the interval shows their spread (two
    // items per stratum, resampled within it, would have drawn each pair over and over).
    for (const std::vector<int>& strata : {std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}, std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}}) {
        const std::vector<double> v = {0, 1, 0, 1, 1, 0, 1, 0};
        const auto e = bootstrap(strata, [&](std::span<const double> w) { return weighted_mean(v, w); }, {1000, 2});
        ASSERT_TRUE(e);
        EXPECT_LT(e->ci95.lo, 0.2);
        EXPECT_GT(e->ci95.hi, 0.8);
    }
}

TEST(ClaimStatistics, UndefinedStatisticGivesNoEstimate) {
    const std::vector<int> strata(3, 0);
    EXPECT_FALSE(bootstrap(strata, [](std::span<const double>) -> std::optional<double> { return std::nullopt; }, {100, 1}));
    EXPECT_FALSE(bootstrap({}, [](std::span<const double>) -> std::optional<double> { return 1.0; }, {100, 1}));
}

TEST(ClaimStatistics, VerdictsFollowTheInterval) {
    EXPECT_EQ(judge({0.8, 0.9}, ThresholdTest::AtLeast, 0.783), Verdict::Holds);
    EXPECT_EQ(judge({0.7, 0.78}, ThresholdTest::AtLeast, 0.783), Verdict::DoesNotHold);
    EXPECT_EQ(judge({0.7, 0.9}, ThresholdTest::AtLeast, 0.783), Verdict::Inconclusive);
    EXPECT_EQ(judge({0.0, 0.1}, ThresholdTest::Above, 0.0), Verdict::Inconclusive) << "touching 0 is not above it";
    EXPECT_EQ(judge({-0.2, -0.1}, ThresholdTest::Above, 0.0), Verdict::DoesNotHold);
    EXPECT_EQ(judge({0.1, 0.2}, ThresholdTest::Below, 0.5), Verdict::Holds);
    EXPECT_EQ(judge({0.6, 0.7}, ThresholdTest::AtMost, 0.5), Verdict::DoesNotHold);
    EXPECT_STREQ(verdict_name(Verdict::NotMeasurable), "not measurable on this model");
    EXPECT_STREQ(verdict_name(Verdict::Uninformative), "uninformative");
}

TEST(ClaimStatistics, HolmStepsDown) {
    // Sorted 0.005, 0.01, 0.03, 0.04 against 0.05/4, 0.05/3, 0.05/2, 0.05/1: the first two pass,
    // 0.03 > 0.025 fails, and so does every larger p (0.04 < 0.05 notwithstanding).
    const std::vector<double> p = {0.01, 0.04, 0.03, 0.005};
    const std::vector<HolmStep> h = holm(p, 0.05);
    EXPECT_TRUE(h[3].passes);
    EXPECT_DOUBLE_EQ(h[3].level, 0.05 / 4);
    EXPECT_TRUE(h[0].passes);
    EXPECT_DOUBLE_EQ(h[0].level, 0.05 / 3);
    EXPECT_FALSE(h[2].passes);
    EXPECT_FALSE(h[1].passes);
    EXPECT_DOUBLE_EQ(h[1].level, 0.05);
}

TEST(ClaimStatistics, OneSidedPInvertsTheInterval) {
    // 16/16 against "at least 78.3 %": Wilson's lower bound 16/(16 + z²) reaches 0.783 at
    // z² = 16/0.783 − 16, z = 2.1058, so p = 1 − Φ(2.1058) = 0.0176.
    const double z = std::sqrt(16.0 / 0.783 - 16.0);
    EXPECT_NEAR(one_sided_p(proportion_estimate(16, 16), ThresholdTest::AtLeast, 0.783, true), 0.5 * std::erfc(z / std::sqrt(2.0)), 1e-6);
    EXPECT_DOUBLE_EQ(one_sided_p(proportion_estimate(8, 16), ThresholdTest::AtLeast, 0.783, true), 1.0) << "0.5 is not above 0.783 at any level";
    EXPECT_LT(one_sided_p(proportion_estimate(8, 16), ThresholdTest::AtLeast, 0.783, false), 0.025) << "but it is below it";
    // A run's Holm correction turns a marginal "holds" into "inconclusive", naming why.
    std::vector<ClaimResult> results(2);
    for (ClaimResult& r : results) {
        r.estimate = proportion_estimate(12, 16);
        r.verdict = Verdict::Holds;
        r.test.p = 0.02;
    }
    apply_holm(results);
    EXPECT_EQ(results[0].verdict, Verdict::Inconclusive) << "0.02 > 0.025 / 2";
    EXPECT_FALSE(results[0].test.survived);
    EXPECT_EQ(results[0].test.family, 2);
    results[0].verdict = results[1].verdict = Verdict::Holds;
    results[0].test.p = 0.001;
    apply_holm(results);
    EXPECT_EQ(results[0].verdict, Verdict::Holds);
    EXPECT_EQ(results[1].verdict, Verdict::Holds) << "0.02 ≤ 0.025 / 1 once the smaller p passed";
}

// ---- closed forms against published values ------------------------------------------------

// Newcombe RG (1998a), Statistics in Medicine 17:857–872, Table II: Wilson score (method 3) and
// Clopper–Pearson (method 5) for four proportions, to 4 decimals.
TEST(ExactStatistics, WilsonAndClopperPearsonMatchNewcombesTable) {
    struct Row { int64_t k, n; double w_lo, w_hi, cp_lo, cp_hi; };
    const Row rows[] = {{81, 263, 0.2553, 0.3662, 0.2527, 0.3676},
                        {15, 148, 0.0624, 0.1605, 0.0578, 0.1617},
                        {0, 20, 0.0, 0.1611, 0.0, 0.1684},
                        {1, 29, 0.0061, 0.1718, 0.0009, 0.1776}};
    for (const Row& r : rows) {
        const Interval w = wilson_interval(r.k, r.n);
        const Interval cp = clopper_pearson_interval(r.k, r.n);
        EXPECT_NEAR(w.lo, r.w_lo, 5e-5) << r.k << "/" << r.n;
        EXPECT_NEAR(w.hi, r.w_hi, 5e-5) << r.k << "/" << r.n;
        EXPECT_NEAR(cp.lo, r.cp_lo, 5e-5) << r.k << "/" << r.n;
        EXPECT_NEAR(cp.hi, r.cp_hi, 5e-5) << r.k << "/" << r.n;
    }
    // Fagerland, Lydersen & Laake, Statistical Analysis of Contingency Tables (2017), ch. 8: 13/16.
    EXPECT_NEAR(clopper_pearson_interval(13, 16).lo, 0.5435, 5e-5);
    EXPECT_NEAR(clopper_pearson_interval(13, 16).hi, 0.9595, 5e-5);
    // All 16 right: an interval, not a point (the percentile bootstrap gave [100 %, 100 %]).
    const Estimate all = proportion_estimate(16, 16);
    EXPECT_DOUBLE_EQ(all.value, 1.0);
    EXPECT_NEAR(all.ci95.lo, 16.0 / (16.0 + 1.959964 * 1.959964), 1e-6);
    EXPECT_DOUBLE_EQ(all.ci95.hi, 1.0);
    EXPECT_EQ(all.method, IntervalMethod::Wilson);
}

// Newcombe RG (1998b), Statistics in Medicine 17:2635–2650, method 10, on the complete-response
// data of Cavo et al. (2012) as Fagerland et al. (2017, ch. 8) give it: 59 both, 6 only before,
// 16 only after, 80 neither; before − after = −0.0621 (−0.1186 to −0.0046).
TEST(ExactStatistics, NewcombePairedMatchesThePublishedExample) {
    const PairedCounts cavo{59, 6, 16, 80};
    const Interval ci = newcombe_paired_interval(cavo); // p_b − p_a = after − before
    EXPECT_NEAR(cavo.p_b() - cavo.p_a(), 0.0621, 5e-5);
    EXPECT_NEAR(ci.lo, 0.0046, 5e-5);
    EXPECT_NEAR(ci.hi, 0.1186, 5e-5);
    const Interval mirrored = newcombe_paired_interval({59, 16, 6, 80});
    EXPECT_NEAR(mirrored.lo, -0.1186, 5e-5);
    EXPECT_NEAR(mirrored.hi, -0.0046, 5e-5);
    // Both conditions right on every unit: the difference is 0, with a real interval around it.
    const Estimate same = paired_difference_estimate({16, 0, 0, 0});
    EXPECT_DOUBLE_EQ(same.value, 0.0);
    EXPECT_LT(same.ci95.lo, -0.1);
    EXPECT_GT(same.ci95.hi, 0.1);
    EXPECT_TRUE(both_at_one_bound({16, 0, 0, 0}));
    EXPECT_TRUE(both_at_one_bound({0, 0, 0, 16}));
    EXPECT_FALSE(both_at_one_bound({8, 0, 0, 8})) << "right on some items, wrong on others: informative";
    EXPECT_FALSE(both_at_one_bound({0, 16, 0, 0})) << "a at 100 %, b at 0 %: a difference";
}

// The exact conditional McNemar test: Fagerland MW, Lydersen S, Laake P (2013), BMC Medical
// Research Methodology 13:91 — Cavo et al.'s 6 vs 16 discordant pairs give p = 0.052 (the
// asymptotic test 0.033); Bentur et al.'s 1 vs 7 give 0.070 (= 2 · 9/256).
// Bonett & Price (2006)'s hybrid Wilson interval for a ratio of paired proportions, on the same
// Cavo et al. data as Fagerland et al. (2017, ch. 8, Table 8.x) give it: (59 + 6) / (59 + 16) =
// 0.8667 (0.7579 to 0.9910).
TEST(ExactStatistics, PairedRatioMatchesThePublishedExample) {
    const Interval ci = paired_ratio_interval(59, 6, 16);
    EXPECT_NEAR(ci.lo, 0.7579, 5e-5);
    EXPECT_NEAR(ci.hi, 0.9910, 5e-5);
    const Interval swapped = paired_ratio_interval(59, 16, 6); // the inverse ratio
    EXPECT_NEAR(swapped.lo, 1.0 / ci.hi, 1e-12);
    EXPECT_NEAR(swapped.hi, 1.0 / ci.lo, 1e-12);
    EXPECT_TRUE(std::isinf(paired_ratio_interval(0, 0, 0).hi)) << "no unit with the event: nothing is known";
    // Error reduction 1 − errors(b)/errors(a): condition 1 is b's errors. 10 items, a wrong on 6
    // (4 of them only a), b wrong on 2 (both): 1 − 2/6.
    const PairedCounts counts{4, 0, 4, 2};
    const auto cut = error_reduction_estimate(counts);
    ASSERT_TRUE(cut);
    EXPECT_NEAR(cut->value, 1.0 - 2.0 / 6.0, 1e-15);
    const Interval ratio = paired_ratio_interval(2, 0, 4);
    EXPECT_NEAR(cut->ci95.lo, 1.0 - ratio.hi, 1e-15);
    EXPECT_NEAR(cut->ci95.hi, 1.0 - ratio.lo, 1e-15);
    EXPECT_NEAR(*cut->p_value, 2.0 / 16.0, 1e-15) << "McNemar on 0 vs 4 discordant items";
    EXPECT_FALSE(error_reduction_estimate({10, 0, 0, 0})) << "a made no error: none to cut";
}

// A pooled share of clustered pieces whose units never vary (no hit anywhere, or only hits) has
// no bootstrap spread: Wilson's interval with the units as trials replaces it.
TEST(ExactStatistics, ClusteredShareNeverHasAZeroWidthInterval) {
    const std::vector<int> strata{0, 0, 1, 1, 1};
    const std::vector<double> totals{3, 5, 2, 4, 6};
    const std::vector<double> none(5, 0.0);
    const auto zero = clustered_share_estimate(strata, none, totals, {200, 1});
    ASSERT_TRUE(zero);
    EXPECT_DOUBLE_EQ(zero->value, 0.0);
    EXPECT_EQ(zero->method, IntervalMethod::WilsonOverUnits);
    EXPECT_DOUBLE_EQ(zero->ci95.hi, wilson_interval(0, 5).hi) << "5 units, not 20 pieces";
    const auto all = clustered_share_estimate(strata, totals, totals, {200, 1});
    ASSERT_TRUE(all);
    EXPECT_DOUBLE_EQ(all->value, 1.0);
    EXPECT_DOUBLE_EQ(all->ci95.lo, wilson_interval(5, 5).lo);
    const std::vector<double> some{1, 5, 0, 2, 6};
    const auto mixed = clustered_share_estimate(strata, some, totals, {200, 1});
    ASSERT_TRUE(mixed);
    EXPECT_EQ(mixed->method, IntervalMethod::Bootstrap);
    EXPECT_DOUBLE_EQ(mixed->value, 14.0 / 20.0);
    EXPECT_FALSE(clustered_share_estimate(strata, none, none, {200, 1}));
}

TEST(ExactStatistics, McNemarExactMatchesThePublishedExamples) {
    EXPECT_NEAR(mcnemar_exact_p(6, 16), 0.05248, 5e-5);
    EXPECT_NEAR(mcnemar_exact_p(16, 6), 0.05248, 5e-5);
    EXPECT_NEAR(mcnemar_exact_p(1, 7), 2.0 * 9.0 / 256.0, 1e-13);
    EXPECT_DOUBLE_EQ(mcnemar_exact_p(0, 0), 1.0);
    EXPECT_DOUBLE_EQ(mcnemar_exact_p(5, 5), 1.0);
    const Estimate e = paired_difference_estimate({59, 6, 16, 80});
    ASSERT_TRUE(e.p_value);
    EXPECT_NEAR(*e.p_value, 0.05248, 5e-5);
    EXPECT_EQ(e.n, 161);
}

// Newcombe (1998a), Table II, method 10 (hybrid score) for independent proportions.
TEST(ExactStatistics, NewcombeIndependentMatchesNewcombesTable) {
    struct Row { int64_t k1, n1, k2, n2; double lo, hi; };
    const Row rows[] = {{56, 70, 48, 80, 0.0524, 0.3339},
                        {9, 10, 3, 10, 0.1705, 0.8090},
                        {5, 56, 0, 29, -0.0381, 0.1926},
                        {0, 10, 0, 20, -0.1611, 0.2775},
                        {10, 10, 0, 20, 0.6791, 1.0}};
    for (const Row& r : rows) {
        const Interval ci = newcombe_difference_interval(r.k1, r.n1, r.k2, r.n2);
        EXPECT_NEAR(ci.lo, r.lo, 5e-5) << r.k1 << "/" << r.n1 << " − " << r.k2 << "/" << r.n2;
        EXPECT_NEAR(ci.hi, r.hi, 5e-5) << r.k1 << "/" << r.n1 << " − " << r.k2 << "/" << r.n2;
    }
}

// Hartigan's dip against R's diptest 0.76 (an independent implementation; values printed with
// format(dip(x), digits = 17)) and its table of the uniform null's quantiles (qDiptab).
TEST(ExactStatistics, DipMatchesRsDiptest) {
    const std::vector<std::pair<std::vector<double>, double>> cases = {
        {{0.3, 1.7, 2.2, 2.9, 3.1, 7.5, 7.9, 8.4, 9.0, 9.6}, 0.15277777777777776},
        {{1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56, 67}, 0.041666666666666664},
        {{5.1, 4.9, 6.2, 5.5, 5.8, 6.0, 4.4, 5.3, 5.0, 5.6, 5.2, 4.7, 5.9, 6.4, 4.6}, 0.052380952380952354},
        {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.05},            // evenly spaced: the least possible dip, 1/(2n)
        {{1, 2, 3, 4, 5, 11, 12, 13, 14, 15}, 0.15},
    };
    for (const auto& [x, dip] : cases) EXPECT_NEAR(hartigan_dip(x), dip, 1e-12) << x.size();
    EXPECT_EQ(hartigan_dip(std::vector<double>{3, 3, 3}), 0.0);
    // qDiptab's 95 % points: 0.07027 (n = 50), 0.03684 (n = 200); 2000 simulations are within 4 %.
    EXPECT_NEAR(uniform_dip_quantile(50, 0.95), 0.07027, 0.04 * 0.07027);
    EXPECT_NEAR(uniform_dip_quantile(200, 0.95), 0.03684, 0.04 * 0.03684);
    EXPECT_LT(dip_p_value(0.15, 10), 0.05) << "two clusters of five";
    EXPECT_GT(dip_p_value(0.05, 10), 0.5) << "evenly spaced";
}

TEST(ExactStatistics, SpecialFunctionsMatchTables) {
    EXPECT_NEAR(regularized_incomplete_beta(2, 3, 0.5), 11.0 / 16.0, 1e-12) << "P(Binomial(4, ½) ≥ 2)";
    EXPECT_NEAR(regularized_incomplete_beta(0.5, 0.5, 0.25), 1.0 / 3.0, 1e-12) << "arcsine law: 2/π asin(√x)";
    EXPECT_NEAR(normal_quantile(0.975), 1.959964, 1e-6);
    EXPECT_NEAR(normal_cdf(-1.959964), 0.025, 1e-7);
    // Student t, 97.5 % points (any t table): 12.706 (1), 2.228 (10), 2.042 (30).
    EXPECT_NEAR(student_t_quantile(0.975, 1), 12.7062, 5e-4);
    EXPECT_NEAR(student_t_quantile(0.975, 10), 2.2281, 5e-5);
    EXPECT_NEAR(student_t_quantile(0.975, 30), 2.0423, 5e-5);
    EXPECT_NEAR(student_t_quantile(0.025, 10), -2.2281, 5e-5);
    EXPECT_NEAR(beta_quantile(11.0 / 16.0, 2, 3), 0.5, 1e-9);
    // 1, 2, 3, 4, 5: mean 3, s = 1.5811, t_{.975, 4} = 2.7764 → 3 ± 1.9632.
    const std::vector<double> v = {1, 2, 3, 4, 5};
    const auto m = mean_estimate(v);
    ASSERT_TRUE(m);
    EXPECT_NEAR(m->ci95.lo, 3.0 - 1.9632, 1e-4);
    EXPECT_NEAR(m->ci95.hi, 3.0 + 1.9632, 1e-4);
    EXPECT_EQ(m->method, IntervalMethod::StudentT);
    EXPECT_FALSE(mean_estimate(std::vector<double>{1.0})) << "one value has no spread to estimate";
}

TEST(ClaimStatistics, BimodalityCoefficientSeparatesTwoModesFromOne) {
    std::vector<double> two, one;
    for (int i = 0; i < 100; ++i) {
        two.push_back((i % 2 ? 10.0 : 1.0) + 0.01 * i);
        one.push_back(5.0 + std::sin(i * 1.7) + std::cos(i * 0.3)); // one hump
    }
    const std::vector<double> w(100, 1.0);
    EXPECT_GT(*bimodality_coefficient(two, w), kBimodalityThreshold);
    EXPECT_LT(*bimodality_coefficient(one, w), kBimodalityThreshold);
    EXPECT_FALSE(bimodality_coefficient(std::vector<double>{1, 1, 1, 1}, std::vector<double>{1, 1, 1, 1})) << "no spread";
}

// ---- the claims file ------------------------------------------------------------------------

TEST(ClaimCatalog, TheShippedFileValidates) {
    auto c = read_claim_catalog(kResources + "/claims/claims.json");
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_GE(c->claims.size(), 15u);
    for (const Claim& claim : c->claims) {
        EXPECT_TRUE(!claim.measurable() || find_protocol(claim.protocol)) << claim.id;
        EXPECT_FALSE(claim.article_figure.is_null()) << claim.id;
        EXPECT_FALSE(claim.text.zh.empty()) << claim.id;
    }
    for (const char* id : {"router-accuracy", "rte-c-after-number", "rte-a-at-start", "rte-f-at-end", "bold-numbers",
                           "compute-beats-analyse", "vague-time-drift", "pin-time-range", "degraded-f-to-a",
                           "entities-before-relations", "latency-bimodal", "kv-pool-reuse", "why-eight-groups"}) {
        EXPECT_TRUE(c->find(id)) << id;
    }
    // The catalogue is silent about nothing: what cannot be measured here is listed with the reason.
    for (const char* id : {"annotator-agreement", "sixteen-groups-l2-misses", "latency-band-meanings", "fp16-bf16-split",
                           "logic-collapse", "format-tearing", "troubleshooting-table", "scaffold-rte-d",
                           "retrain-router-on-failures"}) {
        const Claim* listed = c->find(id);
        ASSERT_TRUE(listed) << id;
        EXPECT_FALSE(listed->measurable()) << id;
        EXPECT_FALSE(listed->not_measurable_here.zh.empty()) << id;
    }
    // The multi-turn claim joined once conversations arrived (docs/coherence.md).
    ASSERT_TRUE(c->find("multi-turn-coherence"));
    EXPECT_TRUE(c->find("multi-turn-coherence")->measurable());
    EXPECT_EQ(c->find("multi-turn-coherence")->protocol, "multi_turn");
    // "Why 8"'s figure is not the 16-group L2 figure beside an accuracy difference.
    EXPECT_EQ(c->find("why-eight-groups")->article_figure.get<std::string>().find("L2"), std::string::npos);
    // What does not depend on the loaded model says so; every "above 0" became a minimum effect.
    EXPECT_EQ(c->find("router-accuracy")->subject, ClaimSubject::Router);
    EXPECT_EQ(c->find("router-two-stage-gain")->subject, ClaimSubject::Router);
    EXPECT_EQ(c->find("kv-pool-reuse")->subject, ClaimSubject::KvPool);
    EXPECT_EQ(c->find("rte-c-after-number")->subject, ClaimSubject::Model);
    for (const Claim& claim : c->claims) {
        const bool direction_only = claim.measurable() && (claim.test == ThresholdTest::Above || claim.test == ThresholdTest::AtLeast) && claim.threshold <= 0.0;
        EXPECT_FALSE(direction_only) << claim.id << ": a direction alone is no minimum effect";
    }
    ClaimResult r;
    r.verdict = Verdict::Holds;
    r.estimate = proportion_estimate(30, 32);
    EXPECT_NE(verdict_line(*c->find("router-accuracy"), r).find("about the product's router, not the loaded model"), std::string::npos);
}

nlohmann::json one_claim() {
    return {{"id", "x"}, {"title", {{"en", "t"}, {"zh", "标"}}}, {"section", "1"}, {"text", {{"en", "e"}, {"zh", "z"}}}, {"article_figure", 0.5}, {"unit", "share"},
            {"protocol", "prompt_ab"}, {"params", nlohmann::json::object()},
            {"holds", {{"test", "above"}, {"value", 0.0}, {"text", {{"en", "e"}, {"zh", "z"}}}}}};
}

TEST(ClaimCatalog, ErrorsNameTheClaimAndTheField) {
    auto doc = [](nlohmann::json claim) { return nlohmann::json{{"version", 1}, {"claims", {claim}}}; };
    EXPECT_TRUE(parse_claim_catalog(doc(one_claim()), "f.json"));
    auto bad = [&](const char* key, nlohmann::json value, const char* expect) {
        nlohmann::json c = one_claim();
        c[key] = value;
        auto r = parse_claim_catalog(doc(c), "f.json");
        ASSERT_FALSE(r) << key;
        EXPECT_NE(r.error().message.find(expect), std::string::npos) << r.error().message;
        EXPECT_NE(r.error().message.find("claim \"x\""), std::string::npos) << r.error().message;
    };
    bad("protocol", "guess", "protocol");
    bad("article_figure", nullptr, "article_figure");
    bad("unit", "percent", "unit");
    bad("holds", {{"test", "about"}, {"value", 0.0}, {"text", {{"en", "e"}, {"zh", "z"}}}}, "holds.test");
    bad("text", {{"en", "e"}}, "text.zh");
    bad("extra", 1, "unknown field");
    bad("subject", "tokenizer", "subject");
    bad("control", {{"kind", "random_twin"}, {"margin", 0.02}}, "\"control\" must be");
    bad("control", {{"kind", "shuffled_map"}, {"margin", -1}}, "\"control\" must be");
    // A parameter of the wrong type is refused at load (it threw inside the protocol before).
    bad("params", {{"statistic", 3}}, "\"params.statistic\" must be a string");
    bad("params", {{"first", {"rte-a"}}}, "\"params.first\" must be a string");
    bad("params", {{"max_tokens", "16"}}, "\"params.max_tokens\" must be a whole number");
    bad("params", {{"items", 0}}, "\"params.items\" must be a whole number");
    nlohmann::json controlled = one_claim();
    controlled["control"] = {{"kind", "shuffled_map"}, {"margin", 0.02}};
    auto with_control = parse_claim_catalog(doc(controlled), "f.json");
    ASSERT_TRUE(with_control) << with_control.error().message;
    EXPECT_EQ(with_control->claims[0].control_margin, 0.02);
    // Listed as not measurable here: a reason in both languages, and no protocol beside it.
    nlohmann::json listed = one_claim();
    for (const char* key : {"protocol", "params", "holds"}) listed.erase(key);
    listed["not_measurable_here"] = {{"en", "no annotators"}, {"zh", "没有标注者"}};
    auto ok = parse_claim_catalog(doc(listed), "f.json");
    ASSERT_TRUE(ok) << ok.error().message;
    EXPECT_FALSE(ok->claims[0].measurable());
    EXPECT_EQ(ok->claims[0].not_measurable_here.zh, "没有标注者");
    bad("not_measurable_here", {{"en", "why"}, {"zh", "为何"}}, "not measurable here has no \"protocol\"");
    listed["not_measurable_here"] = {{"en", "why"}};
    auto half = parse_claim_catalog(doc(listed), "f.json");
    ASSERT_FALSE(half);
    EXPECT_NE(half.error().message.find("not_measurable_here.zh"), std::string::npos) << half.error().message;
    nlohmann::json twice = {{"version", 1}, {"claims", {one_claim(), one_claim()}}};
    EXPECT_FALSE(parse_claim_catalog(twice, "f.json"));
    EXPECT_FALSE(parse_claim_catalog({{"version", 2}, {"claims", {one_claim()}}}, "f.json"));
}

// ---- protocols on hand-made runs --------------------------------------------------------------

// A lab whose answers come from `source`; items are given; the map is a trained-in one.
struct HandMade {
    HeadMap map = HeadMap::from_json(HeadMap::make_default(1, 8).to_json(), 1, 8, HeadMapSource::Gguf).value();
    std::unique_ptr<ClaimLab> lab;
    HandMade(std::vector<TaskItem> items, std::function<Result<ClaimAnswer>(const RunSpec&)> source,
             HeadMapSource source_kind = HeadMapSource::Gguf) {
        map = HeadMap::from_json(HeadMap::make_default(1, 8).to_json(), 1, 8, source_kind).value();
        ClaimModel m;
        m.map = &map;
        m.name = "hand-made";
        ClaimData d;
        d.items = std::move(items);
        ClaimLabOptions o;
        o.seed = 5;
        o.answer_source = std::move(source);
        lab = std::make_unique<ClaimLab>(m, std::move(d), o);
    }
};

Claim claim_of(const char* protocol, nlohmann::json params) {
    Claim c;
    c.id = std::string("test-") + protocol;
    c.protocol = protocol;
    c.params = std::move(params);
    c.test = ThresholdTest::Above;
    c.threshold = 0.0;
    return c;
}

SubsystemValues top(int s, float value = 0.5f) {
    SubsystemValues v;
    v.fill((1.0f - value) / 7.0f);
    v[static_cast<size_t>(s)] = value;
    return v;
}

std::vector<TaskItem> items_of(int subsystem, int n) {
    std::vector<TaskItem> items;
    for (int i = 0; i < n; ++i) items.push_back({"item " + std::to_string(i) + " of " + std::string(subsystem_id(subsystem)), std::to_string(10 + i), subsystem, "en", false});
    return items;
}

int item_number(const std::string& prompt) {
    const size_t at = prompt.find("item ");
    return std::stoi(prompt.substr(at + 5));
}

TEST(ClaimProtocols, TokenAfterNumberThreeOfFour) {
    // Four rte-c answers "7 x": the token after "7" is topped by rte-c three times, rte-a once.
    HandMade h(items_of(2, 4), [](const RunSpec& r) -> Result<ClaimAnswer> {
        ClaimAnswer a;
        a.last_prompt_token = "what";
        a.tokens = {"7", " x"};
        a.is_eog = {false, false};
        a.shares = {top(0), top(item_number(r.prompt) == 3 ? 0 : 2)};
        return a;
    });
    auto r = h.lab->run(claim_of("token_after_number", {{"subsystem", "rte-c"}, {"subsystems", {"rte-c"}}, {"items", 4}}));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(r->estimate);
    EXPECT_DOUBLE_EQ(r->estimate->value, 0.75);
    EXPECT_DOUBLE_EQ(r->estimate->ci95.lo, 0.0) << "the expanded percentiles of 4 units span every resample";
    EXPECT_DOUBLE_EQ(r->estimate->ci95.hi, 1.0);
    EXPECT_EQ(r->estimate->n, 4);
    EXPECT_EQ(r->verdict, Verdict::Inconclusive) << "4 items are too few for a verdict (kMinUnitsForVerdict)";
    EXPECT_EQ(r->details["plot"]["kind"], "bars");
    EXPECT_EQ(r->tables.front().rows.size(), 4u) << "only the token after the digit qualifies";
    // An answer that ends right after its digit: the end-of-generation token is not counted.
    HandMade ends(items_of(2, 4), [](const RunSpec&) -> Result<ClaimAnswer> {
        ClaimAnswer a;
        a.last_prompt_token = "what";
        a.tokens = {"7", "<|eos|>"};
        a.is_eog = {false, true};
        a.shares = {top(0), top(2)};
        return a;
    });
    auto none = ends.lab->run(claim_of("token_after_number", {{"subsystem", "rte-c"}, {"subsystems", {"rte-c"}}, {"items", 4}}));
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_EQ(none->verdict, Verdict::NotMeasurable) << "no answer token follows a digit";
}

TEST(ClaimProtocols, PositionProfileComparesTheThirdsAndLeavesOutEndOfGeneration) {
    // Item i: shares 0.6 + 0.01 d_i, 0.4, 0.2 − 0.01 d_i with d_i = −1, 1, −1, 1, −1, 1: the start−end
    // difference is 0.4 + 0.02 d_i, mean 0.4, s = 0.0219, Student t over 6 answers.
    HandMade h(items_of(0, 6), [](const RunSpec& r) -> Result<ClaimAnswer> {
        const float d = item_number(r.prompt) % 2 ? 0.01f : -0.01f;
        ClaimAnswer a;
        a.tokens = {"a", "b", "c", "<eog>"};
        a.is_eog = {false, false, false, true};
        a.shares = {top(0, 0.6f + d), top(0, 0.4f), top(0, 0.2f - d), top(0, 0.9f)};
        return a;
    });
    auto r = h.lab->run(claim_of("position_profile", {{"subsystem", "rte-a"}, {"direction", "start"}, {"subsystems", {"rte-a"}}, {"bins", 5}}));
    ASSERT_TRUE(r && r->estimate);
    EXPECT_NEAR(r->estimate->value, 0.4, 1e-6);
    const double half = 2.570582 * std::sqrt(6.0 * 0.02 * 0.02 / 5.0) / std::sqrt(6.0); // t_{.975, 5} · s / √n
    EXPECT_NEAR(r->estimate->ci95.lo, 0.4 - half, 1e-5);
    EXPECT_EQ(r->estimate->method, IntervalMethod::StudentT);
    EXPECT_EQ(r->verdict, Verdict::Holds);
    const auto& a = r->details["plot"]["series"][0];
    EXPECT_NEAR(a["values"][0].get<double>(), 0.6, 1e-6);
    EXPECT_NEAR(a["values"][2].get<double>(), 0.4, 1e-6);
    EXPECT_NEAR(a["values"][4].get<double>(), 0.2, 1e-6);
    EXPECT_TRUE(a["values"][1].is_null()) << "no token falls in bin 1";
    // The reverse direction reads the same answers as a fall.
    auto end = h.lab->run(claim_of("position_profile", {{"subsystem", "rte-a"}, {"direction", "end"}, {"subsystems", {"rte-a"}}}));
    EXPECT_NEAR(end->estimate->value, -0.4, 1e-6);
    EXPECT_EQ(end->verdict, Verdict::DoesNotHold);
}

TEST(ClaimProtocols, PromptAbPairsTheItems) {
    // Wording b is always right; wording a only on even items.
    HandMade h(items_of(2, 10), [](const RunSpec& r) -> Result<ClaimAnswer> {
        const int i = item_number(r.prompt);
        const bool b = r.prompt.starts_with("B:");
        ClaimAnswer a;
        a.ended = true;
        a.text = b || i % 2 == 0 ? "**" + std::to_string(10 + i) + "** since" : "0";
        return a;
    });
    nlohmann::json p = {{"subsystems", {"rte-c"}}, {"a", {{"en", "A: {prompt}"}, {"zh", "A: {prompt}"}}},
                        {"b", {{"en", "B: {prompt}"}, {"zh", "B: {prompt}"}}}, {"match", "number"}};
    auto diff = h.lab->run(claim_of("prompt_ab", p));
    ASSERT_TRUE(diff && diff->estimate) << (diff ? "" : diff.error().message);
    EXPECT_DOUBLE_EQ(diff->estimate->value, 0.5);
    EXPECT_DOUBLE_EQ(diff->details["accuracy_a"].get<double>(), 0.5);
    // 5 items right both ways, 5 only with b: Newcombe's paired interval and McNemar's p = 2/2^5.
    EXPECT_EQ(diff->estimate->method, IntervalMethod::NewcombePaired);
    EXPECT_NEAR(diff->estimate->ci95.lo, newcombe_paired_interval({5, 0, 5, 0}).lo, 1e-15);
    EXPECT_GT(diff->estimate->ci95.lo, 0.1);
    EXPECT_LT(diff->estimate->ci95.hi, 0.8);
    ASSERT_TRUE(diff->estimate->p_value);
    EXPECT_NEAR(*diff->estimate->p_value, 2.0 / 32.0, 1e-13);
    EXPECT_EQ(diff->estimate->n, 10);
    EXPECT_EQ(diff->verdict, Verdict::Holds);
    p["statistic"] = "error_reduction";
    auto cut = h.lab->run(claim_of("prompt_ab", p));
    EXPECT_DOUBLE_EQ(cut->estimate->value, 1.0) << "b removes every error a makes";
    p["match"] = "exact"; // nothing is exactly right: both wordings sit at 0 %
    auto exact = h.lab->run(claim_of("prompt_ab", p));
    EXPECT_DOUBLE_EQ(exact->estimate->value, 0.0);
    EXPECT_EQ(exact->estimate->method, IntervalMethod::BonettPriceRatio);
    EXPECT_LT(exact->estimate->ci95.lo, -0.1) << "never a zero-width interval, even with every item wrong both ways";
    EXPECT_GT(exact->estimate->ci95.hi, 0.1);
    EXPECT_EQ(exact->verdict, Verdict::Uninformative) << "both at 0 % is no evidence against the claim";
    EXPECT_NE(exact->reason.find("wrong on every item"), std::string::npos) << exact->reason;
    p["statistic"] = "accuracy_difference";
    auto exact_diff = h.lab->run(claim_of("prompt_ab", p));
    EXPECT_EQ(exact_diff->verdict, Verdict::Uninformative);
    EXPECT_LT(exact_diff->estimate->ci95.lo, 0.0) << "the interval is real even so";
    p["statistic"] = "error_reduction";
    p["match"] = "number";
    p["a"] = p["b"]; // wording a makes no error: there is none to cut
    auto none = h.lab->run(claim_of("prompt_ab", p));
    EXPECT_FALSE(none->estimate);
    EXPECT_EQ(none->verdict, Verdict::NotMeasurable);
    p.erase("a");
    EXPECT_FALSE(h.lab->run(claim_of("prompt_ab", p))) << "a template is missing";
}

// multi_turn: each scripted conversation answered turn by turn against its single prompt. Here the
// third turn contradicts the facts in every conversation, the single prompt restates them: every
// conversation breaks, no single prompt does.
TEST(ClaimProtocols, MultiTurnComparesConversationsWithTheirSinglePrompt) {
    const HeadMap map = HeadMap::make_default(1, 8);
    auto lab_with = [&](std::function<Result<ClaimAnswer>(const RunSpec&)> source) {
        ClaimModel m;
        m.map = &map;
        m.name = "hand-made";
        ClaimData d;
        d.resource_dir = kResources;
        ClaimLabOptions o;
        o.answer_source = std::move(source);
        return std::make_unique<ClaimLab>(m, std::move(d), o);
    };
    const auto contradict = [](const RunSpec& q) -> Result<ClaimAnswer> {
        ClaimAnswer a;
        const std::string& first = q.messages.front().content;
        if (q.messages.size() == 1 && first.find('?') != std::string::npos) {
            a.text = first.substr(0, first.find('.') + 1); // the single prompt: its facts restated
        } else if (q.messages.size() == 5) {
            a.text = first.starts_with("Alice") ? "Bob is the manager." : first.starts_with("Lena") ? "Omar is the captain."
                   : first.starts_with("The trip") ? "The trip to the lake is 15 km." : "The ticket costs $50.";
        } else {
            a.text = "OK.";
        }
        return a;
    };
    auto contradicting = lab_with(contradict);
    auto r = contradicting->run(claim_of("multi_turn", {{"items", 4}}));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_TRUE(r->estimate) << r->reason;
    EXPECT_DOUBLE_EQ(r->estimate->value, 1.0) << "4 of 4 conversations broke, 0 of 4 single prompts";
    EXPECT_EQ(r->estimate->method, IntervalMethod::NewcombePaired);
    EXPECT_NEAR(r->estimate->ci95.lo, newcombe_paired_interval({0, 0, 4, 0}).lo, 1e-15);
    EXPECT_NEAR(*r->estimate->p_value, 2.0 / 16.0, 1e-15);
    EXPECT_EQ(r->estimate->n, 4);
    ASSERT_EQ(r->tables.front().rows.size(), 4u);
    EXPECT_EQ(r->tables.front().rows[0][2], "1") << "one break in the first conversation";
    EXPECT_NE(r->tables.front().rows[0][5].find("the manager was Alice"), std::string::npos) << r->tables.front().rows[0][5];
    EXPECT_EQ(r->details["plot"]["kind"], "bars");
    // On a server (any: the measure reads outputs only) the same answers give the same result.
    {
        ClaimModel m;
        m.map = &map;
        m.name = "served";
        m.server = ClaimServer{"http://gpu-box:8000", false, ""};
        ClaimData d;
        d.resource_dir = kResources;
        ClaimLabOptions o;
        o.answer_source = contradict;
        ClaimLab served(m, std::move(d), o);
        auto on_server = served.run(claim_of("multi_turn", {{"items", 4}}));
        ASSERT_TRUE(on_server) << on_server.error().message;
        ASSERT_TRUE(on_server->estimate) << on_server->reason;
        EXPECT_DOUBLE_EQ(on_server->estimate->value, 1.0);
        EXPECT_NE(on_server->method.find("the server's"), std::string::npos) << on_server->method;
    }
    // Answers that never contradict: nothing tells the two apart.
    auto steady = lab_with([](const RunSpec&) -> Result<ClaimAnswer> {
        ClaimAnswer a;
        a.text = "OK.";
        return a;
    });
    auto none = steady->run(claim_of("multi_turn", {{"items", 4}}));
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_EQ(none->verdict, Verdict::Uninformative);
    EXPECT_NE(none->reason.find("no conversation"), std::string::npos) << none->reason;
}

// A remote engine answers in batches: the protocol's whole request list goes out at once, the
// answers it then asks for one by one come from the cache, and the results equal the one-by-one run.
TEST(ClaimProtocols, AnswerBatchesServeTheProtocolsRequests) {
    const auto source = [](const RunSpec& r) -> Result<ClaimAnswer> {
        ClaimAnswer a;
        a.ended = true;
        a.text = r.prompt.starts_with("B:") || item_number(r.prompt) % 3 == 0 ? std::to_string(10 + item_number(r.prompt)) : "0";
        return a;
    };
    const nlohmann::json p = {{"subsystems", {"rte-c"}}, {"a", {{"en", "A: {prompt}"}, {"zh", "A: {prompt}"}}},
                              {"b", {{"en", "B: {prompt}"}, {"zh", "B: {prompt}"}}}, {"match", "number"}};
    HandMade one_by_one(items_of(2, 12), source);
    auto expected = one_by_one.lab->run(claim_of("prompt_ab", p));
    ASSERT_TRUE(expected && expected->estimate);

    int single_calls = 0;
    std::vector<size_t> batch_sizes;
    HandMade batched(items_of(2, 12), [&](const RunSpec& r) {
        ++single_calls;
        return source(r);
    });
    ClaimLabOptions o = batched.lab->options();
    o.answer_batch = [&](const std::vector<RunSpec>& asked) {
        batch_sizes.push_back(asked.size());
        std::vector<Result<ClaimAnswer>> out;
        for (const RunSpec& r : asked) out.push_back(source(r));
        return out;
    };
    ClaimLab lab(batched.lab->model(), batched.lab->data(), o);
    auto got = lab.run(claim_of("prompt_ab", p));
    ASSERT_TRUE(got && got->estimate);
    EXPECT_EQ(single_calls, 0);
    ASSERT_EQ(batch_sizes.size(), 1u);
    EXPECT_EQ(batch_sizes[0], 2u * 12u); // both wordings of every item
    EXPECT_DOUBLE_EQ(got->estimate->value, expected->estimate->value);
    EXPECT_EQ(got->verdict, expected->verdict);

    // A failed request fails the claim with its error.
    o.answer_batch = [](const std::vector<RunSpec>& asked) {
        std::vector<Result<ClaimAnswer>> out(asked.size(), Result<ClaimAnswer>(make_error(ErrorCode::Io, "server gone")));
        return out;
    };
    ClaimLab failing(batched.lab->model(), batched.lab->data(), o);
    auto failed = failing.run(claim_of("prompt_ab", p));
    ASSERT_FALSE(failed);
    EXPECT_EQ(failed.error().message, "server gone");
}

// A server that gives outputs only: claims that need shares say so; an Octoscope server's own
// default head map is named as uncalibrated.
TEST(ClaimProtocols, ServersWithoutInternalsAreNamed) {
    ClaimModel m;
    m.name = "remote";
    m.server = ClaimServer{"http://gpu-box:8000", false, ""};
    ClaimLab other(m, ClaimData{}, ClaimLabOptions{});
    std::string why;
    EXPECT_FALSE(other.has_subsystems(&why));
    EXPECT_NE(why.find("http://gpu-box:8000"), std::string::npos) << why;
    EXPECT_NE(why.find("needs a local model or an Octoscope server"), std::string::npos) << why;
    m.server = ClaimServer{"http://gpu-box:8000", true, "default"};
    ClaimLab uncalibrated(m, ClaimData{}, ClaimLabOptions{});
    EXPECT_FALSE(uncalibrated.has_subsystems(&why));
    EXPECT_NE(why.find("calibrate"), std::string::npos) << why;
    m.server = ClaimServer{"http://gpu-box:8000", true, "gguf"};
    ClaimLab octoscope(m, ClaimData{}, ClaimLabOptions{});
    EXPECT_TRUE(octoscope.has_subsystems());
    EXPECT_TRUE(octoscope.internals_missing().empty());
}

TEST(ClaimProtocols, CrossEffectOrderAndSpecialisation) {
    std::vector<TaskItem> items;
    for (int s = 0; s < kSubsystemCount; ++s) {
        for (TaskItem& it : items_of(s, 2)) items.push_back(it);
    }
    // Right unless the item's own group is off; rte-b's items also fail with rte-a off.
    auto source = [items](const RunSpec& r) -> Result<ClaimAnswer> {
        const TaskItem* item = nullptr;
        for (const TaskItem& it : items) {
            if (it.prompt == r.prompt) item = &it;
        }
        const bool wrong = r.disabled[static_cast<size_t>(item->subsystem)] || (item->subsystem == 1 && r.disabled[0]);
        ClaimAnswer a;
        a.ended = true;
        a.text = wrong ? "?" : item->answer;
        return a;
    };
    HandMade h(items, source);
    auto order = h.lab->run(claim_of("cross_effect", {{"statistic", "order"}, {"first", "rte-a"}, {"second", "rte-b"}, {"items", 2}}));
    ASSERT_TRUE(order && order->estimate);
    EXPECT_DOUBLE_EQ(order->estimate->value, 1.0);
    EXPECT_EQ(order->estimate->n, 4) << "only rte-a's and rte-b's items enter the statistic, not all 16";
    EXPECT_EQ(order->estimate->method, IntervalMethod::MoverOfPaired);
    // drop 1 on rte-b's 2 items (Newcombe {0, 0, 2, 0}) minus drop 0 on rte-a's (both right: {2, 0, 0, 0}).
    const Interval fwd = newcombe_paired_interval({0, 0, 2, 0}), back = newcombe_paired_interval({2, 0, 0, 0});
    EXPECT_NEAR(order->estimate->ci95.lo, mover_difference(1.0, fwd, 0.0, back).lo, 1e-15);
    EXPECT_LT(order->estimate->ci95.lo, 0.5) << "two items per subsystem cannot pin the order down";
    EXPECT_EQ(order->verdict, Verdict::Inconclusive);
    EXPECT_DOUBLE_EQ(order->details["plot"]["values"][0][1].get<double>(), 1.0) << "rte-a off, rte-b's items";
    EXPECT_DOUBLE_EQ(order->details["plot"]["values"][1][0].get<double>(), 0.0) << "rte-b off, rte-a's items";
    auto spec = h.lab->run(claim_of("cross_effect", {{"statistic", "specialisation"}, {"items", 2}}));
    EXPECT_NEAR(spec->estimate->value, (8.0 - 1.0 / 7.0) / 8.0, 1e-12);
}

TEST(ClaimProtocols, DegradeRenormalisesOverTheSubsystemsStillOn) {
    HandMade h(items_of(5, 4), [](const RunSpec& r) -> Result<ClaimAnswer> {
        SubsystemValues s;
        if (r.disabled[5]) {
            s.fill(0.7f / 6.0f);
            s[0] = 0.3f;
            s[5] = 0.0f;
        } else {
            s.fill(0.4f / 6.0f);
            s[0] = 0.1f;
            s[5] = 0.5f;
        }
        SubsystemValues gates;
        gates.fill(0.5f / 7.0f);
        gates[5] = 0.5f; // router gates stay high while rte-f's heads are zeroed: never read
        ClaimAnswer a;
        a.tokens = {"t"};
        a.is_eog = {false};
        a.shares = {gates};
        a.contributions = {s};
        return a;
    });
    auto r = h.lab->run(claim_of("degrade", {{"off", "rte-f"}, {"taker", "rte-a"}}));
    ASSERT_TRUE(r && r->estimate);
    EXPECT_NEAR(r->estimate->value, 0.3 - 0.1 / 0.5, 1e-6);
    EXPECT_EQ(r->estimate->n, 4);
    EXPECT_EQ(r->verdict, Verdict::Uninformative) << "four identical answers: no interval can be sized";
    EXPECT_NE(r->reason.find("same value"), std::string::npos) << r->reason;
}

// "Why 8" switches exactly one router group's heads in every variant (issue 49: the 4-group
// switch used to silence the neighbour that shares the group, which alone made its propagation).
TEST(ClaimProtocols, HeadGroupSwitchesZeroExactlyOneGroup) {
    for (const auto& [groups, n_head] : std::vector<std::pair<int64_t, int64_t>>{{4, 8}, {8, 8}, {16, 16}}) {
        for (int64_t g = 0; g < groups; ++g) {
            auto map = one_group_map(g, groups, 3, n_head);
            ASSERT_TRUE(map) << map.error().message;
            for (int64_t l = 0; l < 3; ++l) {
                int64_t switched = 0;
                for (int64_t k = 0; k < n_head; ++k) {
                    const bool in_group = k / (n_head / groups) == g;
                    EXPECT_EQ(map->subsystem_of(l, k), in_group ? 0 : 1) << groups << " groups, group " << g << ", head " << k;
                    switched += in_group;
                }
                EXPECT_EQ(switched, n_head / groups);
            }
        }
    }
    EXPECT_FALSE(one_group_map(0, 3, 2, 8)) << "3 groups do not divide 8 heads";
    EXPECT_FALSE(one_group_map(4, 4, 2, 8));
    // Whose items are a group's own: with 4 groups group 1 serves rte-c and rte-d, with 16 group 5 serves rte-c.
    EXPECT_TRUE(group_serves(1, 2, 4));
    EXPECT_TRUE(group_serves(1, 3, 4));
    EXPECT_FALSE(group_serves(1, 4, 4));
    EXPECT_TRUE(group_serves(5, 2, 16));
    EXPECT_FALSE(group_serves(5, 3, 16));
    EXPECT_TRUE(group_serves(3, 3, 8));
    EXPECT_FALSE(group_serves(3, 2, 8));
}

TEST(ClaimProtocols, SharesNeedAnEarnedMap) {
    HandMade h(items_of(2, 2), [](const RunSpec&) -> Result<ClaimAnswer> { return ClaimAnswer{}; }, HeadMapSource::Default);
    for (const char* p : {"token_after_number", "position_profile", "degrade", "cross_effect"}) {
        auto r = h.lab->run(claim_of(p, nlohmann::json::object()));
        ASSERT_TRUE(r) << p;
        EXPECT_EQ(r->verdict, Verdict::NotMeasurable) << p;
        EXPECT_NE(r->reason.find("head map"), std::string::npos) << r->reason;
    }
    auto groups = h.lab->run(claim_of("head_groups", nlohmann::json::object()));
    EXPECT_EQ(groups->verdict, Verdict::NotMeasurable);
    EXPECT_NE(groups->reason.find("load octet"), std::string::npos) << groups->reason;
}

TEST(ClaimProtocols, CancellingEndsTheRunWithWhatFinished) {
    std::atomic<bool> cancel{false};
    HeadMap map = HeadMap::from_json(HeadMap::make_default(1, 8).to_json(), 1, 8, HeadMapSource::Gguf).value();
    ClaimModel m;
    m.map = &map;
    ClaimData d;
    d.items = items_of(2, 8);
    ClaimLabOptions o;
    o.cancel = &cancel;
    int calls = 0;
    o.answer_source = [&](const RunSpec&) -> Result<ClaimAnswer> {
        if (++calls == 20) cancel = true; // the first claim takes 16 answers: this is during the second
        ClaimAnswer a;
        a.ended = true;
        return a;
    };
    ClaimLab lab(m, d, o);
    nlohmann::json p = {{"subsystems", {"rte-c"}}, {"a", {{"en", "A {prompt}"}, {"zh", "A {prompt}"}}},
                        {"b", {{"en", "B {prompt}"}, {"zh", "B {prompt}"}}}};
    Claim first = claim_of("prompt_ab", p);
    Claim second = first;
    second.id = "second";
    auto report = run_claims(lab, {first, second, first});
    ASSERT_TRUE(report) << report.error().message;
    EXPECT_FALSE(report->complete);
    ASSERT_EQ(report->results.size(), 1u);
    EXPECT_EQ(report->results[0].id, first.id);
    ASSERT_EQ(report->not_run.size(), 2u) << "the stopped claim and the one after it";
    const nlohmann::json j = claims_json(*report);
    ASSERT_EQ(j["claims"].size(), 3u) << "every requested claim is listed";
    EXPECT_EQ(j["claims"][1]["id"], "second");
    EXPECT_EQ(j["claims"][1]["verdict"], "not run");
}

TEST(ClaimProtocols, AFailingClaimIsNotMeasurableAndTheRunGoesOn) {
    // The second claim's answers fail as a prompt past the context does; the third still runs.
    HandMade h(items_of(2, 6), [](const RunSpec& r) -> Result<ClaimAnswer> {
        if (r.prompt.starts_with("LONG")) return make_error(ErrorCode::InvalidArgument, "the prompt has 156 tokens but the context holds 128");
        ClaimAnswer a;
        a.ended = true;
        a.text = r.prompt.starts_with("B") ? "1" : "0";
        return a;
    });
    nlohmann::json p = {{"subsystems", {"rte-c"}}, {"a", {{"en", "A {prompt}"}, {"zh", "A {prompt}"}}},
                        {"b", {{"en", "B {prompt}"}, {"zh", "B {prompt}"}}}, {"match", "number"}};
    Claim fine = claim_of("prompt_ab", p);
    Claim too_long = fine;
    too_long.id = "too-long";
    too_long.params["b"] = {{"en", "LONG {prompt}"}, {"zh", "LONG {prompt}"}};
    Claim last = fine;
    last.id = "last";
    auto report = run_claims(*h.lab, {fine, too_long, last});
    ASSERT_TRUE(report) << report.error().message;
    EXPECT_TRUE(report->complete);
    ASSERT_EQ(report->results.size(), 3u);
    EXPECT_EQ(report->results[1].id, "too-long");
    EXPECT_EQ(report->results[1].verdict, Verdict::NotMeasurable);
    EXPECT_NE(report->results[1].reason.find("context holds 128"), std::string::npos) << report->results[1].reason;
    EXPECT_TRUE(report->results[2].estimate) << "the claim after the failing one ran";
}

// ---- reports --------------------------------------------------------------------------------

TEST(ClaimsReport, JsonMarkdownAndCsv) {
    ClaimsReport rep;
    rep.model = "m";
    rep.note = {"note", "注"};
    Claim c = claim_of("prompt_ab", nlohmann::json::object());
    c.article_figure = 0.64;
    c.unit = ClaimUnit::Share;
    c.text = {"claim text", "论断"};
    ClaimResult r;
    r.id = c.id;
    r.estimate = Estimate{0.5, {0.4, 0.6}, 40, 2000, IntervalMethod::Bootstrap, std::nullopt, {}};
    r.verdict = Verdict::Holds;
    r.test.figure_in_interval = false;
    r.tables.push_back({"items", {"a", "b"}, {{"x,y", "say \"hi\""}}});
    rep.claims = {c};
    rep.results = {r};
    const nlohmann::json j = claims_json(rep);
    EXPECT_EQ(j["claims"][0]["measured"], 0.5);
    EXPECT_EQ(j["claims"][0]["ci95"], nlohmann::json::array({0.4, 0.6}));
    EXPECT_EQ(j["claims"][0]["n"], 40);
    EXPECT_EQ(j["claims"][0]["verdict"], "holds");
    EXPECT_EQ(j["claims"][0]["article_figure"], 0.64);
    EXPECT_EQ(table_csv(r.tables[0]), "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n");
    // A token cut mid-character ("中" is E4 B8 AD): its bytes escaped, the file valid UTF-8.
    EXPECT_EQ(table_csv({"t", {"token"}, {{"\xE4\xB8"}, {"\xAD!"}, {"中"}}}), "token\n\\xE4\\xB8\n\\xAD!\n中\n");
    const std::string md = claims_markdown(rep, false);
    EXPECT_NE(md.find("| test-prompt_ab | 64.0 % | 95 % interval > 0.0 % | 50.0 % | [40.0 %, 60.0 %] | 40 | — | "
                      "holds; the article's value (64.0 %) is excluded |"), std::string::npos) << md;
    EXPECT_EQ(j["claims"][0]["verdict_line"], "holds; the article's value (64.0 %) is excluded");
    // A control appears in the JSON, the table and the verdict line.
    ClaimsReport controlled = rep;
    controlled.results[0].control = ControlResult{proportion_estimate(8, 40), 0.02, true, {}};
    const auto jc = claims_json(controlled)["claims"][0];
    EXPECT_EQ(jc["control"]["kind"], "shuffled map");
    EXPECT_EQ(jc["control"]["beaten"], true);
    EXPECT_DOUBLE_EQ(jc["control"]["measured"].get<double>(), 0.2);
    EXPECT_NE(jc["verdict_line"].get<std::string>().find("beats the shuffled-map control (20.0 % ["), std::string::npos) << jc["verdict_line"];
    EXPECT_NE(claims_markdown(controlled, false).find("| 40 | 20.0 % ["), std::string::npos);
    EXPECT_EQ(j["claims"][0]["subject"], "model");
    EXPECT_NE(claims_markdown(rep, true).find("成立"), std::string::npos);
    const auto dir = std::filesystem::temp_directory_path() / ("claims-report-" + std::to_string(::getpid()));
    auto files = write_claims_report(dir, rep);
    ASSERT_TRUE(files);
    EXPECT_TRUE(std::filesystem::exists(dir / "report.md"));
    EXPECT_TRUE(std::filesystem::exists(dir / "claims.csv"));
    EXPECT_TRUE(std::filesystem::exists(dir / "test-prompt_ab-items.csv"));
    std::filesystem::remove_all(dir);
}

// ---- the lab on octet ------------------------------------------------------------------------

class OctetClaims : public ::testing::Test {
protected:
    void SetUp() override {
        auto opened = open_model(kResources + "/octet/octet.gguf", {.backend = "cpu", .threads = 2});
        ASSERT_TRUE(opened) << opened.error().message;
        m = std::make_unique<OpenedModel>(std::move(opened.value()));
        auto d = load_claim_data(kResources);
        ASSERT_TRUE(d) << d.error().message;
        data = std::move(d.value());
        catalog = read_claim_catalog(kResources + "/claims/claims.json").value();
    }
    ClaimLab lab(int64_t items) {
        ClaimModel cm{m->model.get(), m->backend.get(), m->tokenizer.get(), &m->map(), nullptr, m->kv.get(), "octet"};
        ClaimLabOptions o;
        o.seed = 3;
        o.items = items;
        o.resamples = 500;
        return ClaimLab(cm, data, o);
    }
    std::unique_ptr<OpenedModel> m;
    ClaimData data;
    ClaimCatalog catalog;
};

TEST_F(OctetClaims, KvReuseCountsWholeBlocksOfTheUnchangedPrefix) {
    ClaimLab l = lab(1);
    Claim c = *catalog.find("kv-pool-reuse");
    c.params["edits"] = {"rerun", "edit_start"};
    auto r = l.run(c);
    ASSERT_TRUE(r && r->estimate) << (r ? r->reason : r.error().message);
    const int64_t block = m->kv->pool().block_size();
    double reused = 0, total = 0;
    for (const auto& row : r->tables[0].rows) {
        const int64_t n = std::stoll(row[3]), got = std::stoll(row[4]);
        if (row[2] == "rerun") {
            EXPECT_EQ(got, (n - 1) / block * block) << "every full block but the last token's";
        }
        if (row[2] == "edit_start") {
            EXPECT_EQ(got, 0) << "a word in front leaves nothing to reuse";
        }
        reused += static_cast<double>(got);
        total += static_cast<double>(n);
    }
    EXPECT_EQ(r->tables[0].rows.size(), 8u * 3u);
    EXPECT_DOUBLE_EQ(r->estimate->value, reused / total);
    // Sessions start at random phases of the block grid (newline tokens in front), so that one
    // tokenization's block boundaries do not decide the value.
    std::set<std::string> phases;
    for (const auto& row : r->tables[0].rows) {
        const int64_t phase = std::stoll(row[5]);
        EXPECT_GE(phase, 0);
        EXPECT_LT(phase, block);
        phases.insert(row[5]);
    }
    EXPECT_GE(phases.size(), 3u) << "8 sessions, one phase each";
}

// A number attribute of the SVG element with `id` ("x1", "cx", …).
double svg_attribute(const std::string& svg, const std::string& id, const std::string& attribute) {
    const size_t at = svg.find("id=\"" + id + "\"");
    if (at == std::string::npos) return std::nan("");
    const size_t start = svg.rfind('<', at), end = svg.find('>', at);
    const std::string element = svg.substr(start, end - start);
    const size_t a = element.find(" " + attribute + "=\"");
    if (a == std::string::npos) return std::nan("");
    return std::stod(element.substr(a + attribute.size() + 3));
}

TEST(ClaimsReport, VerdictSvgPlacesIntervalThresholdControlAndFigure) {
    Claim c;
    c.id = "rte-c-after-number";
    c.unit = ClaimUnit::Share;
    c.test = ThresholdTest::Above;
    c.threshold = 0.5;
    c.article_figure = 0.73;
    ClaimResult r;
    r.verdict = Verdict::Holds;
    r.estimate = proportion_estimate(30, 40); // 75 %, Wilson [59.8 %, 85.8 %]
    r.control = ControlResult{proportion_estimate(8, 40), 0.02, true, {}};
    const std::string svg = verdict_svg(c, r);
    ASSERT_EQ(svg.rfind("<svg", 0), 0u);
    EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
    const double lo = svg_attribute(svg, "measured-ci", "x1"), hi = svg_attribute(svg, "measured-ci", "x2");
    const double point = svg_attribute(svg, "measured", "cx"), threshold = svg_attribute(svg, "threshold", "x1");
    EXPECT_LT(lo, point);
    EXPECT_LT(point, hi);
    EXPECT_LT(threshold, lo) << "the whole interval beyond 50 %: it holds";
    EXPECT_LT(svg_attribute(svg, "control-ci", "x2"), threshold) << "the control's 20 % [11 %, 35 %] lies short of it";
    // The article's 73 %: the diamond's tip just left of the measured 75 %, inside the interval.
    const std::string d = svg.substr(svg.find("id=\"article\" d=\"M ") + 17);
    const double figure = std::stod(d);
    EXPECT_GT(figure, lo);
    EXPECT_LT(figure, point);
    // Linear: 75 % − 73 % is 2/25 of the way from 50 % to 75 %... on the same scale as the interval.
    EXPECT_NEAR((point - figure) / (point - threshold), 0.02 / 0.25, 1e-3);
    EXPECT_NE(svg.find("95 % CI"), std::string::npos);
    EXPECT_NE(verdict_svg(c, r, true).find("阈值 50.0 %"), std::string::npos);
    c.article_figure = "words, no number";
    r.control.reset();
    const std::string plain = verdict_svg(c, r);
    EXPECT_EQ(plain.find("id=\"article\""), std::string::npos);
    EXPECT_EQ(plain.find("id=\"control-ci\""), std::string::npos);
    r.estimate.reset();
    EXPECT_TRUE(verdict_svg(c, r).empty()) << "nothing measured, nothing drawn";
}

TEST(ClaimLab, AShuffledMapKeepsEachLayersCountsAndLosesTheLabels) {
    const HeadMap map = HeadMap::make_default(6, 16); // head k → subsystem k mod 8
    auto a = shuffled_head_map(map, 7), b = shuffled_head_map(map, 7), c = shuffled_head_map(map, 8);
    ASSERT_TRUE(a && b && c);
    int moved = 0, differs = 0;
    for (int64_t l = 0; l < 6; ++l) {
        std::array<int, kSubsystemCount> before{}, after{};
        for (int64_t h = 0; h < 16; ++h) {
            ++before[static_cast<size_t>(map.subsystem_of(l, h))];
            ++after[static_cast<size_t>(a->subsystem_of(l, h))];
            moved += a->subsystem_of(l, h) != map.subsystem_of(l, h);
            EXPECT_EQ(a->subsystem_of(l, h), b->subsystem_of(l, h)) << "the seed fixes the shuffle";
            differs += a->subsystem_of(l, h) != c->subsystem_of(l, h);
        }
        EXPECT_EQ(before, after) << "layer " << l << " keeps its heads per subsystem";
    }
    EXPECT_GT(moved, 60) << "of 96 heads, most lose their label";
    EXPECT_GT(differs, 0);
    EXPECT_EQ(a->source(), map.source());
}

// A claim that reads the map holds only beyond its shuffled-map control.
TEST_F(OctetClaims, HoldsNeedsTheShuffledMapControlBeaten) {
    ClaimLab l = lab(2);
    Claim c = *catalog.find("groups-specialise");
    auto beaten = l.run(c);
    ASSERT_TRUE(beaten && beaten->estimate && beaten->control && beaten->control->estimate) << (beaten ? beaten->reason : beaten.error().message);
    EXPECT_EQ(beaten->control->margin, 0.05);
    EXPECT_LT(beaten->control->estimate->value, beaten->estimate->value) << "specialisation under a shuffled map is lost";
    EXPECT_EQ(beaten->control->beaten, beaten->estimate->ci95.lo - beaten->control->estimate->ci95.hi > 0.05);
    // A threshold the measured interval clears, but a control margin no interval can clear.
    c.threshold = -1.0;
    c.control_margin = 10.0;
    auto unbeaten = l.run(c);
    ASSERT_TRUE(unbeaten && unbeaten->control);
    EXPECT_FALSE(unbeaten->control->beaten);
    EXPECT_EQ(unbeaten->verdict, Verdict::Inconclusive);
    EXPECT_NE(verdict_line(c, *unbeaten).find("does not beat the shuffled-map control"), std::string::npos) << verdict_line(c, *unbeaten);
    c.control_margin.reset();
    auto plain = l.run(c);
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->verdict, Verdict::Holds) << "without a control the same interval holds";
    EXPECT_FALSE(plain->control);
}

TEST_F(OctetClaims, AClaimAloneGivesTheValueOfTheFullRun) {
    ClaimLab full = lab(2);
    auto together = run_claims(full, {*catalog.find("degraded-f-to-a"), *catalog.find("rte-c-after-number")});
    ASSERT_TRUE(together) << together.error().message;
    ClaimLab alone = lab(2);
    auto single = alone.run(*catalog.find("rte-c-after-number"));
    ASSERT_TRUE(single && single->estimate && together->results[1].estimate);
    EXPECT_EQ(single->estimate->value, together->results[1].estimate->value);
    EXPECT_EQ(single->estimate->ci95.lo, together->results[1].estimate->ci95.lo);
    EXPECT_EQ(single->estimate->ci95.hi, together->results[1].estimate->ci95.hi);
    EXPECT_NE(together->note.en.find("no evidence about GPT-4"), std::string::npos);
    EXPECT_EQ(together->map, "head map stored in the GGUF file");
}

TEST_F(OctetClaims, LatencyBandsAreTheArticlesUnscaled) {
    ClaimLab l = lab(2);
    Claim c = *catalog.find("latency-bimodal");
    c.params["runs"] = 2;
    auto r = l.run(c);
    ASSERT_TRUE(r && r->estimate) << (r ? r->reason : r.error().message);
    EXPECT_EQ(r->estimate->n, 16);
    // The dip against the uniform null, per run and as the runs' mean ratio.
    ASSERT_EQ(r->details["dip_per_run"].size(), 2u);
    const double null95 = r->details["uniform_dip_95"].get<double>();
    EXPECT_NEAR(null95, uniform_dip_quantile(16, 0.95), 1e-15);
    EXPECT_NEAR(r->estimate->value, (r->details["dip_per_run"][0].get<double>() + r->details["dip_per_run"][1].get<double>()) / 2 / null95, 1e-12);
    EXPECT_LT(r->estimate->ci95.lo, r->estimate->ci95.hi);
    EXPECT_EQ(r->tables[0].rows.size(), 32u) << "16 prompts, 2 runs";
    EXPECT_FALSE(r->details.contains("band_scale")) << "bands are not a function of the measured times";
    // The plot shows the part of the article's bands that the measured times reach.
    const auto& bands = r->details["plot"]["bands"];
    const double hi = r->details["plot"]["total_ms"]["edges"].back().get<double>();
    ASSERT_GE(bands.size(), 1u);
    EXPECT_EQ(bands[0]["name"], "cache hit");
    EXPECT_DOUBLE_EQ(bands[0]["to"].get<double>(), std::min(250.0, hi));
    if (hi > 250.0) {
        EXPECT_DOUBLE_EQ(bands[1]["to"].get<double>(), std::min(800.0, hi));
    }
    double shares = 0;
    for (const auto& [k, v] : r->details["band_shares"].items()) shares += v.get<double>();
    EXPECT_NEAR(shares, 1.0, 1e-9);
    // Each run's band follows from its own total time alone.
    for (const auto& row : r->tables[0].rows) {
        const double ms = std::stod(row[5]);
        EXPECT_EQ(row[6], ms < 250.0 ? "cache hit" : ms <= 800.0 ? "standard" : "degraded") << ms;
    }
}

TEST_F(OctetClaims, HeadGroupsComparesOctetWithItsVariants) {
    // A resource folder with English (ASCII) octet items, the dev probes, and random-weight
    // "variants" with 4 and 16 router groups.
    const auto dir = std::filesystem::temp_directory_path() / ("claims-variants-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "octet" / "variants");
    std::filesystem::create_directories(dir / "probes");
    std::filesystem::copy_file(kResources + "/probes/probes_dev.jsonl", dir / "probes" / "probes_dev.jsonl");
    std::vector<TaskItem> ascii;
    {
        std::ifstream in(kResources + "/octet/octet_test.jsonl");
        std::ofstream out(dir / "octet" / "octet_test.jsonl");
        std::array<int, kSubsystemCount> taken{};
        for (std::string line; std::getline(in, line);) {
            if (std::any_of(line.begin(), line.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; })) continue;
            const auto j = nlohmann::json::parse(line);
            const int s = *subsystem_index(j["subsystem"].get<std::string>());
            if (taken[static_cast<size_t>(s)]++ >= 2) continue;
            out << line << '\n';
        }
    }
    for (const auto& [groups, heads, embd] : {std::tuple{4, 8, 64}, std::tuple{16, 16, 128}}) {
        SyntheticModelSpec spec{.architecture = "octet", .n_embd = embd, .n_ff = 96, .n_head = heads, .n_head_kv = heads,
                                .n_layer = 2, .context_length = 128, .seed = static_cast<uint32_t>(groups)};
        spec.router_groups = groups;
        const auto bytes = make_synthetic_model(spec).value();
        std::ofstream(dir / "octet" / "variants" / ("octet-g" + std::to_string(groups) + ".gguf"), std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    auto d = load_claim_data(dir.string());
    ASSERT_TRUE(d) << d.error().message;
    ClaimModel cm{m->model.get(), m->backend.get(), m->tokenizer.get(), &m->map(), nullptr, m->kv.get(), "octet"};
    ClaimLabOptions o;
    o.open_model = open_claim_variant;
    o.seed = 3;
    o.resamples = 300;
    ClaimLab lab(cm, d.value(), o);
    Claim c = *catalog.find("why-eight-groups");
    c.params["items"] = 2;
    auto r = lab.run(c);
    ASSERT_TRUE(r && r->estimate) << (r ? r->reason : r.error().message);
    EXPECT_EQ(r->estimate->n, 16);

    // Each model's accuracy on the same items by the evaluation path (engine/evaluation/task_eval.h).
    auto accuracy = [&](const Model& model, const Tokenizer& tok) {
        TaskEvalOptions eo;
        eo.max_tokens = 16;
        const HeadMap map = HeadMap::make_default(model.params().n_layer, model.params().n_head);
        auto e = evaluate_tasks(model, *m->backend, tok, map, d->items, eo);
        EXPECT_TRUE(e) << e.error().message;
        return static_cast<double>(e->overall.correct) / static_cast<double>(e->overall.items);
    };
    const double eight = accuracy(*m->model, *m->tokenizer);
    double best = 0.0;
    for (const int groups : {4, 16}) {
        auto model = Model::load((dir / "octet" / "variants" / ("octet-g" + std::to_string(groups) + ".gguf")).string()).value();
        auto tok = Tokenizer::create(vocab_from_gguf(model->file()).value()).value();
        best = std::max(best, accuracy(*model, tok));
    }
    EXPECT_GT(eight, 0.0) << "octet answers some of its own items";
    EXPECT_NEAR(r->estimate->value, eight - best, 1e-12);
    EXPECT_EQ(r->tables[0].rows.size(), 3u) << "8, 4 and 16 groups";

    // Error propagation of the 4-group variant: a subsystem switch there is its whole shared group.
    Claim p = *catalog.find("four-groups-propagate-errors");
    p.params["items"] = 2;
    auto prop = lab.run(p);
    ASSERT_TRUE(prop && prop->estimate) << (prop ? prop->reason : prop.error().message);

    // A lab that cannot open further models says so rather than comparing nothing.
    ClaimLabOptions closed = o;
    closed.open_model = nullptr;
    auto none = ClaimLab(cm, d.value(), closed).run(c);
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_FALSE(none->estimate);
    EXPECT_NE(none->reason.find("cannot open the octet variants"), std::string::npos) << none->reason;
    std::filesystem::remove_all(dir);
}

} // namespace
} // namespace octo
