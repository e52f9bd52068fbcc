// The troubleshooting table's quick checks on K samples of one prompt (different seeds): does
// the output length wander (format instability), do the numeric answers agree, how noisy are
// the log-probabilities of numeric tokens (sampling noise on rte-c), and where did each run's
// subsystem shares go. The caller runs the samples; this only measures them.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/instrumentation/subsystem_grouping.h"

namespace octo {

// Thresholds of the troubleshooting table (../shared/docs/seed-digest.md).
inline constexpr double kFormatInstabilitySpread = 0.15; // (max − min) / mean output length
inline constexpr double kNumericLogprobNoiseStd = 0.8;   // std of numeric tokens' log-probs

struct SampledRun {
    std::vector<std::string> pieces;             // generated tokens' text, in order
    std::vector<double> logprobs;                // [pieces] of each chosen token
    std::optional<SubsystemValues> mean_shares;  // over the generated tokens, when measured
};

struct ConsistencyReport {
    size_t runs = 0;
    std::vector<size_t> lengths;        // [runs] generated tokens
    double mean_length = 0.0;
    double length_spread = 0.0;         // (max − min) / mean; 0 when every run is empty
    bool format_unstable = false;       // length_spread > kFormatInstabilitySpread
    std::vector<std::optional<double>> numeric_answers; // [runs] the last number in each output
    size_t distinct_numeric_answers = 0;
    std::optional<double> numeric_spread; // max − min of the numeric answers found
    size_t numeric_tokens = 0;           // generated tokens containing a digit, all runs
    double numeric_logprob_std = 0.0;    // population std of their log-probs
    bool sampling_noise = false;         // numeric_logprob_std > kNumericLogprobNoiseStd
    std::vector<std::optional<SubsystemValues>> shares; // [runs]
};

ConsistencyReport assess_consistency(std::span<const SampledRun> runs);

// The last number written in `text` ("-12", "3.5", "1,200", "42%" → 42), if any.
std::optional<double> last_number(std::string_view text);

} // namespace octo
