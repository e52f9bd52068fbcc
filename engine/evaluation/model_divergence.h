// Two models on the same tokens — a quantisation report's measure (`compare --model-b`,
// docs/advisor.md "Across models"): both evaluate a prompt and then, one at a time, the tokens
// model A generated after it (B is fed A's tokens: teacher forcing), and at each step the
// Kullback-Leibler divergence KL(p_A ‖ p_B) of their next-token distributions (softmax of the raw
// logits, in double) and whether their most probable tokens agree. The models must share a
// vocabulary (two files of one model).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/model/model.h"

namespace octo {

struct StepDivergence {
    double kl = 0.0;   // KL(p_A ‖ p_B) in nats
    int32_t top_a = -1; // each model's most probable token (ties: the lower id)
    int32_t top_b = -1;
};

struct ModelDivergence {
    std::vector<StepDivergence> steps; // [generated]: the step that chose generated[i] in A
    double mean_kl = 0.0;
    double max_kl = 0.0;
    int64_t max_kl_step = -1;
    double top_agreement = 1.0;                  // share of steps whose most probable tokens agree
    std::optional<int64_t> first_top_disagreement; // the first step where they do not
};

// Errors: InvalidArgument (vocabularies of different sizes, an empty prompt, a token outside the
// vocabulary, more tokens than a context of the models holds), Cancelled, and the sessions'.
Result<ModelDivergence> model_divergence(const Model& a, Backend& backend_a, const Model& b, Backend& backend_b,
                                         std::span<const int32_t> prompt, std::span<const int32_t> generated,
                                         std::optional<Precision> precision, const std::atomic<bool>* cancel = nullptr);

// KL(p ‖ q) of the softmaxes of two logit rows of one size, in double.
double logits_kl(std::span<const float> p_logits, std::span<const float> q_logits);

} // namespace octo
