// KV storage of the CPU backend: n_cells cells per layer and kv head, addressed by cell index (the
// pool decides which cell holds which position of which sequence), head-major: the rows of one
// kv head of one layer lie side by side, which is what attention reads (one tile reads one kv
// head; rows of all heads side by side made every tile read 128 bytes of each 1 KiB, and a
// generated token's attention at depth 4,096 ran at half the speed). Keys and values each F32,
// F16, Q8_0 or Q4_0 (KvCacheShape::k_type / v_type; a quantised row is whole blocks of 32). The
// storage is zeroed memory that the system commits page by page as cells are written, so a pool
// sized for a model's whole context takes memory only for the positions used.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "engine/backend/backend.h"
#include "engine/kv/kv_types.h"

namespace octo {

class CpuKvCache final : public KvCache {
public:
    explicit CpuKvCache(const KvCacheShape& s)
        : shape_(s), row_(s.n_head_kv * s.head_dim), k_head_bytes_(kv_row_bytes(s.k_type, s.head_dim)),
          v_head_bytes_(s.values_in_keys ? k_head_bytes_ : kv_row_bytes(s.v_type, s.head_dim)),
          k_bytes_(bytes_for(s, k_head_bytes_)), v_bytes_(s.values_in_keys ? 0 : bytes_for(s, v_head_bytes_)),
          k_(zeroed(k_bytes_)), v_(s.values_in_keys ? nullptr : zeroed(v_bytes_)) {
        if (s.values_in_keys) shape_.v_type = shape_.k_type;
    }
    // Whether the storage could be reserved (create_kv_cache says OutOfMemory otherwise).
    bool allocated() const { return k_ && (v_ || shape_.values_in_keys); }
    // Latent attention: the value rows are the key rows (KvCacheShape::values_in_keys).
    bool values_in_keys() const { return shape_.values_in_keys; }

    const KvCacheShape& shape() const override { return shape_; }
    int64_t bytes() const override { return static_cast<int64_t>(k_bytes_ + v_bytes_); }

    bool k_half() const { return shape_.k_type == TensorType::F16; }
    bool v_half() const { return shape_.v_type == TensorType::F16; }
    bool k_quantised() const { return kv_type_is_quantised(shape_.k_type); }
    bool v_quantised() const { return kv_type_is_quantised(shape_.v_type); }
    // [head_dim] of kv head `head` of layer `layer` at cell `cell`, as stored: floats for F32, fp16
    // bits for F16, blocks for a quantised kind. Cell c + 1's row follows cell c's.
    uint8_t* k_at(int64_t layer, int64_t head, int64_t cell) { return k_.get() + offset(layer, head, cell, k_head_bytes_); }
    uint8_t* v_at(int64_t layer, int64_t head, int64_t cell) {
        return values().get() + offset(layer, head, cell, v_head_bytes_);
    }
    const uint8_t* k_at(int64_t layer, int64_t head, int64_t cell) const {
        return k_.get() + offset(layer, head, cell, k_head_bytes_);
    }
    const uint8_t* v_at(int64_t layer, int64_t head, int64_t cell) const {
        return values().get() + offset(layer, head, cell, v_head_bytes_);
    }
    int64_t row() const { return row_; } // values a cell holds of a layer: n_head_kv * head_dim
    int64_t k_head_bytes() const { return k_head_bytes_; } // bytes of one head's row as stored
    int64_t v_head_bytes() const { return v_head_bytes_; }

private:
    static size_t bytes_for(const KvCacheShape& s, int64_t head_bytes) {
        return static_cast<size_t>(s.n_layer * s.n_head_kv * s.n_cells * head_bytes);
    }
    size_t offset(int64_t layer, int64_t head, int64_t cell, int64_t head_bytes) const {
        return static_cast<size_t>(((layer * shape_.n_head_kv + head) * shape_.n_cells + cell) * head_bytes);
    }

    struct Free {
        void operator()(uint8_t* p) const { std::free(p); }
    };
    using Bytes = std::unique_ptr<uint8_t, Free>;
    // calloc: large blocks come as fresh zero pages from the system, committed when first written
    static Bytes zeroed(size_t n) { return Bytes(static_cast<uint8_t*>(std::calloc(n, 1))); }

    const Bytes& values() const { return shape_.values_in_keys ? k_ : v_; }

    KvCacheShape shape_;
    int64_t row_;
    int64_t k_head_bytes_, v_head_bytes_;
    // [n_layer, n_head_kv, n_cells, head_dim] elements of k_type / v_type, as bytes: each kv head's
    // positions side by side, so that attending one head reads contiguous memory (calloc aligns
    // to 16, which float and F16 rows need at most)
    size_t k_bytes_, v_bytes_;
    Bytes k_, v_;
};

} // namespace octo
