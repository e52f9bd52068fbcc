// What the forward pass measures and changes inside itself (docs/instrumentation.md):
// per-head contribution norms, the attention output itself, and head ablation.
// Everything is off by default; off, the forward pass does no extra work.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"
#include "engine/instrumentation/ablation_switches.h"
#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/token_probe.h"

namespace octo {

struct InstrumentOptions {
    bool head_norms = false;   // TokenProbe::head_norms (G_h computed once per model, on first use)
    bool head_outputs = false; // TokenProbe::head_outputs (baselines for mean ablation, tests)
    bool dla = false;          // TokenProbe::dla (direct logit attribution, once the next token is known)
    bool attention = false;    // TokenProbe::attention (softmax weights over earlier positions)
    int64_t hidden_layer = -1; // TokenProbe::hidden: the residual stream after this layer; -1: off
    bool layer_hidden = false; // TokenProbe::layer_hidden: the residual stream after every layer (the logit lens)
    bool router_probs = false; // TokenProbe::router_probs (mixture-of-experts models)
};

// Experts taken out of the router's choice: their logits count as -inf, so the softmax and the
// top-k run over the others — the model as if those experts did not exist.
struct ExpertAblation {
    std::vector<uint8_t> experts; // [n_layer][n_expert], 1 = disabled; empty: none
};

// The switches as an ablation of a model with n_layer layers of n_expert experts, n_used of them
// chosen per token. InvalidArgument for a layer or expert out of range, or a layer left with
// fewer than n_used experts.
Result<ExpertAblation> ablate_experts(std::span<const ExpertSwitch> switches, int64_t n_layer, int64_t n_expert,
                                      int64_t n_used);

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
