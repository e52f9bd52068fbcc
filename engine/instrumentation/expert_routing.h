// A mixture-of-experts run's routing as data (docs/moe.md): each position's chosen experts per
// layer with their weights as applied (TokenProbe::expert_ids / expert_weights, optionally every
// expert's probability), and the load — how many positions chose each expert in each layer.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/instrumentation/forward_probe.h"

namespace octo {

// One layer's choice at one position.
struct ExpertChoice {
    int32_t id = -1;
    float weight = 0.0f;
    int rank = 0; // 0: the most probable
};

// The experts chosen in `layer` at the position `probe` measured, most probable first (empty
// when the probe has no routing).
std::vector<ExpertChoice> chosen_experts(const TokenProbe& probe, int64_t layer, int64_t n_layer);

// Positions that chose each expert in each layer, [n_layer][n_expert], over `probes` (those
// without routing count for nothing).
std::vector<int64_t> expert_load(std::span<const TokenProbe* const> probes, int64_t n_layer, int64_t n_expert);

// [{"layer": L, "chosen": [{"id": E, "weight": w}, …], "probs": [...]}, …] — "probs" only when
// recorded; null for a probe without routing (a dense model).
nlohmann::json experts_json(const TokenProbe& probe, int64_t n_layer);

// {"layers": [[count per expert] per layer], "positions": N}
nlohmann::json expert_load_json(std::span<const int64_t> load, int64_t n_layer, int64_t n_expert, size_t positions);

} // namespace octo
