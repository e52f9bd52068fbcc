// What the forward pass measures and changes inside itself (docs/instrumentation.md):
// per-head contribution norms, the attention output itself, and head ablation.
// Everything is off by default; off, the forward pass does no extra work.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/core/result.h"
#include "engine/instrumentation/head_map.h"

namespace octo {

struct InstrumentOptions {
    bool head_norms = false;   // TokenProbe::head_norms (G_h computed once per model, on first use)
    bool head_outputs = false; // TokenProbe::head_outputs (baselines for mean ablation, tests)
    bool dla = false;          // TokenProbe::dla (direct logit attribution, once the next token is known)
    bool attention = false;    // TokenProbe::attention (softmax weights over earlier positions)
    int64_t hidden_layer = -1; // TokenProbe::hidden: the residual stream after this layer; -1: off
};

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
    std::vector<float> hidden;       // [n_embd] residual stream after InstrumentOptions::hidden_layer
};

enum class AblationMode {
    Zero, // z_h := 0
    Mean, // z_h := baseline mean of z_h
};
const char* ablation_mode_name(AblationMode mode); // "zero", "mean"

// Heads whose attention output is replaced before the output projection.
struct HeadAblation {
    std::vector<uint8_t> heads;  // [n_layer][n_head], 1 = ablated; empty: nothing ablated
    AblationMode mode = AblationMode::Zero;
    std::vector<float> baseline; // Mean: [n_layer][n_head][head_dim] the value z_h takes
};

// The heads of the given subsystems (disabled[s] for s = 0..7, rte-a first) under `map`.
HeadAblation ablate_subsystems(const HeadMap& map, const std::array<bool, kSubsystemCount>& disabled,
                               AblationMode mode, std::vector<float> baseline = {});

// Mean of head_outputs over the probes, in double, in order: the mean-ablation baseline of a
// run (pass the probes of the positions to average — the prompt without BOS by default).
// InvalidArgument when there are none or one lacks head_outputs.
Result<std::vector<float>> mean_head_outputs(std::span<const TokenProbe> probes);

// Mean of head_norms over the probes, likewise: the baseline of the `relative` metric.
Result<std::vector<float>> mean_head_norms(std::span<const TokenProbe> probes);

} // namespace octo
