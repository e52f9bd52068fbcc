#include "engine/advisor/consistency.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace octo {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string joined(const std::vector<std::string>& pieces) {
    std::string text;
    for (const std::string& p : pieces) text += p;
    return text;
}

} // namespace

std::optional<double> last_number(std::string_view text) {
    // Scan backwards to the last digit, then back to the number's start (digits, '.', ',' between
    // digits, a leading '-').
    size_t end = text.size();
    while (end > 0 && !is_digit(text[end - 1])) --end;
    if (end == 0) return std::nullopt;
    size_t start = end;
    while (start > 0) {
        const char c = text[start - 1];
        const bool inner_sep = (c == '.' || c == ',') && start >= 2 && is_digit(text[start - 2]);
        if (is_digit(c) || inner_sep) --start;
        else break;
    }
    if (start > 0 && text[start - 1] == '-') --start;
    std::string digits;
    for (size_t i = start; i < end; ++i) {
        if (text[i] != ',') digits += text[i];
    }
    try {
        return std::stod(digits);
    } catch (...) {
        return std::nullopt;
    }
}

ConsistencyReport assess_consistency(std::span<const SampledRun> runs) {
    ConsistencyReport r;
    r.runs = runs.size();
    std::vector<double> numeric_logprobs;
    std::set<double> distinct;
    for (const SampledRun& run : runs) {
        r.lengths.push_back(run.pieces.size());
        const std::optional<double> answer = last_number(joined(run.pieces));
        r.numeric_answers.push_back(answer);
        if (answer) distinct.insert(*answer);
        for (size_t i = 0; i < run.pieces.size() && i < run.logprobs.size(); ++i) {
            if (std::any_of(run.pieces[i].begin(), run.pieces[i].end(), is_digit)) {
                numeric_logprobs.push_back(run.logprobs[i]);
            }
        }
        r.shares.push_back(run.mean_shares);
    }
    if (!r.lengths.empty()) {
        double sum = 0.0;
        for (size_t n : r.lengths) sum += static_cast<double>(n);
        r.mean_length = sum / static_cast<double>(r.lengths.size());
        const auto [lo, hi] = std::minmax_element(r.lengths.begin(), r.lengths.end());
        r.length_spread = r.mean_length > 0.0 ? static_cast<double>(*hi - *lo) / r.mean_length : 0.0;
    }
    r.format_unstable = r.length_spread > kFormatInstabilitySpread;
    r.distinct_numeric_answers = distinct.size();
    if (!distinct.empty()) r.numeric_spread = *distinct.rbegin() - *distinct.begin();
    r.numeric_tokens = numeric_logprobs.size();
    if (!numeric_logprobs.empty()) {
        double mean = 0.0;
        for (double v : numeric_logprobs) mean += v;
        mean /= static_cast<double>(numeric_logprobs.size());
        double var = 0.0;
        for (double v : numeric_logprobs) var += (v - mean) * (v - mean);
        r.numeric_logprob_std = std::sqrt(var / static_cast<double>(numeric_logprobs.size()));
    }
    r.sampling_noise = r.numeric_logprob_std > kNumericLogprobNoiseStd;
    return r;
}

} // namespace octo
