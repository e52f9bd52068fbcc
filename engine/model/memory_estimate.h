// How much memory running a model takes, checked against what the machine has before loading.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/model/model_params.h"

namespace octo {

struct MemoryEstimate {
    uint64_t weights_bytes = 0; // tensor data, read through the memory map
    uint64_t kv_bytes = 0;      // F32 keys and values: 2 * n_layer * n_ctx * n_embd_kv * 4
    uint64_t scratch_bytes = 0; // activations of one batch of n_batch tokens, plus logits
    uint64_t total() const { return weights_bytes + kv_bytes + scratch_bytes; }
};

MemoryEstimate estimate_memory(const GgufFile& file, const ModelParams& params, int64_t n_ctx,
                               int64_t n_batch);

// MemAvailable from /proc/meminfo (else free physical pages); nullopt when unknown.
std::optional<uint64_t> available_memory_bytes();

// ErrorCode::OutOfMemory with the breakdown when the estimate exceeds `available`.
Status check_memory(const MemoryEstimate& estimate, uint64_t available);

} // namespace octo
