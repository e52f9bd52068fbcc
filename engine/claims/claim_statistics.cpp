#include "engine/claims/claim_statistics.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>

#include "engine/sampling/prng.h"

namespace octo {

namespace {

// Uniform in [0, n) without modulo bias (draws at or above the last whole multiple of n are redrawn).
uint64_t draw_below(uint64_t& state, uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        const uint64_t x = splitmix64_next(state);
        if (x < limit) return x % n;
    }
}

// The q-quantile of sorted values, linear between order statistics.
double quantile(const std::vector<double>& sorted, double q) {
    if (sorted.size() == 1) return sorted.front();
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const auto i = static_cast<size_t>(std::floor(pos));
    const size_t j = std::min(i + 1, sorted.size() - 1);
    return sorted[i] + (pos - static_cast<double>(i)) * (sorted[j] - sorted[i]);
}

// The expanded percentile interval at two-sided level α: the α'/2 and 1 − α'/2 points of the
// sorted resamples with α' = 2 Φ(−√(n/(n−1)) t_{1−α/2, n−1}), widened to contain the estimate.
Interval expanded_percentile_interval(const std::vector<double>& sorted, size_t units, double alpha, double point) {
    double a = alpha;
    if (units >= 2) {
        const double n = static_cast<double>(units);
        a = 2.0 * normal_cdf(-std::sqrt(n / (n - 1.0)) * student_t_quantile(1.0 - alpha / 2.0, n - 1.0));
    }
    return {std::min(quantile(sorted, a / 2.0), point), std::max(quantile(sorted, 1.0 - a / 2.0), point)};
}

} // namespace

std::optional<Estimate> bootstrap(std::span<const int> strata, const WeightedStatistic& statistic,
                                  const BootstrapOptions& options) {
    if (strata.empty()) return std::nullopt;
    std::vector<double> weights(strata.size(), 1.0);
    const std::optional<double> point = statistic(weights);
    if (!point || !std::isfinite(*point)) return std::nullopt;

    std::map<int, std::vector<size_t>> groups;
    for (size_t u = 0; u < strata.size(); ++u) groups[strata[u]].push_back(u);
    // A small stratum would draw its few units over and over and hide their variability: such
    // units are resampled together, as one pooled stratum.
    std::vector<size_t> pooled;
    for (auto it = groups.begin(); it != groups.end();) {
        if (it->second.size() < kMinStratumUnits) {
            pooled.insert(pooled.end(), it->second.begin(), it->second.end());
            it = groups.erase(it);
        } else {
            ++it;
        }
    }
    if (!pooled.empty()) groups[std::numeric_limits<int>::min()] = std::move(pooled);

    uint64_t state = options.seed;
    std::vector<double> values;
    values.reserve(static_cast<size_t>(options.resamples));
    for (int b = 0; b < options.resamples; ++b) {
        std::fill(weights.begin(), weights.end(), 0.0);
        for (const auto& [stratum, members] : groups) {
            for (size_t k = 0; k < members.size(); ++k) weights[members[draw_below(state, members.size())]] += 1.0;
        }
        const std::optional<double> v = statistic(weights);
        if (v && std::isfinite(*v)) values.push_back(*v);
    }
    Estimate e;
    e.value = *point;
    e.n = static_cast<int64_t>(strata.size());
    e.resamples = static_cast<int>(values.size());
    if (values.empty()) {
        e.ci95 = {*point, *point};
        return e;
    }
    std::sort(values.begin(), values.end());
    auto sorted = std::make_shared<const std::vector<double>>(std::move(values));
    const size_t n = strata.size();
    const double at = *point;
    e.at_level = [sorted, n, at](double alpha) { return expanded_percentile_interval(*sorted, n, alpha, at); };
    e.ci95 = e.at_level(kAlpha);
    return e;
}

const char* interval_method_name(IntervalMethod method) {
    switch (method) {
    case IntervalMethod::Wilson: return "Wilson score";
    case IntervalMethod::NewcombePaired: return "Newcombe paired (method 10)";
    case IntervalMethod::MoverOfPaired: return "MOVER of two Newcombe paired intervals";
    case IntervalMethod::StudentT: return "Student t";
    case IntervalMethod::Bootstrap: return "expanded percentile bootstrap";
    case IntervalMethod::BonettPriceRatio: return "Bonett-Price paired ratio (hybrid Wilson)";
    case IntervalMethod::WilsonOverUnits: return "Wilson score over units (no unit varied)";
    }
    return "expanded percentile bootstrap";
}

