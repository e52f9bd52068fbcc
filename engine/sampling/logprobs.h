// Per-token log-probabilities for reporting: the natural log of the softmax of the RAW
// logits (before penalty, temperature, top-k or top-p), whatever token the sampler chose.
//
// log p(i) = logit[i] - (m + log(sum_j exp(logit[j] - m))), m = max logit, with the
// exponentials summed in double precision in ascending id order, so the result does not
// depend on threads or build. Logits of -inf give -inf; a NaN logit makes every value
// NaN (and ranks last in `top`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace octo {

struct TokenLogprob {
    int32_t id;
    double logprob;
};

struct TokenLogprobs {
    double logprob;                 // of the chosen token
    std::vector<TokenLogprob> top;  // the `top_n` most likely tokens, most likely first,
                                    // ties by ascending id
};

// `logits` holds one value per vocabulary id and must be non-empty; `token` indexes it.
TokenLogprobs token_logprobs(std::span<const float> logits, int32_t token, size_t top_n = 5);
// The same with log_sum_exp(logits) computed already (a step that needs it twice computes it once).
TokenLogprobs token_logprobs(std::span<const float> logits, int32_t token, size_t top_n, double lse);

// m + log(sum_j exp(logit[j] - m)) as above: the log of the softmax's denominator.
double log_sum_exp(std::span<const float> logits);

} // namespace octo
