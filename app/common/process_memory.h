// The process's own memory use, for benchmarks (no test asserts on it).
#pragma once

#include <cstdint>
#include <optional>

namespace octo {

// Resident set size in bytes (Linux: /proc/self/statm); nullopt where it cannot be read.
std::optional<uint64_t> resident_memory_bytes();

} // namespace octo