Estimate proportion_estimate(int64_t hits, int64_t n) {
    Estimate e;
    e.value = n > 0 ? static_cast<double>(hits) / static_cast<double>(n) : 0.0;
    e.ci95 = wilson_interval(hits, n);
    e.n = n;
    e.method = IntervalMethod::Wilson;
    e.at_level = [hits, n](double alpha) { return wilson_interval(hits, n, alpha); };
    return e;
}

Estimate paired_difference_estimate(const PairedCounts& counts) {
    Estimate e;
    e.value = counts.p_b() - counts.p_a();
    e.ci95 = newcombe_paired_interval(counts);
    e.n = counts.n();
    e.method = IntervalMethod::NewcombePaired;
    e.p_value = mcnemar_exact_p(counts.only_a, counts.only_b);
    e.at_level = [counts](double alpha) { return newcombe_paired_interval(counts, alpha); };
    return e;
}

std::optional<Estimate> error_reduction_estimate(const PairedCounts& counts) {
    // The event is an error: under both wordings (neither right), only under b (only a right),
    // only under a (only b right). errors(b)/errors(a) is condition 1 over condition 2.
    const int64_t errors_a = counts.only_b + counts.neither;
    if (errors_a <= 0) return std::nullopt;
    const int64_t errors_b = counts.only_a + counts.neither;
    Estimate e;
    e.value = 1.0 - static_cast<double>(errors_b) / static_cast<double>(errors_a);
    e.n = counts.n();
    e.method = IntervalMethod::BonettPriceRatio;
    e.p_value = mcnemar_exact_p(counts.only_a, counts.only_b);
    e.at_level = [counts](double alpha) {
        const Interval ratio = paired_ratio_interval(counts.neither, counts.only_a, counts.only_b, alpha);
        return Interval{1.0 - ratio.hi, 1.0 - ratio.lo};
    };
    e.ci95 = e.at_level(kAlpha);
    return e;
}

std::optional<Estimate> clustered_share_estimate(std::span<const int> strata, std::span<const double> hits,
                                                 std::span<const double> totals, const BootstrapOptions& options) {
    double all_hits = 0, all = 0;
    int64_t units = 0;
    for (size_t u = 0; u < totals.size(); ++u) {
        all_hits += hits[u];
        all += totals[u];
        if (totals[u] > 0) ++units;
    }
    if (all <= 0) return std::nullopt;
    if (all_hits <= 0 || all_hits >= all) {
        const int64_t k = all_hits <= 0 ? 0 : units;
        Estimate e = proportion_estimate(k, units);
        e.value = all_hits / all;
        e.method = IntervalMethod::WilsonOverUnits;
        return e;
    }
    return bootstrap(strata, [&](std::span<const double> w) -> std::optional<double> {
        double h = 0, t = 0;
        for (size_t u = 0; u < w.size(); ++u) {
            h += w[u] * hits[u];
            t += w[u] * totals[u];
        }
        if (t <= 0) return std::nullopt;
        return h / t;
    }, options);
}

std::optional<Estimate> mean_estimate(std::span<const double> values) {
    const auto m = student_t_interval(values);
    if (!m) return std::nullopt;
    Estimate e;
    e.value = m->mean;
    e.ci95 = m->ci;
    e.n = static_cast<int64_t>(values.size());
    e.method = IntervalMethod::StudentT;
    e.at_level = [v = std::vector<double>(values.begin(), values.end())](double alpha) { return student_t_interval(v, alpha)->ci; };
    return e;
}

double one_sided_p(const Estimate& e, ThresholdTest test, double value, bool claimed) {
    if (!e.at_level) return 1.0;
    const bool upward = test == ThresholdTest::Above || test == ThresholdTest::AtLeast;
    const bool above = upward == claimed; // the interval must lie above `value`, else below it
    auto separated = [&](double alpha) {
        const Interval ci = e.at_level(alpha);
        return above ? ci.lo > value : ci.hi < value;
    };
    // Intervals narrow as α grows: find the smallest α that separates them, by bisection on log α.
    double lo = 1e-12, hi = 1.0 - 1e-9;
    if (!separated(hi)) return 1.0;
    if (separated(lo)) return lo / 2.0;
    for (int i = 0; i < 60; ++i) {
        const double mid = std::sqrt(lo * hi);
        if (separated(mid)) hi = mid;
        else lo = mid;
    }
    return hi / 2.0;
}

