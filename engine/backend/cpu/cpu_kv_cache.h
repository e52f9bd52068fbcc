// KV storage of the CPU backend: n_cells cells per layer, addressed by cell index (the pool
// decides which cell holds which position of which sequence).
#pragma once

#include <vector>

#include "engine/backend/backend.h"

namespace octo {

class CpuKvCache final : public KvCache {
public:
    explicit CpuKvCache(const KvCacheShape& s)
        : shape_(s), row_(s.n_head_kv * s.head_dim),
          k_(static_cast<size_t>(s.n_layer * s.n_cells * row_)),
          v_(static_cast<size_t>(s.n_layer * s.n_cells * row_)) {}

    const KvCacheShape& shape() const override { return shape_; }
    int64_t bytes() const override { return static_cast<int64_t>((k_.size() + v_.size()) * sizeof(float)); }

    // [n_head_kv * head_dim] of layer `layer` at cell `cell`.
    float* k(int64_t layer, int64_t cell) { return k_.data() + (layer * shape_.n_cells + cell) * row_; }
    float* v(int64_t layer, int64_t cell) { return v_.data() + (layer * shape_.n_cells + cell) * row_; }
    const float* k(int64_t layer, int64_t cell) const { return k_.data() + (layer * shape_.n_cells + cell) * row_; }
    const float* v(int64_t layer, int64_t cell) const { return v_.data() + (layer * shape_.n_cells + cell) * row_; }
    int64_t row() const { return row_; }

private:
    KvCacheShape shape_;
    int64_t row_;           // n_head_kv * head_dim
    std::vector<float> k_;  // [n_layer, n_cells, n_head_kv * head_dim]
    std::vector<float> v_;  // [n_layer, n_cells, n_head_kv * head_dim]
};

} // namespace octo
