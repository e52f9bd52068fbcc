// This process's resident memory as Linux reports it (/proc/self/status): for octoscope-cli
// bench's "resident ≤ file + KV pool + 10 %" check and the workbench's soak benchmark (no test
// asserts on the figures).
#pragma once

#include <cstdint>
#include <optional>

namespace octo {

struct ResidentMemory {
    uint64_t resident_bytes = 0; // VmRSS: now
    uint64_t peak_bytes = 0;     // VmHWM: the most since the process started
};

// nullopt where /proc/self/status lacks either line (not Linux).
std::optional<ResidentMemory> resident_memory();

} // namespace octo
