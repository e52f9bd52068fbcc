#include "engine/sampling/logprobs.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace octo {

namespace {

// NaN ranks below everything, so the ordering stays a strict weak order.
float rank_key(float logit) { return std::isnan(logit) ? -std::numeric_limits<float>::infinity() : logit; }

} // namespace

double log_sum_exp(std::span<const float> logits) {
    float max_logit = logits[0];
    for (float x : logits) max_logit = std::max(max_logit, x);
    if (std::isinf(max_logit)) return static_cast<double>(max_logit);
    double sum = 0.0;
    for (float x : logits) sum += std::exp(static_cast<double>(x) - static_cast<double>(max_logit));
    return static_cast<double>(max_logit) + std::log(sum);
}

TokenLogprobs token_logprobs(std::span<const float> logits, int32_t token, size_t top_n) {
    return token_logprobs(logits, token, top_n, log_sum_exp(logits));
}

TokenLogprobs token_logprobs(std::span<const float> logits, int32_t token, size_t top_n, double lse) {
    auto logprob_of = [&](int32_t id) { return static_cast<double>(logits[static_cast<size_t>(id)]) - lse; };

    std::vector<int32_t> ids(logits.size());
    for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int32_t>(i);
    const size_t n = std::min(top_n, ids.size());
    std::partial_sort(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(n), ids.end(), [&](int32_t a, int32_t b) {
        const float la = rank_key(logits[static_cast<size_t>(a)]);
        const float lb = rank_key(logits[static_cast<size_t>(b)]);
        return la != lb ? la > lb : a < b;
    });

    TokenLogprobs result{logprob_of(token), {}};
    result.top.reserve(n);
    for (size_t i = 0; i < n; ++i) result.top.push_back({ids[i], logprob_of(ids[i])});
    return result;
}

} // namespace octo
