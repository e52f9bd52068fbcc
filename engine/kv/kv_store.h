// The shared, pre-allocated KV pool of one model shape: the backend's K/V storage, the pool's
// bookkeeping (kv_pool.h) and, per cell, the measurements of the position it holds, so that a
// reused prefix brings its instrumentation along (docs/instrumentation.md, "KV pool").
//
// Several sessions may share one store (one at a time: it is not thread-safe); each holds one
// sequence in the pool.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/kv/kv_pool.h"
#include "engine/kv/kv_types.h"
#include "engine/model/model_params.h"

namespace octo {

constexpr int32_t kDefaultKvBlockSize = 16;

// The types a pool takes: those asked for, else the default — F16 at reference precision where
// the backend stores F16 (Backend::stores_kv), F32 at exact precision or where it does not.
KvTypes resolve_kv_types(const KvTypeChoice& asked, Precision precision, const Backend& backend);

// A pool of `block_size`-token blocks holding n_ctx positions (one full context).
KvPoolConfig kv_pool_for_context(int64_t n_ctx, int32_t block_size = kDefaultKvBlockSize);

class KvStore {
public:
    // Allocates config.n_blocks * config.block_size cells of every layer's K and V at once.
    // Keys and values stored as `types` says (kv_types.h).
    static Result<std::unique_ptr<KvStore>> create(Backend& backend, const ModelParams& params,
                                                   const KvPoolConfig& config, KvTypes types = {});
    KvTypes types() const { return {shape().k_type, shape().v_type}; }

    KvPool& pool() { return pool_; }
    const KvPool& pool() const { return pool_; }
    KvCache& cache() { return *cache_; }
    const KvCache& cache() const { return *cache_; }
    const KvCacheShape& shape() const { return cache_->shape(); }
    // Whether a model of these parameters can use the store (same layers and K/V widths).
    bool fits(const ModelParams& params) const;

    // Measurements of the position held by `cell` (head_outputs and attention are not kept).
    const TokenProbe& probe(int32_t cell) const;
    void set_probe(int32_t cell, const TokenProbe& probe);
    // Performs the pool's copy-on-write copies: K/V and measurements.
    void copy_blocks(Backend& backend, std::span<const KvBlockCopy> copies);

private:
    KvStore(KvPool pool, std::unique_ptr<KvCache> cache);

    KvPool pool_;
    std::unique_ptr<KvCache> cache_;
    TokenProbe& probe_to_set(int32_t cell); // its block's probes made on first use

    // [n_blocks] each block's [block_size] probes, made when one of its cells is first set (a
    // pool for a long context holds few measured positions)
    std::vector<std::unique_ptr<TokenProbe[]>> probes_;
};

} // namespace octo
