// octoscope-cli bench's memory read bandwidth: the rate at which the CPU's threads stream a buffer
// much larger than the last-level cache, the ceiling of a decode that reads every weight once
// per token.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/core/result.h"

namespace octo::cli {

// The last-level cache of the whole machine in bytes: the size of the highest cache level under
// /sys/devices/system/cpu times its instances (one per distinct shared_cpu_list), else
// sysconf(_SC_LEVEL3_CACHE_SIZE) (one instance); nullopt when neither knows.
std::optional<uint64_t> last_level_cache_bytes();

// The buffer a read measurement streams: 4 × the last-level cache (256 MiB when it is unknown),
// at least 64 MiB, at most 4 GiB and a quarter of the available memory (when known).
uint64_t memory_read_buffer_bytes(std::optional<uint64_t> llc_bytes, std::optional<uint64_t> available_bytes);

// GB/s (1e9 bytes) of `n_threads` threads each summing its slice of a `bytes` buffer with 64-bit
// loads; the best of `passes` passes over the whole buffer. The buffer is written (every page
// mapped) before the first pass. Errors: OutOfMemory when it cannot be allocated.
Result<double> measure_memory_read(uint64_t bytes, int n_threads, int passes);

} // namespace octo::cli
