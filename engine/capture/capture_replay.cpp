#include "engine/capture/capture_replay.h"

#include <algorithm>

namespace octo {

ReplayComparison compare_replay(const RunTrace& recorded, const RunTrace& replay) {
    ReplayComparison c;
    c.prompt_identical = recorded.prompt_ids() == replay.prompt_ids();
    const auto before = recorded.generated();
    const auto after = replay.generated();
    c.recorded_tokens = before.size();
    c.replayed_tokens = after.size();
    c.tokens_compared = std::min(c.recorded_tokens, c.replayed_tokens);
    for (size_t i = 0; i < c.tokens_compared && !c.first_divergence; ++i) {
        // ids where both runs know them; a server that sends none is compared by text
        const bool ids = before[i].id >= 0 && after[i].id >= 0;
        if (ids ? before[i].id != after[i].id : before[i].bytes != after[i].bytes) c.first_divergence = i;
    }
    if (!c.first_divergence && c.recorded_tokens != c.replayed_tokens) c.first_divergence = c.tokens_compared;
    const size_t positions = std::min(recorded.tokens.size(), replay.tokens.size());
    for (size_t i = 0; i < positions && !c.first_routing_divergence; ++i) {
        const std::vector<int32_t>& a = recorded.tokens[i].probe.expert_ids;
        const std::vector<int32_t>& b = replay.tokens[i].probe.expert_ids;
        if (a != b) c.first_routing_divergence = i;
    }
    c.routing_identical = !c.first_routing_divergence;
    c.identical = c.prompt_identical && !c.first_divergence && c.routing_identical;
    return c;
}

} // namespace octo
