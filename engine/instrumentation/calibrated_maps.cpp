#include "engine/instrumentation/calibrated_maps.h"

#include <cstdlib>
#include <fstream>

#include "engine/core/sha256.h"

namespace octo {

namespace {

nlohmann::json read_index(const std::filesystem::path& path) {
    std::ifstream in(path);
    if (!in) return nlohmann::json::object();
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    return j.is_object() ? j : nlohmann::json::object();
}

Status write_text(const std::filesystem::path& path, const std::string& text) {
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out) return make_error(ErrorCode::Io, "cannot write " + tmp.string());
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec); // atomic: a crash never leaves half a file
    if (ec) return make_error(ErrorCode::Io, "cannot write " + path.string() + ": " + ec.message());
    return Ok{};
}

} // namespace

std::filesystem::path calibrated_map_dir() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) {
        return std::filesystem::path(xdg) / "octoscope" / "head-maps";
    }
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home ? home : ".") / ".local" / "share" / "octoscope" / "head-maps";
}

Result<std::string> save_calibrated_map(const Model& model, const std::string& model_path, const HeadMap& map,
                                        const nlohmann::json& report) {
    auto sha = sha256_file(model_path);
    if (!sha) return sha.error();
    const std::filesystem::path dir = calibrated_map_dir();
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return make_error(ErrorCode::Io, "cannot create " + dir.string() + ": " + ec.message());
    const std::filesystem::path map_path = dir / (sha.value() + ".json");
    if (auto s = write_text(map_path, map.to_json().dump(1)); !s) return s.error();
    nlohmann::json full = report;
    full["sha256"] = sha.value();
    full["model"] = model_path;
    if (auto s = write_text(dir / (sha.value() + ".calibration.json"), full.dump(1)); !s) return s.error();
    nlohmann::json index = read_index(dir / "index.json");
    index[model.identity()] = sha.value();
    if (auto s = write_text(dir / "index.json", index.dump(1)); !s) return s.error();
    return map_path.string();
}

std::optional<std::string> find_calibrated_map(const Model& model) {
    const std::filesystem::path dir = calibrated_map_dir();
    const nlohmann::json index = read_index(dir / "index.json");
    const auto it = index.find(model.identity());
    if (it == index.end() || !it->is_string()) return std::nullopt;
    const std::filesystem::path path = dir / (it->get<std::string>() + ".json");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    return path.string();
}

} // namespace octo
