#include "engine/instrumentation/metrics.h"

#include <vector>

namespace octo {

Result<SubsystemValues> norm_share(const HeadMap& map, std::span<const float> head_norms) {
    return subsystem_shares(map, head_norms);
}

Result<SubsystemValues> relative_share(const HeadMap& map, std::span<const float> head_norms,
                                       std::span<const float> baseline_norms) {
    if (head_norms.size() != baseline_norms.size()) {
        return make_error(ErrorCode::InvalidArgument, "relative: norms and baseline differ in size");
    }
    std::vector<float> ratio(head_norms.size()); // [n_layer][n_head]
    for (size_t i = 0; i < ratio.size(); ++i) {
        ratio[i] = baseline_norms[i] > 0.0f ? head_norms[i] / baseline_norms[i] : 0.0f;
    }
    return subsystem_shares(map, ratio);
}

Result<SubsystemValues> dla_share(const HeadMap& map, std::span<const float> dla) {
    auto grouped = group_mean_per_head(map, dla);
    if (!grouped) return grouped.error();
    std::vector<float> per_head(static_cast<size_t>(map.n_layer() * map.n_head()), 0.0f);
    // One positive value per subsystem, placed on each of its heads, so the mean per head is it.
    for (int64_t l = 0; l < map.n_layer(); ++l) {
        for (int64_t h = 0; h < map.n_head(); ++h) {
            const float v = (*grouped)[static_cast<size_t>(map.subsystem_of(l, h))];
            per_head[static_cast<size_t>(l * map.n_head() + h)] = v > 0.0f ? v : 0.0f;
        }
    }
    return subsystem_shares(map, per_head);
}

Result<SubsystemValues> gate_share(const HeadMap& map, std::span<const float> gates, int64_t n_groups) {
    if (n_groups <= 0 || map.n_head() % n_groups != 0 ||
        static_cast<int64_t>(gates.size()) != map.n_layer() * n_groups) {
        return make_error(ErrorCode::InvalidArgument, "gates: expected [n_layer][n_groups] values");
    }
    const int64_t heads_per_group = map.n_head() / n_groups;
    std::vector<float> per_head(static_cast<size_t>(map.n_layer() * map.n_head()));
    for (int64_t l = 0; l < map.n_layer(); ++l) {
        for (int64_t h = 0; h < map.n_head(); ++h) {
            per_head[static_cast<size_t>(l * map.n_head() + h)] = gates[static_cast<size_t>(l * n_groups + h / heads_per_group)];
        }
    }
    return subsystem_shares(map, per_head);
}

} // namespace octo
