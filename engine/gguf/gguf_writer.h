// Builds GGUF files (the v2/v3 layout described in gguf_file.h) in memory: metadata of every
// GgufType, arrays nested to any depth, and tensors stored as given or quantised from float32.
//
// Tensor data starts at the first multiple of the alignment after the header, each tensor
// starts at a multiple of it and is zero-padded to one. The alignment is the first
// `general.alignment` entry's integer value when there is one and it is positive, else 32.
// Nothing else is validated on purpose, so tests can write odd files: duplicate keys or tensor
// names, any version number, tensors of any type id with any byte count (add_tensor_raw).
// For corruptions beyond that, tests patch the bytes returned by to_bytes().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/result.h"
#include "engine/gguf/gguf_value.h"
#include "engine/gguf/tensor_type.h"

namespace octo {

class GgufWriter {
public:
    void set_version(uint32_t version) { version_ = version; } // 3 by default
    // Sets general.alignment (u32), replacing the value of an earlier entry in place.
    void set_alignment(uint32_t alignment);

    // Metadata, in call order (a repeated key is written twice).
    void add_u8(const std::string& key, uint8_t v);
    void add_i8(const std::string& key, int8_t v);
    void add_u16(const std::string& key, uint16_t v);
    void add_i16(const std::string& key, int16_t v);
    void add_u32(const std::string& key, uint32_t v);
    void add_i32(const std::string& key, int32_t v);
    void add_u64(const std::string& key, uint64_t v);
    void add_i64(const std::string& key, int64_t v);
    void add_f32(const std::string& key, float v);
    void add_f64(const std::string& key, double v);
    void add_bool(const std::string& key, bool v);
    void add_string(const std::string& key, const std::string& v);
    void add_array_strings(const std::string& key, const std::vector<std::string>& v);
    void add_array_f32(const std::string& key, std::span<const float> v);
    void add_array_i32(const std::string& key, std::span<const int32_t> v);
    void add_array(const std::string& key, GgufArray array);
    // Any value; Bool is written as the low byte of `i`, Float32 as `f` rounded to float.
    void add_value(const std::string& key, GgufValue value);

    // A tensor of shape ne (innermost first, 1 to 4 dims) whose bytes are already in `type`'s
    // layout; errors unless the byte count matches the shape.
    Status add_tensor(const std::string& name, const std::vector<int64_t>& ne, TensorType type,
                      std::span<const uint8_t> bytes);
    // Quantises ne[0] * ... float32 values (row-major, innermost first) into a supported type.
    Status add_tensor_f32(const std::string& name, const std::vector<int64_t>& ne, TensorType type,
                          const float* values);
    // Writes exactly what it is given: any dims count, any type id, any byte count.
    void add_tensor_raw(const std::string& name, const std::vector<int64_t>& ne, uint32_t raw_type,
                        std::vector<uint8_t> bytes);

    std::vector<uint8_t> to_bytes() const;
    Status write_file(const std::string& path) const;

private:
    struct Tensor {
        std::string name;
        std::vector<int64_t> ne;
        uint32_t raw_type;
        std::vector<uint8_t> bytes;
    };

    uint64_t alignment() const;

    uint32_t version_ = 3;
    std::vector<std::pair<std::string, GgufValue>> kv_;
    std::vector<Tensor> tensors_;
};

} // namespace octo
