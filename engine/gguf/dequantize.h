// GGUF tensor data -> float32, bit-exact with ggml's reference dequantisation
// (ggml-quants.c dequantize_row_*, and the gguf Python package). Block layouts: quant_blocks.h.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/gguf/tensor_type.h"

namespace octo {

// Dequantises n values (src: n / block_size blocks) into dst[n]. Handles the types whose
// TensorTypeInfo::supported is true: F32, F16, BF16, Q4_0, Q4_1, Q5_0, Q5_1, Q8_0, Q4_K, Q5_K,
// Q6_K and the low-bit types below. The caller checks `supported` and that n is a multiple of the
// block size.
void dequantize_row(TensorType type, const uint8_t* src, float* dst, int64_t n);

// The low-bit types (dequantize_low_bit.cpp): Q2_K, Q3_K, TQ1_0, TQ2_0, IQ4_NL, IQ4_XS, MXFP4,
// IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ3_S, IQ1_S, IQ1_M. False (dst untouched) for any other type.
bool dequantize_low_bit_row(TensorType type, const uint8_t* src, float* dst, int64_t n);

// Rows [first_row, first_row + n_rows) of a tensor (row = ne[0] values), as float32
// [n_rows][ne[0]]. Errors when the type is unsupported or the rows are out of range.
Result<std::vector<float>> dequantize_rows(const GgufTensorInfo& tensor, int64_t first_row,
                                           int64_t n_rows);

} // namespace octo
