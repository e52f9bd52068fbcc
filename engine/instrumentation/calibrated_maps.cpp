#include "engine/instrumentation/calibrated_maps.h"

#include <fstream>

#include "engine/core/atomic_file.h"
#include "engine/model/user_data.h"

namespace octo {

std::filesystem::path calibrated_map_dir() { return user_data_dir() / "head-maps"; }

namespace {

std::string suffix(MapKind kind) { return kind == MapKind::Experts ? ".experts" : ""; }

} // namespace

Result<std::string> save_calibrated_map(const Model& model, const std::string& model_path, const HeadMap& map,
                                        const nlohmann::json& report, MapKind kind) {
    auto sha = model_sha256(model);
    if (!sha) return sha.error();
    const std::filesystem::path dir = calibrated_map_dir();
    const std::filesystem::path map_path = dir / (sha.value() + suffix(kind) + ".json");
    if (auto s = write_file_atomic(map_path, map.to_json().dump(1)); !s) return s.error();
    nlohmann::json full = report;
    full["sha256"] = sha.value();
    full["model"] = model_path;
    if (auto s = write_file_atomic(dir / (sha.value() + suffix(kind) + ".calibration.json"), full.dump(1)); !s) return s.error();
    return map_path.string();
}

std::optional<std::string> find_calibrated_map(const Model& model, MapKind kind) {
    const auto sha = indexed_model_sha256(model);
    if (!sha) return std::nullopt;
    const std::filesystem::path path = calibrated_map_dir() / (*sha + suffix(kind) + ".json");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    return path.string();
}

nlohmann::json calibration_report(const std::string& map_path) {
    std::string path = map_path;
    if (path.size() > 5 && path.ends_with(".json")) path.resize(path.size() - 5);
    std::ifstream in(path + ".calibration.json");
    if (!in) return nullptr;
    nlohmann::json report = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    return report.is_discarded() ? nlohmann::json(nullptr) : report;
}

} // namespace octo
