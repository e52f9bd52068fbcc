// Runs the octoscope-cli binary the build produced and captures what it printed.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace octo::test {

struct CliRun {
    int exit_status = -1;   // the process's exit status; -1 if it died from a signal
    std::string out;        // stdout
    std::string err;        // stderr
    nlohmann::json json() const; // stdout parsed (throws on invalid JSON: a test failure)
};

// Arguments are passed without a shell, exactly as given.
CliRun run_cli(const std::vector<std::string>& args);

// A fresh file path in the temporary folder (the file is not created).
std::string temp_path(const std::string& name);

// Labelled probe files for calibrate in `dir` (ASCII: synthetic vocabularies have no other
// characters): train.jsonl with 3 probes per subsystem ("probe S number I"), dev.jsonl with one
// ("dev probe S").
void write_probe_files(const std::string& dir);

} // namespace octo::test
