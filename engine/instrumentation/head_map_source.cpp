#include "engine/instrumentation/head_map_source.h"

#include <fstream>
#include <sstream>

#include "engine/core/json_fields.h"
#include "engine/instrumentation/calibrated_maps.h"

namespace octo {

Result<HeadMap> resolve_head_map(const Model& model, const std::string& map_file) {
    const ModelParams& p = model.params();
    if (!map_file.empty()) return HeadMap::load_file(map_file, p.n_layer, p.n_head);
    if (model.file().find(kHeadMapKey)) {
        auto text = model.file().get_string(kHeadMapKey);
        if (!text) return text.error();
        auto map = HeadMap::parse(text.value(), p.n_layer, p.n_head, HeadMapSource::Gguf);
        if (!map) return make_error(map.error().code, std::string(kHeadMapKey) + ": " + map.error().message);
        return map;
    }
    if (const auto calibrated = find_calibrated_map(model)) {
        std::ifstream in(*calibrated);
        std::stringstream text;
        text << in.rdbuf();
        auto map = HeadMap::parse(text.str(), p.n_layer, p.n_head, HeadMapSource::Calibrated, *calibrated);
        if (!map) return make_error(map.error().code, "calibrated head map " + *calibrated + ": " + map.error().message);
        return map;
    }
    return HeadMap::make_default(p.n_layer, p.n_head);
}

Result<std::optional<ExpertMap>> resolve_expert_map(const Model& model) {
    const ModelParams& p = model.params();
    if (p.n_expert == 0) return std::optional<ExpertMap>();
    const auto path = find_calibrated_map(model, MapKind::Experts);
    if (!path) return std::optional<ExpertMap>();
    std::ifstream in(*path);
    std::stringstream text;
    text << in.rdbuf();
    auto map = HeadMap::parse(text.str(), p.n_layer, p.n_expert, HeadMapSource::Calibrated, *path);
    if (!map) return make_error(map.error().code, "calibrated expert map " + *path + ": " + map.error().message);
    ExpertMap out{std::move(map.value()), 0.0, 0.0, std::nullopt};
    const nlohmann::json report = calibration_report(*path);
    out.separation = json_number_or(report, "separation", 0.0);
    out.null_separation = json_number_or(report, "null_separation", 0.0);
    if (json_member(report, "token_null_separation").is_number()) {
        out.token_null_separation = json_number_or(report, "token_null_separation", 0.0);
    }
    return std::optional<ExpertMap>(std::move(out));
}

} // namespace octo
