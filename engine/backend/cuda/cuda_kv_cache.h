// A KV cache of the CUDA backend: the module's handle, freed with the cache.
#pragma once

#include "engine/backend/backend.h"
#include "engine/backend/cuda/cuda_api.h"

namespace octo {

class CudaKvCache final : public KvCache {
public:
    CudaKvCache(const CudaApi& api, OctoCudaContext* ctx, OctoCudaKv* kv, const KvCacheShape& shape)
        : api_(api), ctx_(ctx), kv_(kv), shape_(shape) {}
    ~CudaKvCache() override { api_.kv_free(ctx_, kv_); }
    CudaKvCache(const CudaKvCache&) = delete;
    CudaKvCache& operator=(const CudaKvCache&) = delete;

    const KvCacheShape& shape() const override { return shape_; }
    int64_t bytes() const override {
        return 2 * shape_.n_layer * shape_.n_cells * shape_.n_head_kv * shape_.head_dim * static_cast<int64_t>(sizeof(float));
    }
    OctoCudaKv* handle() const { return kv_; }

private:
    const CudaApi& api_;
    OctoCudaContext* ctx_;
    OctoCudaKv* kv_;
    KvCacheShape shape_;
};

} // namespace octo
