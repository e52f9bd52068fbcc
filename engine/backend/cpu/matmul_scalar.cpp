// Reference kernels: dequantise one run of blocks of a weight row with the shared dequantiser,
// then accumulate its products with x in float, left to right.
#include "engine/backend/cpu/matmul_kernels.h"

#include <algorithm>

#include "engine/gguf/dequantize.h"

namespace octo {

namespace {

constexpr int64_t kChunk = 256; // values dequantised at a time: one K-quant super-block

void matmul_rows_scalar(const MatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    const auto info = tensor_type_info(static_cast<uint32_t>(w.type));
    const int64_t block = info->block_size;
    const uint64_t block_bytes = info->type_size;
    float values[kChunk]; // one chunk of a dequantised weight row
    for (int64_t r = row_begin; r < row_end; ++r) {
        const uint8_t* row = w.data + static_cast<uint64_t>(r) * w.row_bytes;
        for (int64_t t = 0; t < a.n_tokens; ++t) {
            const float* x = a.x + t * w.n_in; // [n_in]
            float sum = 0.0f;
            for (int64_t i0 = 0; i0 < w.n_in; i0 += kChunk) {
                const int64_t n = std::min(kChunk, w.n_in - i0);
                dequantize_row(w.type, row + static_cast<uint64_t>(i0 / block) * block_bytes, values, n);
                for (int64_t i = 0; i < n; ++i) sum += values[i] * x[i0 + i];
            }
            a.y[t * w.n_out + r] = sum;
        }
    }
}

} // namespace

MatmulRowsKernel scalar_matmul_kernel(TensorType type) {
    const auto info = tensor_type_info(static_cast<uint32_t>(type));
    return info && info->supported ? matmul_rows_scalar : nullptr;
}

} // namespace octo
