// float32 -> GGUF tensor data: simple round-to-nearest reference quantisers for every type the
// engine can dequantise (block layouts: quant_blocks.h). They build test models of any type on
// the fly; the K-quants use a plain min/max scale choice, not ggml's optimised search, so the
// bytes differ from llama-quantize's but decode with the same layout.
#pragma once

#include <cstdint>

#include "engine/gguf/tensor_type.h"

namespace octo {

// Quantises n values into dst (n / block_size blocks of type_size bytes). Handles the types
// whose TensorTypeInfo::supported is true; n must be a multiple of the block size.
void quantize_row(TensorType type, const float* src, uint8_t* dst, int64_t n);

// The low-bit types (quantize_low_bit.cpp; nearest level or grid point, no search): false for any
// other type.
bool quantize_low_bit_row(TensorType type, const float* src, uint8_t* dst, int64_t n);

} // namespace octo
