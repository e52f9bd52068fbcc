#include "engine/model/memory_estimate.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace octo {

namespace {

std::string gib(uint64_t bytes) {
    char s[32];
    std::snprintf(s, sizeof(s), "%.2f GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
    return s;
}

} // namespace

MemoryEstimate estimate_memory(const GgufFile& file, const ModelParams& p, int64_t n_ctx, int64_t n_batch, KvTypes kv) {
    MemoryEstimate e;
    for (const auto& t : file.tensors()) e.weights_bytes += t.n_bytes;
    // latent attention caches one row of [RoPE part | latent] per position, keys and values at once
    const int64_t row = p.n_kv_heads() * p.kv_head_dim();
    const auto n_embd_kv = static_cast<uint64_t>(row);
    e.kv_bytes = static_cast<uint64_t>(p.n_layer) * static_cast<uint64_t>(n_ctx) *
                 static_cast<uint64_t>(kv_row_bytes(kv.k, row) + (p.latent_attention() ? 0 : kv_row_bytes(kv.v, row)));
    // latent attention's per-head projections, dequantised once (Model::latent_projections)
    if (p.latent_attention()) {
        e.weights_bytes += static_cast<uint64_t>(p.n_layer * p.n_head * p.n_lora_kv *
                                                 (2 * (p.head_dim() - p.n_rot) + p.head_dim_v())) * sizeof(float);
    }
    // Per batch token: residual, normed, projection (n_embd each), q and attention out (n_q
    // each), k and v, gate, up and hidden (n_ff each), logits (n_vocab); attention scores per
    // thread are small.
    const auto per_token = static_cast<uint64_t>(3 * p.n_embd + 2 * p.n_embd_q() + 2 * static_cast<int64_t>(n_embd_kv) +
                                                 (p.latent_attention() ? 2 * p.n_head * p.kv_head_dim() : 0) +
                                                 3 * p.n_ff + p.n_vocab);
    e.scratch_bytes = static_cast<uint64_t>(n_batch) * per_token * sizeof(float);
    return e;
}

Result<ContextPlan> plan_context(const GgufFile& file, const ModelParams& p, int64_t asked, int64_t n_batch, KvTypes kv,
                                 std::optional<uint64_t> available, int sequences) {
    // The pool of `sequences` contexts counts as one context that long (activations overestimated).
    const auto estimate = [&](int64_t n_ctx) { return estimate_memory(file, p, n_ctx * std::max(1, sequences), n_batch, kv); };
    ContextPlan plan;
    plan.trained = p.context_length > 0 ? p.context_length : kContextWhenUnknown;
    int64_t n_ctx = asked;
    if (n_ctx <= 0) {
        n_ctx = plan.trained;
        if (p.sliding_layers == SlidingLayers::All && p.sliding_window > 0) n_ctx = std::min(n_ctx, p.sliding_window);
        const int64_t floor = std::min(n_ctx, kMinDefaultContext);
        while (available && n_ctx > floor && estimate(n_ctx).total() > *available) {
            n_ctx = std::max(floor, n_ctx / 2);
            plan.shortened = true;
        }
    }
    plan.n_ctx = n_ctx;
    plan.estimate = estimate(n_ctx);
    if (available) {
        if (auto s = check_memory(plan.estimate, *available); !s) return s.error();
    }
    return plan;
}

std::optional<uint64_t> available_memory_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        if (line.rfind("MemAvailable:", 0) != 0) continue;
        std::istringstream fields(line.substr(13));
        uint64_t kib = 0;
        if (fields >> kib) return kib * 1024;
    }
    const long pages = sysconf(_SC_AVPHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0) return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
    return std::nullopt;
}

Status check_memory(const MemoryEstimate& e, uint64_t available) {
    if (e.total() <= available) return Ok{};
    return make_error(ErrorCode::OutOfMemory,
                      "the model needs about " + gib(e.total()) + " (weights " + gib(e.weights_bytes) +
                          ", KV cache " + gib(e.kv_bytes) + ", activations " + gib(e.scratch_bytes) +
                          ") but only " + gib(available) +
                          " is available; use a smaller context or a smaller / more quantised model");
}

} // namespace octo
