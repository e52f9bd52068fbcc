// The statistics every claim reports (docs/claims.md, "Statistics"): a point estimate over the
// measured units (items, prompts, runs), a 95 % interval and a verdict against the claim's
// threshold. Yes/no outcomes and means take closed-form intervals (exact_statistics.h: Wilson,
// Newcombe, MOVER, Student t); the percentile bootstrap is kept for statistics no closed form
// fits (ratios over clustered tokens, a matrix contrast, a bimodality coefficient), widened for
// small samples and never trusted when it comes out zero-width.
//
// The bootstrap draws units with replacement — within each stratum when units are stratified
// (e.g. by subsystem) and every stratum holds at least kMinStratumUnits units, so every resample
// keeps the design's balance; smaller strata are pooled, since resampling two items within their
// stratum hides most of their spread — and hands the statistic the multiplicity of every unit
// (0, 1, 2 …). Its interval is the expanded percentile interval (Hesterberg 2015): the
// percentiles at α'/2 and 1 − α'/2 with α' = 2 Φ(−√(n/(n−1)) t_{1−α/2, n−1}), which corrects the
// plain percentile interval's narrowness at small n. Draws come from splitmix64 (sampling/prng.h)
// seeded by the run's seed and the claim id, so a report reproduces exactly on any machine.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/claims/exact_statistics.h"

namespace octo {

// A statistic of a resample: weights[u] is how often unit u was drawn. nullopt: undefined on
// this resample (e.g. a ratio whose denominator drew no case); such resamples are skipped.
using WeightedStatistic = std::function<std::optional<double>(std::span<const double> weights)>;

struct BootstrapOptions {
    int resamples = 2000;
    uint64_t seed = 0;
};

// How an estimate's interval was computed (its name goes into reports and JSON).
enum class IntervalMethod { Wilson, NewcombePaired, MoverOfPaired, StudentT, Bootstrap, BonettPriceRatio, WilsonOverUnits };
const char* interval_method_name(IntervalMethod method); // "Wilson score", "Newcombe paired (method 10)", …

struct Estimate {
    double value = 0.0;  // the statistic on the data as measured (every weight 1)
    Interval ci95;       // 95 % interval; a bootstrap's is widened where needed so that it contains value
    int64_t n = 0;       // units that enter the statistic
    int resamples = 0;   // bootstrap: resamples on which the statistic was defined (0 otherwise)
    IntervalMethod method = IntervalMethod::Bootstrap;
    std::optional<double> p_value; // paired yes/no outcomes: the exact McNemar test's two-sided p
    // The same method's interval at another two-sided level α (ci95 is at_level(0.05)): what the
    // verdict's p-value and Holm's correction are computed from. Unset: only ci95 is known.
    std::function<Interval(double alpha)> at_level;
};

// Strata with fewer units than this are pooled into one for resampling.
inline constexpr size_t kMinStratumUnits = 5;

// `strata[u]` is unit u's stratum (any small integers; all 0 for one stratum); strata smaller
// than kMinStratumUnits are resampled together. nullopt when the statistic is undefined on the
// data itself or there are no units.
std::optional<Estimate> bootstrap(std::span<const int> strata, const WeightedStatistic& statistic,
                                  const BootstrapOptions& options);

// Closed-form estimates (exact_statistics.h) for the protocols' common designs.
// k of n units are hits: the share with Wilson's interval.
Estimate proportion_estimate(int64_t hits, int64_t n);
// Two yes/no outcomes per unit: p_b − p_a with Newcombe's paired interval and McNemar's exact p.
Estimate paired_difference_estimate(const PairedCounts& counts);
// Two yes/no outcomes per unit: the share of a's errors that b removes, 1 − errors(b)/errors(a),
// with Bonett & Price's paired ratio interval and McNemar's exact p; nullopt when a made no error.
std::optional<Estimate> error_reduction_estimate(const PairedCounts& counts);
// A share pooled over clustered units, Σ hits_u / Σ totals_u (tokens of answers, positions of
// sessions): the bootstrap over units; when no unit or every unit hit (the resamples cannot
// spread), Wilson's interval with the units, not their pieces, as trials — the conservative
// count. nullopt when every total is 0.
std::optional<Estimate> clustered_share_estimate(std::span<const int> strata, std::span<const double> hits,
                                                 std::span<const double> totals, const BootstrapOptions& options);
// The mean of continuous per-unit values with Student's t interval; nullopt with fewer than 2.
std::optional<Estimate> mean_estimate(std::span<const double> values);
// Holm's step-down correction over one run's decisions: with one-sided p-values sorted
// ascending, p_(k) passes while p_(j) ≤ alpha / (m − j + 1) for every j ≤ k; the first failure
// fails every larger p. Returns, per input, whether it passes and the level it was compared with.
struct HolmStep {
    bool passes = true;
    double level = 0.0;
};
std::vector<HolmStep> holm(std::span<const double> p, double alpha);

// Whether both conditions of a paired yes/no comparison sit at the same bound (both 0 % or both
// 100 %): such a comparison carries no information about a difference.
bool both_at_one_bound(const PairedCounts& counts);

// Weighted mean of values[u] (weights as above); nullopt when the weights sum to 0.
std::optional<double> weighted_mean(std::span<const double> values, std::span<const double> weights);

// The run's seed mixed with a claim id: the seed of that claim's bootstrap.
uint64_t claim_seed(uint64_t seed, std::string_view claim_id);

// Sarle's bimodality coefficient (skewness² + 1) / (excess kurtosis + 3 (n−1)² / ((n−2)(n−3)))
// of weighted samples; above 5/9 suggests a bimodal (or strongly skewed) distribution.
// nullopt with fewer than 4 samples or no spread.
std::optional<double> bimodality_coefficient(std::span<const double> values, std::span<const double> weights);
inline constexpr double kBimodalityThreshold = 5.0 / 9.0;

// What a claim's verdict compares: holds when the whole interval lies on the claimed side of
// `value`, does not hold when the whole interval lies on the other side, inconclusive otherwise.
enum class ThresholdTest { Above, AtLeast, Below, AtMost };
std::optional<ThresholdTest> parse_threshold_test(std::string_view name); // "above", "at_least", "below", "at_most"
const char* threshold_test_name(ThresholdTest test);

// Uninformative: measured, but the data cannot speak to the claim (both conditions at 0 % or both
// at 100 %, or units that all gave the same value, so no interval can be sized).
// NotMeasurableHere: a claim no model run here can measure (Claim::not_measurable_here).
enum class Verdict { Holds, DoesNotHold, Inconclusive, NotMeasurable, Uninformative, NotMeasurableHere };

// Fewer units (in the statistic) than this give no verdict but `inconclusive`, whatever the interval.
inline constexpr int64_t kMinUnitsForVerdict = 5;
const char* verdict_name(Verdict verdict); // "holds", "does not hold", "inconclusive", "not measurable on this model", "uninformative", "not measurable here"

Verdict judge(const Interval& ci95, ThresholdTest test, double value);

// The one-sided p-value of a verdict: the smallest α/2 at which the (1 − α) interval lies wholly
// on one side of `value` — the side the claim names (`claimed` = true) or the other. 1 when no
// level separates them (or the estimate has no at_level).
double one_sided_p(const Estimate& estimate, ThresholdTest test, double value, bool claimed);

} // namespace octo
