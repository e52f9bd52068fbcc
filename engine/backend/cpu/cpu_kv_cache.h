// KV storage of the CPU backend: n_cells cells per layer, addressed by cell index (the pool
// decides which cell holds which position of which sequence). Keys and values each F32, F16,
// Q8_0 or Q4_0 (KvCacheShape::k_type / v_type; a quantised row is whole blocks of 32, head by head). The storage is zeroed memory that the system commits page by
// page as cells are written, so a pool sized for a model's whole context takes memory only for
// the positions used.
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
        : shape_(s), row_(s.n_head_kv * s.head_dim), k_row_bytes_(kv_row_bytes(s.k_type, row_)),
          v_row_bytes_(s.values_in_keys ? k_row_bytes_ : kv_row_bytes(s.v_type, row_)), k_bytes_(bytes_for(s, k_row_bytes_)),
          v_bytes_(s.values_in_keys ? 0 : bytes_for(s, v_row_bytes_)), k_(zeroed(k_bytes_)),
          v_(s.values_in_keys ? nullptr : zeroed(v_bytes_)) {
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
    // [n_head_kv * head_dim] of layer `layer` at cell `cell`, as stored: floats for F32, fp16 bits for F16.
    float* k(int64_t layer, int64_t cell) { return reinterpret_cast<float*>(k_at(layer, cell)); }
    float* v(int64_t layer, int64_t cell) { return reinterpret_cast<float*>(v_at(layer, cell)); }
    const float* k(int64_t layer, int64_t cell) const { return reinterpret_cast<const float*>(k_at(layer, cell)); }
    const float* v(int64_t layer, int64_t cell) const { return reinterpret_cast<const float*>(v_at(layer, cell)); }
    uint16_t* k16(int64_t layer, int64_t cell) { return reinterpret_cast<uint16_t*>(k_at(layer, cell)); }
    uint16_t* v16(int64_t layer, int64_t cell) { return reinterpret_cast<uint16_t*>(v_at(layer, cell)); }
    const uint16_t* k16(int64_t layer, int64_t cell) const { return reinterpret_cast<const uint16_t*>(k_at(layer, cell)); }
    const uint16_t* v16(int64_t layer, int64_t cell) const { return reinterpret_cast<const uint16_t*>(v_at(layer, cell)); }
    uint8_t* k_at(int64_t layer, int64_t cell) { return k_.get() + offset(layer, cell, k_row_bytes_); }
    uint8_t* v_at(int64_t layer, int64_t cell) { return values().get() + offset(layer, cell, v_row_bytes_); }
    const uint8_t* k_at(int64_t layer, int64_t cell) const { return k_.get() + offset(layer, cell, k_row_bytes_); }
    const uint8_t* v_at(int64_t layer, int64_t cell) const { return values().get() + offset(layer, cell, v_row_bytes_); }
    int64_t row() const { return row_; } // values a cell holds of a layer: n_head_kv * head_dim
    int64_t k_row_bytes() const { return k_row_bytes_; } // bytes of those values as stored
    int64_t v_row_bytes() const { return v_row_bytes_; }

private:
    static size_t bytes_for(const KvCacheShape& s, int64_t row_bytes) {
        return static_cast<size_t>(s.n_layer * s.n_cells * row_bytes);
    }
    size_t offset(int64_t layer, int64_t cell, int64_t row_bytes) const {
        return static_cast<size_t>((layer * shape_.n_cells + cell) * row_bytes);
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
    int64_t k_row_bytes_, v_row_bytes_;
    // [n_layer, n_cells, n_head_kv * head_dim] elements of k_type / v_type, as bytes (calloc
    // aligns to 16, which float and F16 rows need at most)
    size_t k_bytes_, v_bytes_;
    Bytes k_, v_;
};

} // namespace octo
