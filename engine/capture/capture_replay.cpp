#include "engine/capture/capture_replay.h"

#include <algorithm>

namespace octo {

ReplayComparison compare_replay(const Capture& recorded, std::span<const int32_t> replay_prompt_ids,
                                const GenerateResult& replay) {
    ReplayComparison c;
    c.prompt_identical = recorded.prompt_tokens.size() == replay_prompt_ids.size() &&
                         std::equal(replay_prompt_ids.begin(), replay_prompt_ids.end(), recorded.prompt_tokens.begin(),
                                    [](int32_t id, const CaptureToken& t) { return id == t.id; });
    const auto& before = recorded.run.generation.tokens;
    c.recorded_tokens = before.size();
    c.replayed_tokens = replay.tokens.size();
    c.tokens_compared = std::min(c.recorded_tokens, c.replayed_tokens);
    for (size_t i = 0; i < c.tokens_compared && !c.first_divergence; ++i) {
        if (before[i].id != replay.tokens[i].id) c.first_divergence = i;
    }
    if (!c.first_divergence && c.recorded_tokens != c.replayed_tokens) c.first_divergence = c.tokens_compared;
    c.identical = c.prompt_identical && !c.first_divergence;
    return c;
}

} // namespace octo