std::vector<HolmStep> holm(std::span<const double> p, double alpha) {
    std::vector<size_t> order(p.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p[a] < p[b]; });
    std::vector<HolmStep> out(p.size());
    bool failed = false;
    for (size_t k = 0; k < order.size(); ++k) {
        HolmStep& step = out[order[k]];
        step.level = alpha / static_cast<double>(p.size() - k);
        failed = failed || p[order[k]] > step.level;
        step.passes = !failed;
    }
    return out;
}

bool both_at_one_bound(const PairedCounts& c) {
    return c.n() > 0 && (c.only_a == 0 && c.only_b == 0) && (c.both == 0 || c.neither == 0);
}

std::optional<double> weighted_mean(std::span<const double> values, std::span<const double> weights) {
    double sum = 0.0;
    double w = 0.0;
    for (size_t i = 0; i < values.size() && i < weights.size(); ++i) {
        sum += weights[i] * values[i];
        w += weights[i];
    }
    if (w <= 0.0) return std::nullopt;
    return sum / w;
}

uint64_t claim_seed(uint64_t seed, std::string_view claim_id) {
    uint64_t h = 0xcbf29ce484222325ull; // FNV-1a over the id, then mixed with the seed
    for (const char c : claim_id) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ull;
    }
    uint64_t state = seed ^ h;
    return splitmix64_next(state);
}

std::optional<double> bimodality_coefficient(std::span<const double> values, std::span<const double> weights) {
    double n = 0.0;
    for (size_t i = 0; i < values.size() && i < weights.size(); ++i) n += weights[i];
    if (n < 4.0) return std::nullopt;
    const std::optional<double> mean = weighted_mean(values, weights);
    double m2 = 0.0, m3 = 0.0, m4 = 0.0;
    for (size_t i = 0; i < values.size() && i < weights.size(); ++i) {
        const double d = values[i] - *mean;
        m2 += weights[i] * d * d;
        m3 += weights[i] * d * d * d;
        m4 += weights[i] * d * d * d * d;
    }
    m2 /= n;
    m3 /= n;
    m4 /= n;
    if (m2 <= 0.0) return std::nullopt;
    // Sample skewness and excess kurtosis with the usual small-sample corrections.
    const double g1 = m3 / std::pow(m2, 1.5);
    const double g2 = m4 / (m2 * m2) - 3.0;
    const double skew = g1 * std::sqrt(n * (n - 1.0)) / (n - 2.0);
    const double kurt = ((n + 1.0) * g2 + 6.0) * (n - 1.0) / ((n - 2.0) * (n - 3.0));
    return (skew * skew + 1.0) / (kurt + 3.0 * (n - 1.0) * (n - 1.0) / ((n - 2.0) * (n - 3.0)));
}

std::optional<ThresholdTest> parse_threshold_test(std::string_view name) {
    for (const ThresholdTest t : {ThresholdTest::Above, ThresholdTest::AtLeast, ThresholdTest::Below, ThresholdTest::AtMost}) {
        if (name == threshold_test_name(t)) return t;
    }
    return std::nullopt;
}

const char* threshold_test_name(ThresholdTest test) {
    switch (test) {
    case ThresholdTest::Above: return "above";
    case ThresholdTest::AtLeast: return "at_least";
    case ThresholdTest::Below: return "below";
    case ThresholdTest::AtMost: return "at_most";
    }
    return "above";
}

const char* verdict_name(Verdict verdict) {
    switch (verdict) {
    case Verdict::Holds: return "holds";
    case Verdict::DoesNotHold: return "does not hold";
    case Verdict::Inconclusive: return "inconclusive";
    case Verdict::NotMeasurable: return "not measurable on this model";
    case Verdict::Uninformative: return "uninformative";
    case Verdict::NotMeasurableHere: return "not measurable here";
    }
    return "inconclusive";
}

Verdict judge(const Interval& ci, ThresholdTest test, double value) {
    switch (test) {
    case ThresholdTest::Above:
        if (ci.lo > value) return Verdict::Holds;
        if (ci.hi <= value) return Verdict::DoesNotHold;
        break;
    case ThresholdTest::AtLeast:
        if (ci.lo >= value) return Verdict::Holds;
        if (ci.hi < value) return Verdict::DoesNotHold;
        break;
    case ThresholdTest::Below:
        if (ci.hi < value) return Verdict::Holds;
        if (ci.lo >= value) return Verdict::DoesNotHold;
        break;
    case ThresholdTest::AtMost:
        if (ci.hi <= value) return Verdict::Holds;
        if (ci.lo > value) return Verdict::DoesNotHold;
        break;
    }
    return Verdict::Inconclusive;
}

} // namespace octo
