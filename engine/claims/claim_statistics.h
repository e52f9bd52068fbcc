// The statistics every claim reports (docs/claims.md, "Statistics"): a point estimate over the
// measured units (items, prompts, runs), a 95 % percentile-bootstrap interval widened to contain
// the estimate, and a verdict against the claim's threshold.
//
// The bootstrap draws units with replacement — within each stratum when units are stratified
// (e.g. by subsystem), so every resample keeps the design's balance — and hands the statistic the
// multiplicity of every unit (0, 1, 2 …). A paired design is a statistic over units that carry
// both conditions. Draws come from splitmix64 (sampling/prng.h) seeded by the run's seed and the
// claim id, so a report reproduces exactly on any machine.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace octo {

struct Interval {
    double lo = 0.0;
    double hi = 0.0;
};

// A statistic of a resample: weights[u] is how often unit u was drawn. nullopt: undefined on
// this resample (e.g. a ratio whose denominator drew no case); such resamples are skipped.
using WeightedStatistic = std::function<std::optional<double>(std::span<const double> weights)>;

struct BootstrapOptions {
    int resamples = 2000;
    uint64_t seed = 0;
};

struct Estimate {
    double value = 0.0;  // the statistic on the data as measured (every weight 1)
    Interval ci95;       // percentile interval, widened where needed so that it contains value
    int64_t n = 0;       // units measured
    int resamples = 0;   // resamples on which the statistic was defined
};

// `strata[u]` is unit u's stratum (any small integers; all 0 for one stratum); units alone in
// their stratum are resampled together. nullopt when the statistic is undefined on the data
// itself or there are no units.
std::optional<Estimate> bootstrap(std::span<const int> strata, const WeightedStatistic& statistic,
                                  const BootstrapOptions& options);

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

enum class Verdict { Holds, DoesNotHold, Inconclusive, NotMeasurable };

// Fewer units than this give no verdict but `inconclusive`, whatever the interval: a bootstrap
// of a handful of units understates its own uncertainty.
inline constexpr int64_t kMinUnitsForVerdict = 5;
const char* verdict_name(Verdict verdict); // "holds", "does not hold", "inconclusive", "not measurable on this model"

Verdict judge(const Interval& ci95, ThresholdTest test, double value);

} // namespace octo
