// Labelled router probes (resources/probes/*.jsonl, docs/router.md): one JSON object per line
// with "text", "lang" ("zh" or "en") and "label" ("rte-a" … "rte-h").
#pragma once

#include <string>
#include <vector>

#include "engine/core/result.h"

namespace octo {

struct Probe {
    std::string text;
    std::string lang;
    int label = 0; // subsystem index, rte-a = 0
};

// Errors name the file and line (1-based).
Result<std::vector<Probe>> read_probe_file(const std::string& path);

} // namespace octo
