#include "app/cli/route_json.h"

#include "app/cli/cli_output.h"

namespace octo::cli {

nlohmann::json route_json(const RouteDecision& d, std::string_view prompt, const char* embedding) {
    nlohmann::json top3 = nlohmann::json::array();
    for (const RouteCandidate& c : d.top3) {
        top3.push_back({{"route", subsystem_id(c.subsystem)},
                        {"stage1", c.stage1},
                        {"stage2", c.stage2},
                        {"score", c.final_score}});
    }
    nlohmann::json features = nlohmann::json::array();
    for (const FiredFeature& f : d.features) {
        nlohmann::json spans = nlohmann::json::array();
        for (const FeatureMatch& m : f.spans) {
            spans.push_back({{"start", m.start}, {"end", m.end},
                             {"text", valid_utf8(std::string(prompt.substr(m.start, m.end - m.start)))}});
        }
        features.push_back({{"id", f.id}, {"route", subsystem_id(f.subsystem)}, {"value", f.value}, {"weight", f.weight},
                            {"spans", spans}});
    }
    nlohmann::json scores = nlohmann::json::object();
    for (int s = 0; s < kSubsystemCount; ++s) scores[std::string(subsystem_id(s))] = d.similarity[static_cast<size_t>(s)];
    return {{"route", subsystem_id(d.route)},
            {"stage1_route", subsystem_id(d.stage1_route)},
            {"top3", top3},
            {"scores", scores},
            {"composition", d.composition},
            {"features", features},
            {"embedding", embedding}};
}

} // namespace octo::cli
