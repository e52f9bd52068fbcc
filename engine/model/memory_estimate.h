// How much memory running a model takes, checked against what the machine has before loading.
#pragma once

#include <cstdint>
#include <optional>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/kv/kv_types.h"
#include "engine/model/model_params.h"

namespace octo {

struct MemoryEstimate {
    uint64_t weights_bytes = 0; // tensor data, read through the memory map
    uint64_t kv_bytes = 0;      // keys and values as stored: n_layer * n_ctx * n_embd_kv * (K's + V's bytes a value)
    uint64_t scratch_bytes = 0; // activations of one batch of n_batch tokens, plus logits
    uint64_t total() const { return weights_bytes + kv_bytes + scratch_bytes; }
};

// Keys and values of n_ctx positions stored as `kv` says (F32 by default).
MemoryEstimate estimate_memory(const GgufFile& file, const ModelParams& params, int64_t n_ctx,
                               int64_t n_batch, KvTypes kv = {});

// MemAvailable from /proc/meminfo (else free physical pages); nullopt when unknown.
std::optional<uint64_t> available_memory_bytes();

// ErrorCode::OutOfMemory with the breakdown when the estimate exceeds `available`.
Status check_memory(const MemoryEstimate& estimate, uint64_t available);

} // namespace octo
