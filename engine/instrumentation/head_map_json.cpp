// HeadMap's version-1 JSON schema: parsing with strict validation, and serialisation.
#include "engine/instrumentation/head_map.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

namespace octo {
namespace {

constexpr int kSchemaVersion = 1;

// "head map: " or "head map <path>: "
std::string prefix(const std::string& path) {
    return path.empty() ? std::string("head map: ") : "head map " + path + ": ";
}

} // namespace

Result<HeadMap> HeadMap::from_json(const nlohmann::json& doc, int64_t n_layer, int64_t n_head,
                                   HeadMapSource source, std::string path) {
    const std::string at = prefix(path);
    auto format = [&](const std::string& what) { return make_error(ErrorCode::Format, at + what); };
    if (!doc.is_object()) return format(std::string("expected a JSON object, got ") + doc.type_name());
    for (const auto& item : doc.items()) {
        if (item.key() != "version" && item.key() != "layers") {
            return format("unknown key \"" + item.key() + "\" (allowed: \"version\", \"layers\")");
        }
    }
    const auto version = doc.find("version");
    if (version == doc.end()) return format("missing \"version\"");
    if (!version->is_number_integer() || version->get<int64_t>() != kSchemaVersion) {
        return format("unsupported version " + version->dump() + " (expected 1)");
    }
    const auto layers = doc.find("layers");
    if (layers == doc.end()) return format("missing \"layers\"");
    if (!layers->is_array()) return format(std::string("\"layers\" must be an array, got ") + layers->type_name());
    if (static_cast<int64_t>(layers->size()) != n_layer) {
        return make_error(ErrorCode::InvalidArgument,
                          at + "has " + std::to_string(layers->size()) + " layers, the model has " +
                              std::to_string(n_layer));
    }
    std::vector<uint8_t> assignment;
    assignment.reserve(static_cast<size_t>(n_layer * n_head));
    for (int64_t l = 0; l < n_layer; ++l) {
        const nlohmann::json& row = (*layers)[static_cast<size_t>(l)];
        const std::string layer = "layer " + std::to_string(l);
        if (!row.is_array()) {
            return format(layer + ": expected an array of subsystem ids, got " + row.type_name());
        }
        if (static_cast<int64_t>(row.size()) != n_head) {
            return make_error(ErrorCode::InvalidArgument,
                              at + layer + " has " + std::to_string(row.size()) +
                                  " heads, the model has " + std::to_string(n_head) + " per layer");
        }
        for (int64_t h = 0; h < n_head; ++h) {
            const nlohmann::json& id = row[static_cast<size_t>(h)];
            const std::string head = layer + ", head " + std::to_string(h);
            if (!id.is_string()) {
                return format(head + ": expected a subsystem id string, got " + id.type_name());
            }
            const std::optional<int> s = subsystem_index(id.get_ref<const std::string&>());
            if (!s) return format(head + ": unknown subsystem id " + id.dump() + " (expected rte-a … rte-h)");
            assignment.push_back(static_cast<uint8_t>(*s));
        }
    }
    return HeadMap(n_layer, n_head, std::move(assignment), source, std::move(path));
}

Result<HeadMap> HeadMap::parse(std::string_view text, int64_t n_layer, int64_t n_head,
                               HeadMapSource source, std::string path) {
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // e.what() is "[json.exception.parse_error.101] parse error at line 1, column 9: …"
        const std::string what = e.what();
        const size_t tag_end = what.find("] ");
        return make_error(ErrorCode::Format, prefix(path) + "not valid JSON: " +
                                                 (tag_end == std::string::npos ? what : what.substr(tag_end + 2)));
    }
    return from_json(doc, n_layer, n_head, source, std::move(path));
}

Result<HeadMap> HeadMap::load_file(const std::string& path, int64_t n_layer, int64_t n_head) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(ErrorCode::Io, prefix(path) + "cannot open the file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) return make_error(ErrorCode::Io, prefix(path) + "cannot read the file");
    return parse(text.str(), n_layer, n_head, HeadMapSource::File, path);
}

nlohmann::json HeadMap::to_json() const {
    nlohmann::json layers = nlohmann::json::array();
    for (int64_t l = 0; l < n_layer_; ++l) {
        nlohmann::json row = nlohmann::json::array();
        for (int64_t h = 0; h < n_head_; ++h) row.push_back(std::string(subsystem_id(subsystem_of(l, h))));
        layers.push_back(std::move(row));
    }
    return nlohmann::json{{"version", kSchemaVersion}, {"layers", std::move(layers)}};
}

nlohmann::json HeadMap::describe() const {
    return nlohmann::json{{"source", head_map_source_name(source_)},
                          {"path", path_.empty() ? nlohmann::json(nullptr) : nlohmann::json(path_)}};
}

} // namespace octo
