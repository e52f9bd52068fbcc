// ggml tensor element types as stored in GGUF files, with their block layout.
// A quantised row of n values is n / block_size blocks of type_size bytes each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace octo {

// Numeric ids are the ones written in GGUF files (ggml's enum ggml_type).
enum class TensorType : uint32_t {
    F32 = 0, F16 = 1, Q4_0 = 2, Q4_1 = 3, Q5_0 = 6, Q5_1 = 7, Q8_0 = 8, Q8_1 = 9,
    Q2_K = 10, Q3_K = 11, Q4_K = 12, Q5_K = 13, Q6_K = 14, Q8_K = 15,
    IQ2_XXS = 16, IQ2_XS = 17, IQ3_XXS = 18, IQ1_S = 19, IQ4_NL = 20, IQ3_S = 21,
    IQ2_S = 22, IQ4_XS = 23, I8 = 24, I16 = 25, I32 = 26, I64 = 27, F64 = 28,
    IQ1_M = 29, BF16 = 30, TQ1_0 = 34, TQ2_0 = 35, MXFP4 = 39,
};

struct TensorTypeInfo {
    TensorType type;
    std::string_view name;  // "Q4_K", as llama.cpp prints it
    uint32_t block_size;    // values per block (1 for plain types)
    uint32_t type_size;     // bytes per block
    bool supported;         // the engine can dequantise and run it
};

// Layout of a known type id, or nullopt for an id no ggml version defines.
std::optional<TensorTypeInfo> tensor_type_info(uint32_t raw_type);

// Every type the engine can dequantise and run, in id order.
std::vector<TensorType> supported_tensor_types();

// Bytes of one row of n values; nullopt when n is not a multiple of the block size.
std::optional<uint64_t> tensor_row_bytes(const TensorTypeInfo& info, uint64_t n);

} // namespace octo
