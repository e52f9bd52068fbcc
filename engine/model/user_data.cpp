#include "engine/model/user_data.h"

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/core/atomic_file.h"
#include "engine/core/sha256.h"

namespace octo {

namespace {

std::filesystem::path index_path() { return user_data_dir() / "model-index.json"; }

nlohmann::json read_index() {
    std::ifstream in(index_path());
    if (!in) return nlohmann::json::object();
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    return j.is_object() ? j : nlohmann::json::object();
}

} // namespace

std::filesystem::path user_data_dir() {
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "octoscope";
    const char* home = std::getenv("HOME");
    return std::filesystem::path(home ? home : ".") / ".local" / "share" / "octoscope";
}

Result<std::string> model_sha256(const Model& model) {
    if (model.path().empty()) return make_error(ErrorCode::InvalidArgument, "the model was not loaded from a file");
    return file_sha256(model.path(), model.identity());
}

Result<std::string> file_sha256(const std::string& path, const std::string& identity, const std::atomic<bool>* cancel) {
    {
        const nlohmann::json index = read_index();
        const auto it = index.find(identity);
        if (it != index.end() && it->is_string()) return it->get<std::string>();
    }
    auto sha = sha256_file(path, cancel);
    if (!sha) return sha.error();
    nlohmann::json index = read_index();
    index[identity] = sha.value();
    if (auto s = write_file_atomic(index_path(), index.dump(1)); !s) return s.error();
    return sha;
}

std::optional<std::string> indexed_model_sha256(const Model& model) {
    const nlohmann::json index = read_index();
    const auto it = index.find(model.identity());
    if (it == index.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
}

} // namespace octo
