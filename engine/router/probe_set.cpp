#include "engine/router/probe_set.h"

#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/instrumentation/subsystem.h"

namespace octo {

Result<std::vector<Probe>> read_probe_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error(ErrorCode::Io, path + ": cannot open the probe file");
    std::vector<Probe> probes;
    std::string line;
    for (size_t n = 1; std::getline(in, line); ++n) {
        if (line.empty()) continue;
        const auto fail = [&](const std::string& what) {
            return make_error(ErrorCode::Format, path + ":" + std::to_string(n) + ": " + what);
        };
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object()) return fail("not a JSON object");
        for (const char* key : {"text", "label"}) {
            if (!j.contains(key) || !j[key].is_string()) return fail(std::string("missing string \"") + key + "\"");
        }
        const auto label = subsystem_index(j["label"].get<std::string>());
        if (!label) return fail("unknown label \"" + j["label"].get<std::string>() + "\"");
        Probe p;
        p.text = j["text"].get<std::string>();
        p.lang = j.contains("lang") && j["lang"].is_string() ? j["lang"].get<std::string>() : std::string();
        p.label = *label;
        probes.push_back(std::move(p));
    }
    if (probes.empty()) return make_error(ErrorCode::Format, path + ": no probes");
    return probes;
}

} // namespace octo
