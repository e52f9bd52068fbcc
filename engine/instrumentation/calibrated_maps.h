// Calibrated head maps on disk (docs/router.md): one per model file, keyed by the file's
// SHA-256 (engine/model/user_data.h), in $XDG_DATA_HOME/octoscope/head-maps (default
// ~/.local/share/octoscope/head-maps):
//   <sha256>.json              the map (version-1 schema, usable as a --head-map file)
//   <sha256>.calibration.json  how it was made (probe counts, separation and its null)
// and for a mixture of experts its expert → subsystem map (the same schema, experts in place of
// heads; docs/moe.md): <sha256>.experts.json and <sha256>.experts.calibration.json.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/core/result.h"
#include "engine/instrumentation/head_map.h"
#include "engine/model/model.h"

namespace octo {

std::filesystem::path calibrated_map_dir();

enum class MapKind { Heads, Experts };

// Writes the map and the report, keyed by the model file's SHA-256. Returns the map's path.
Result<std::string> save_calibrated_map(const Model& model, const std::string& model_path, const HeadMap& map,
                                        const nlohmann::json& report, MapKind kind = MapKind::Heads);

// The calibrated map of this model (found through the model index, without hashing), when there is one.
std::optional<std::string> find_calibrated_map(const Model& model, MapKind kind = MapKind::Heads);

// A calibrated map's report (<sha256>[.experts].calibration.json beside it); null when unreadable.
nlohmann::json calibration_report(const std::string& map_path);

} // namespace octo
