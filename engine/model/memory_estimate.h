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

// The context a model opens with: `asked` positions, or (0) the model's whole trained context —
// within a sliding window that covers every layer, where a longer one changes nothing — halved
// while its estimate exceeds `available` memory (never below kMinDefaultContext). The KV pool's
// pages are committed as positions are written (backend create_kv_cache), so an unused context
// costs address space, not memory; the estimate counts it whole, so that no run outgrows memory.
constexpr int64_t kMinDefaultContext = 512;
constexpr int64_t kContextWhenUnknown = 4096; // a file without context_length
struct ContextPlan {
    int64_t n_ctx = 0;
    int64_t trained = 0;    // the model's context_length (kContextWhenUnknown when it names none)
    bool shortened = false; // n_ctx < the default because the whole context would not fit
    MemoryEstimate estimate;
};
// Errors: OutOfMemory (check_memory's) when `asked`, or kMinDefaultContext, does not fit.
// `sequences`: contexts the KV pool holds at once (a server's --parallel); the estimate counts them.
Result<ContextPlan> plan_context(const GgufFile& file, const ModelParams& params, int64_t asked, int64_t n_batch,
                                 KvTypes kv, std::optional<uint64_t> available, int sequences = 1);

// MemAvailable from /proc/meminfo (else free physical pages); nullopt when unknown.
std::optional<uint64_t> available_memory_bytes();

// ErrorCode::OutOfMemory with the breakdown when the estimate exceeds `available`.
Status check_memory(const MemoryEstimate& estimate, uint64_t available);

} // namespace octo
