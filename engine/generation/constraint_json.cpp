#include "engine/generation/constraint_json.h"

#include "engine/core/utf8_text.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

std::optional<std::array<double, kSubsystemCount>> constraint_pull(const ConstraintStep& step, const HeadMap& map) {
    if (step.removed_dla.empty() || step.removed_dla.size() != static_cast<size_t>(map.n_layer() * map.n_head())) return std::nullopt;
    std::array<double, kSubsystemCount> pull{};
    for (int64_t l = 0; l < map.n_layer(); ++l) {
        for (int64_t h = 0; h < map.n_head(); ++h) {
            pull[static_cast<size_t>(map.subsystem_of(l, h))] += step.removed_dla[static_cast<size_t>(l * map.n_head() + h)];
        }
    }
    return pull;
}

nlohmann::json constraint_json(const ConstraintStep& step, const Tokenizer& tokenizer, const HeadMap* map) {
    nlohmann::json removed = nlohmann::json::array();
    for (const auto& r : step.removed) {
        removed.push_back({{"id", r.id}, {"piece", valid_utf8(tokenizer.token_bytes(r.id))}, {"logprob", r.logprob}});
    }
    nlohmann::json out = {{"removed_mass", step.removed_mass}, {"removed", removed}, {"mask_ms", step.mask_ms}};
    if (const auto pull = map ? constraint_pull(step, *map) : std::nullopt) {
        nlohmann::json by = nlohmann::json::object();
        for (int s = 0; s < kSubsystemCount; ++s) by[std::string(subsystem_id(s))] = (*pull)[static_cast<size_t>(s)];
        out["removed_pull"] = by;
    }
    return out;
}

} // namespace octo
