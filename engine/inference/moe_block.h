// The mixture-of-experts FFN (architecture.h: Mixtral-style llama, qwen2moe, olmoe, qwen3moe, gpt-oss;
// docs/moe.md), as llama.cpp computes it, for h = rms_norm(x) · ffn_norm:
//
//   p = softmax(h · Wrᵀ + br)        over the experts not disabled (float, max-subtracted, sum in double;
//                                     the router bias br: expert_biases)
//   chosen = the n_used most probable (ties: the lower id)
//   w_k = p_k, or p_k / Σ_chosen p    (renormalise_experts; = gpt-oss's softmax over the chosen logits)
//   out = Σ_k w_k · down_k(silu(gate_k · h) ⊙ (up_k · h))   in rank order, each expert a SwiGLU over
//                                     its row ranges of the 3-D tensors (gpt-oss: each product plus
//                                     the expert's bias, and the clamped SwiGLU)
//       + sigmoid(h · g) · shared(h)  (shared_expert: a SwiGLU every token runs through, added last;
//                                     weight 1 without a gate, as deepseek2's)
// deepseek2 gates by sigmoid(h · Wrᵀ), chooses by gate + exp_probs_b, weights the chosen gates
// (renormalised if the file says) times expert_weights_scale (RouterRule).
//
// A batch runs expert by expert: the tokens that chose expert e are gathered into one product per
// matrix, so each chosen expert's weights are read once per batch and an expert no token chose is
// not read at all. Every (token, rank) output lands in a slot of its own and the slots are summed
// per token in rank order, so a token's values do not depend on the batch it came in.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/model/model.h"

namespace octo {

// One token's routing in one layer.
struct TokenRouting {
    std::vector<float> probs;   // [n_expert] the softmax (0 for disabled experts)
    std::vector<int32_t> ids;   // [n_used] the chosen experts, most probable first
    std::vector<float> weights; // [n_used] their weights as applied
};

// How a router turns logits into the chosen experts' weights (from the model's row and keys).
struct RouterRule {
    bool sigmoid = false;                  // gates sigmoid(l) per expert instead of a softmax (deepseek2's func 2)
    const float* selection_bias = nullptr; // [n_expert] (host) or null: added to the gates for choosing only
    bool renormalise = true;               // the chosen gates rescaled to sum 1
    float scale = 1.0f;                    // then multiplied by this (expert_weights_scale)
};

// Routes one token from its router logits; disabled [n_expert] (empty: none) marks experts that
// take no part. At least n_used experts must be enabled. At reference precision (with no expert
// disabled) the softmax and the renormalisation take the reference's float steps: its vector exp
// and sum order (reference_float.h), p = e · (1/Σe), the chosen weights summed in double.
// Sigmoid gates are 1 / (1 + expf(-l)); their weights are summed in float, in rank order.
void route_token(std::span<const float> logits, std::span<const uint8_t> disabled, int64_t n_used, const RouterRule& rule,
                 TokenRouting& out, Precision precision = Precision::Exact);

class MoeBlock {
public:
    // Buffers for batches of up to n_batch tokens of `model` (which has experts).
    MoeBlock(const Model& model, Backend& backend, int64_t n_batch, Precision precision);

    // Experts to leave out ([n_layer][n_expert] or empty) and whether probes receive the router's
    // probabilities over all experts. InvalidArgument for a mask of the wrong size.
    Status configure(const ExpertAblation& ablation, bool router_probs);

    // out[n, n_embd] = the block's output for h[n, n_embd] (backend addresses) in layer `layer`;
    // probes[n] (or empty) receive the routing. batched[n] (or empty): the tokens the reference
    // multiplies in a batch (ProductPrecision) — for the router and the shared expert; the
    // reference multiplies the experts' matrices one token at a time whatever the batch.
    void run(const LayerWeights& lw, int64_t layer, const float* h, float* out, int64_t n, std::span<TokenProbe> probes,
             std::span<const uint8_t> batched = {});

private:
    void run_expert(const LayerWeights& lw, int64_t expert, const float* h, int64_t n);
    void shared_expert(const LayerWeights& lw, const float* h, int64_t n, const ProductPrecision& precision);

    Backend& backend_;
    Precision precision_;
    int64_t n_layer_, n_embd_, n_expert_, n_used_, n_ff_exp_, n_ff_shexp_, n_slots_;
    RouterRule rule_;                     // selection_bias set per layer
    bool clamped_swiglu_; // gpt-oss's SwiGLU (ArchitectureInfo::clamped_swiglu)
    bool router_probs_ = false;
    ExpertAblation ablation_;

    std::vector<float> host_logits_;  // [n_batch, n_expert]
    std::vector<float> host_weights_; // [n_batch, n_slots]
    std::vector<TokenRouting> routing_; // [n_batch]
    std::vector<std::vector<int32_t>> tokens_of_; // [n_expert] tokens that chose each expert
    std::vector<std::vector<int32_t>> slots_of_;  // [n_expert] their slots, token · n_slots + rank
    std::vector<int32_t> shared_slots_;            // [n_batch] token · n_slots + n_used: the shared expert's
    std::unique_ptr<DeviceBuffer> logits_;  // [n_batch, n_expert]
    std::unique_ptr<DeviceBuffer> in_;      // [n_batch, n_embd] one expert's tokens
    std::unique_ptr<DeviceBuffer> gate_;    // [n_batch, max(n_ff_exp, n_ff_shexp)]
    std::unique_ptr<DeviceBuffer> up_;      // [n_batch, max(n_ff_exp, n_ff_shexp)]
    std::unique_ptr<DeviceBuffer> res_;     // [n_batch, n_embd] one expert's outputs
    std::unique_ptr<DeviceBuffer> slots_;   // [n_batch, n_slots, n_embd] every (token, rank) output
    std::unique_ptr<DeviceBuffer> weights_; // [n_batch, n_slots]
};

} // namespace octo
