// Fuzz target: the data files a user may edit or be handed, read by the engine: router probe
// files (JSONL), task files (JSONL), the claims lab's catalogue (JSON) and the advisor's rules
// (JSON). The first byte picks the reader; the rest is the file. Path-based readers read it
// from a file in a scratch folder. Any crash, sanitizer report or exception is a finding; a
// reader that accepts a file must give what it describes without errors.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/advisor/advisor_rules.h"
#include "engine/claims/claim_catalog.h"
#include "engine/evaluation/task_eval.h"
#include "engine/router/probe_set.h"

namespace {

// The input written to a scratch file of this process (removed at exit).
const std::string& scratch_file(std::string_view bytes) {
    static const std::string path = [] {
        const auto dir = std::filesystem::temp_directory_path() / ("octoscope_fuzz_files_" + std::to_string(getpid()));
        std::filesystem::create_directories(dir);
        std::atexit([] {
            std::error_code ec;
            std::filesystem::remove_all(std::filesystem::temp_directory_path() / ("octoscope_fuzz_files_" + std::to_string(getpid())), ec);
        });
        return (dir / "input").string();
    }();
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
    }
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1) return 0;
    const std::string_view file(reinterpret_cast<const char*>(data + 1), size - 1);
    switch (data[0] % 4) {
    case 0: {
        auto probes = octo::read_probe_file(scratch_file(file));
        if (probes) {
            for (const octo::Probe& p : *probes) {
                if (p.label < 0 || p.label > 7) std::abort(); // a label outside rte-a … rte-h
            }
        }
        break;
    }
    case 1: {
        auto tasks = octo::read_task_file(scratch_file(file));
        if (tasks) {
            for (const octo::TaskItem& t : *tasks) {
                if (t.subsystem < 0 || t.subsystem > 7) std::abort();
            }
        }
        break;
    }
    case 2: {
        const nlohmann::json doc = nlohmann::json::parse(file, nullptr, /*allow_exceptions=*/false);
        if (!doc.is_discarded()) (void)octo::parse_claim_catalog(doc, "fuzz.json");
        break;
    }
    default: (void)octo::AdvisorRules::parse(file, "fuzz.json"); break;
    }
    return 0;
}
