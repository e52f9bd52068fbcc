#include "engine/instrumentation/expert_routing.h"

namespace octo {

std::vector<ExpertChoice> chosen_experts(const TokenProbe& probe, int64_t layer, int64_t n_layer) {
    if (probe.expert_ids.empty() || n_layer <= 0 || layer < 0 || layer >= n_layer) return {};
    const auto n_used = static_cast<int64_t>(probe.expert_ids.size()) / n_layer;
    std::vector<ExpertChoice> out;
    for (int64_t k = 0; k < n_used; ++k) {
        const auto i = static_cast<size_t>(layer * n_used + k);
        if (probe.expert_ids[i] < 0) continue; // a layer without experts (a leading dense block)
        out.push_back({probe.expert_ids[i], i < probe.expert_weights.size() ? probe.expert_weights[i] : 0.0f,
                       static_cast<int>(k)});
    }
    return out;
}

std::vector<int64_t> expert_load(std::span<const TokenProbe* const> probes, int64_t n_layer, int64_t n_expert) {
    std::vector<int64_t> load(static_cast<size_t>(n_layer * n_expert), 0);
    for (const TokenProbe* p : probes) {
        for (int64_t l = 0; l < n_layer; ++l) {
            for (const ExpertChoice& c : chosen_experts(*p, l, n_layer)) {
                if (c.id >= 0 && c.id < n_expert) ++load[static_cast<size_t>(l * n_expert + c.id)];
            }
        }
    }
    return load;
}

nlohmann::json experts_json(const TokenProbe& probe, int64_t n_layer) {
    if (probe.expert_ids.empty()) return nullptr;
    const int64_t n_expert = probe.router_probs.empty() ? 0 : static_cast<int64_t>(probe.router_probs.size()) / n_layer;
    nlohmann::json layers = nlohmann::json::array();
    for (int64_t l = 0; l < n_layer; ++l) {
        nlohmann::json chosen = nlohmann::json::array();
        for (const ExpertChoice& c : chosen_experts(probe, l, n_layer)) chosen.push_back({{"id", c.id}, {"weight", c.weight}});
        nlohmann::json layer = {{"layer", l}, {"chosen", chosen}};
        if (!probe.shared_gate.empty()) layer["shared_gate"] = probe.shared_gate[static_cast<size_t>(l)];
        if (n_expert > 0) {
            layer["probs"] = std::vector<float>(probe.router_probs.begin() + l * n_expert,
                                                probe.router_probs.begin() + (l + 1) * n_expert);
        }
        layers.push_back(std::move(layer));
    }
    return layers;
}

nlohmann::json expert_load_json(std::span<const int64_t> load, int64_t n_layer, int64_t n_expert, size_t positions) {
    nlohmann::json layers = nlohmann::json::array();
    for (int64_t l = 0; l < n_layer; ++l) {
        layers.push_back(std::vector<int64_t>(load.begin() + l * n_expert, load.begin() + (l + 1) * n_expert));
    }
    return {{"layers", layers}, {"positions", positions}};
}

} // namespace octo
