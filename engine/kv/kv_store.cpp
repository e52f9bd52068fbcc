#include "engine/kv/kv_store.h"

#include <string>

namespace octo {

KvTypes resolve_kv_types(const KvTypeChoice& asked, Precision precision, const Backend& backend) {
    return kv_types_or_default(asked, precision, backend.stores_kv(TensorType::F16));
}

KvPoolConfig kv_pool_for_context(int64_t n_ctx, int32_t block_size) {
    return KvPoolConfig{block_size, static_cast<int32_t>((n_ctx + block_size - 1) / block_size)};
}

Result<std::unique_ptr<KvStore>> KvStore::create(Backend& backend, const ModelParams& params,
                                                 const KvPoolConfig& config, KvTypes types) {
    auto pool = KvPool::create(config);
    if (!pool) return pool.error();
    const int64_t n_cells = int64_t{config.n_blocks} * config.block_size;
    // latent attention: one row of [RoPE part | latent] per position, keys and values at once
    const bool latent = params.latent_attention();
    auto cache = backend.create_kv_cache(KvCacheShape{params.n_layer, n_cells, params.n_kv_heads(), params.kv_head_dim(), types.k,
                                                      latent ? types.k : types.v, latent});
    if (!cache) return cache.error();
    return std::unique_ptr<KvStore>(new KvStore(std::move(pool.value()), std::move(cache.value())));
}

KvStore::KvStore(KvPool pool, std::unique_ptr<KvCache> cache)
    : pool_(std::move(pool)), cache_(std::move(cache)), probes_(static_cast<size_t>(pool_.n_blocks())) {}

const TokenProbe& KvStore::probe(int32_t cell) const {
    static const TokenProbe none;
    const auto& block = probes_[static_cast<size_t>(cell / pool_.block_size())];
    return block ? block[static_cast<size_t>(cell % pool_.block_size())] : none;
}

TokenProbe& KvStore::probe_to_set(int32_t cell) {
    auto& block = probes_[static_cast<size_t>(cell / pool_.block_size())];
    if (!block) block = std::make_unique<TokenProbe[]>(static_cast<size_t>(pool_.block_size()));
    return block[static_cast<size_t>(cell % pool_.block_size())];
}

bool KvStore::fits(const ModelParams& params) const {
    const KvCacheShape& s = cache_->shape();
    return s.n_layer == params.n_layer && s.n_head_kv == params.n_kv_heads() && s.head_dim == params.kv_head_dim() &&
           s.values_in_keys == params.latent_attention();
}

void KvStore::set_probe(int32_t cell, const TokenProbe& probe) {
    TokenProbe& kept = probe_to_set(cell);
    kept.head_norms = probe.head_norms;
    kept.dla = probe.dla;
    kept.dla_target = probe.dla_target;
    kept.final_inv_rms = probe.final_inv_rms;
    kept.gates = probe.gates;
    kept.expert_ids = probe.expert_ids;
    kept.expert_weights = probe.expert_weights;
    kept.shared_gate = probe.shared_gate;
    kept.router_probs = probe.router_probs;
    kept.head_outputs.clear();
    kept.attention.clear();
}

void KvStore::copy_blocks(Backend& backend, std::span<const KvBlockCopy> copies) {
    const int64_t bs = pool_.block_size();
    for (const KvBlockCopy& c : copies) {
        backend.kv_copy(*cache_, c.from * bs, c.to * bs, c.n_cells);
        const bool source_set = probes_[static_cast<size_t>(c.from)] != nullptr;
        if (!source_set && !probes_[static_cast<size_t>(c.to)]) continue; // both empty
        for (int32_t i = 0; i < c.n_cells; ++i) {
            probe_to_set(static_cast<int32_t>(c.to * bs + i)) = probe(static_cast<int32_t>(c.from * bs + i));
        }
    }
}

} // namespace octo
