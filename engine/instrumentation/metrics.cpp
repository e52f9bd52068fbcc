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

} // namespace octo
