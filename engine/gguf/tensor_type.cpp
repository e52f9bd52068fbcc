#include "engine/gguf/tensor_type.h"

#include <array>

namespace octo {

namespace {

constexpr uint32_t QK_K = 256; // super-block size of the K-quants

constexpr std::array kTypes = {
    TensorTypeInfo{TensorType::F32, "F32", 1, 4, true},
    TensorTypeInfo{TensorType::F16, "F16", 1, 2, true},
    TensorTypeInfo{TensorType::Q4_0, "Q4_0", 32, 18, true},
    TensorTypeInfo{TensorType::Q4_1, "Q4_1", 32, 20, true},
    TensorTypeInfo{TensorType::Q5_0, "Q5_0", 32, 22, true},
    TensorTypeInfo{TensorType::Q5_1, "Q5_1", 32, 24, true},
    TensorTypeInfo{TensorType::Q8_0, "Q8_0", 32, 34, true},
    TensorTypeInfo{TensorType::Q8_1, "Q8_1", 32, 36, false},
    TensorTypeInfo{TensorType::Q2_K, "Q2_K", QK_K, 84, true},
    TensorTypeInfo{TensorType::Q3_K, "Q3_K", QK_K, 110, true},
    TensorTypeInfo{TensorType::Q4_K, "Q4_K", QK_K, 144, true},
    TensorTypeInfo{TensorType::Q5_K, "Q5_K", QK_K, 176, true},
    TensorTypeInfo{TensorType::Q6_K, "Q6_K", QK_K, 210, true},
    TensorTypeInfo{TensorType::Q8_K, "Q8_K", QK_K, 292, false},
    TensorTypeInfo{TensorType::IQ2_XXS, "IQ2_XXS", QK_K, 66, true},
    TensorTypeInfo{TensorType::IQ2_XS, "IQ2_XS", QK_K, 74, true},
    TensorTypeInfo{TensorType::IQ3_XXS, "IQ3_XXS", QK_K, 98, true},
    TensorTypeInfo{TensorType::IQ1_S, "IQ1_S", QK_K, 50, true},
    TensorTypeInfo{TensorType::IQ4_NL, "IQ4_NL", 32, 18, true},
    TensorTypeInfo{TensorType::IQ3_S, "IQ3_S", QK_K, 110, true},
    TensorTypeInfo{TensorType::IQ2_S, "IQ2_S", QK_K, 82, true},
    TensorTypeInfo{TensorType::IQ4_XS, "IQ4_XS", QK_K, 136, true},
    TensorTypeInfo{TensorType::I8, "I8", 1, 1, false},
    TensorTypeInfo{TensorType::I16, "I16", 1, 2, false},
    TensorTypeInfo{TensorType::I32, "I32", 1, 4, false},
    TensorTypeInfo{TensorType::I64, "I64", 1, 8, false},
    TensorTypeInfo{TensorType::F64, "F64", 1, 8, false},
    TensorTypeInfo{TensorType::IQ1_M, "IQ1_M", QK_K, 56, true},
    TensorTypeInfo{TensorType::BF16, "BF16", 1, 2, true},
    TensorTypeInfo{TensorType::TQ1_0, "TQ1_0", QK_K, 54, true},
    TensorTypeInfo{TensorType::TQ2_0, "TQ2_0", QK_K, 66, true},
    TensorTypeInfo{TensorType::MXFP4, "MXFP4", 32, 17, true},
};

} // namespace

std::optional<TensorTypeInfo> tensor_type_info(uint32_t raw_type) {
    for (const auto& t : kTypes) {
        if (static_cast<uint32_t>(t.type) == raw_type) return t;
    }
    return std::nullopt;
}

std::vector<TensorType> supported_tensor_types() {
    std::vector<TensorType> out;
    for (const auto& t : kTypes) {
        if (t.supported) out.push_back(t.type);
    }
    return out;
}

std::optional<uint64_t> tensor_row_bytes(const TensorTypeInfo& info, uint64_t n) {
    if (n % info.block_size != 0) return std::nullopt;
    return n / info.block_size * info.type_size;
}

} // namespace octo
