// What the forward pass measured at one evaluated position (forward_probe.h says how to ask for
// each part): a value type of std containers only, kept by runs, traces and captures.
#pragma once

#include <cstdint>
#include <vector>

namespace octo {

// One evaluated position's measurements; a vector is empty when its option is off.
struct TokenProbe {
    std::vector<float> head_norms;   // [n_layer][n_head] ‖W_h z_h‖, after ablation and gates
    std::vector<float> head_outputs; // [n_layer][n_head][head_dim] z, after ablation and gates
    std::vector<float> dla;          // [n_layer][n_head] (W_h z_h)·(g ⊙ u_t)/rms, see dla.h
    int32_t dla_target = -1;         // the token t that dla is attributed to (-1: not yet known)
    float final_inv_rms = 0.0f;      // 1 / rms of the final residual (the output norm's scale), with dla
    std::vector<float> post_attn_inv_rms; // [n_layer] 1 / rms of each attention output, the post-attention
                                          // norm's scale (post-norm models, with dla; not kept in captures)
    std::vector<float> gates;        // [n_layer][n_groups] router gates (models with a router)
    std::vector<float> attention;    // [n_layer][n_head][position + 1] softmax weights
    // [n_layer][n_head] each head's sink weight, 1 - Σ of its weights (models with attention sinks,
    // when attention is recorded; empty otherwise)
    std::vector<float> attention_sink;
    std::vector<float> hidden;       // [n_embd] residual stream after InstrumentOptions::hidden_layer
    std::vector<float> layer_hidden; // [n_layer][n_embd] residual stream after each layer (never cached with the KV blocks)
    // Mixture-of-experts models (recorded whenever probes are): each layer's routing.
    std::vector<int32_t> expert_ids;   // [n_layer][n_expert_used] the chosen experts, most probable first (-1: a layer without experts)
    std::vector<float> expert_weights; // [n_layer][n_expert_used] their weights as applied (renormalised or not)
    std::vector<float> shared_gate;    // [n_layer] the shared expert's sigmoid gate (qwen2moe), or empty
    std::vector<float> router_probs;   // [n_layer][n_expert] softmax over every expert (InstrumentOptions::router_probs)
};

} // namespace octo
