// How a KV pool stores keys and values, K and V separately as the reference does: F32; F16 (half
// the bytes; at reference precision attention then rounds the query and the softmax weights to
// F16 as the reference's F16 products do — engine/backend/cpu/attention_tiles.h); or Q8_0 / Q4_0
// blocks (about a quarter / an eighth; attention reads their dequantised values in F32's order,
// its own: the reference needs flash attention for a quantised V and its order is not followed).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/backend/precision.h"
#include "engine/gguf/tensor_type.h"

namespace octo {

struct KvTypes {
    TensorType k = TensorType::F32;
    TensorType v = TensorType::F32;
    bool operator==(const KvTypes&) const = default;
};

// What a caller asks for, K and V separately; nullopt: the default (resolve_kv_types in
// kv_store.h: F16 at reference precision where the backend stores it — the reference's default
// cache, so tokens equal what users' tools compute with their default settings — F32 otherwise).
struct KvTypeChoice {
    std::optional<TensorType> k = std::nullopt;
    std::optional<TensorType> v = std::nullopt;
    bool operator==(const KvTypeChoice&) const = default;
};

// Both given.
inline KvTypeChoice kv_types_exactly(KvTypes t) { return {t.k, t.v}; }

// What is asked, else the default: F16 at reference precision where the backend stores F16
// (`f16_stored`), F32 otherwise. (resolve_kv_types in kv_store.h asks the backend.)
inline KvTypes kv_types_or_default(const KvTypeChoice& asked, Precision precision, bool f16_stored) {
    const TensorType fallback = precision == Precision::Reference && f16_stored ? TensorType::F16 : TensorType::F32;
    return {asked.k.value_or(fallback), asked.v.value_or(fallback)};
}

// "f32", "f16", "q8_0", "q4_0" (the names --kv-type and captures use); nullopt for any other name.
inline std::optional<TensorType> parse_kv_type(std::string_view name) {
    if (name == "f32") return TensorType::F32;
    if (name == "f16") return TensorType::F16;
    if (name == "q8_0") return TensorType::Q8_0;
    if (name == "q4_0") return TensorType::Q4_0;
    return std::nullopt;
}

inline std::string_view kv_type_name(TensorType type) {
    switch (type) {
    case TensorType::F16: return "f16";
    case TensorType::Q8_0: return "q8_0";
    case TensorType::Q4_0: return "q4_0";
    default: return "f32";
    }
}

// Quantised in blocks of 32 values (Q8_0: an F16 scale and 32 int8; Q4_0: an F16 scale and 32
// nibbles): a head's values must fill whole blocks.
inline bool kv_type_is_quantised(TensorType type) { return type == TensorType::Q8_0 || type == TensorType::Q4_0; }

// Bytes n stored values take (n a multiple of 32 for the quantised types).
inline int64_t kv_row_bytes(TensorType type, int64_t n) {
    switch (type) {
    case TensorType::F16: return 2 * n;
    case TensorType::Q8_0: return n / 32 * 34;
    case TensorType::Q4_0: return n / 32 * 18;
    default: return 4 * n;
    }
}

} // namespace octo
