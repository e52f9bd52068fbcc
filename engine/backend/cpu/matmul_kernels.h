// Matrix-product kernels of the CPU backend, one per (weight type, instruction path):
//   y[n_tokens, n_out] = x[n_tokens, n_in] · Wᵀ   for output rows [row_begin, row_end).
// A kernel walks each weight row block by block (never dequantising a whole matrix) and
// reduces every y element in one fixed order that does not depend on n_tokens or on which
// rows it was given, so splitting rows across threads or tokens across batches changes nothing.
#pragma once

#include <cstdint>

#include "engine/backend/backend.h"
#include "engine/backend/cpu/cpu_features.h"

namespace octo {

struct MatmulArgs {
    const WeightMatrix* w = nullptr;
    const float* x = nullptr; // [n_tokens, w->n_in]
    float* y = nullptr;       // [n_tokens, w->n_out]
    int64_t n_tokens = 0;
    // The reference's float kernels (reference_float.h) only: per token, whether the reference
    // evaluates it in a batch (ProductPrecision::batched); null: every token alone.
    const uint8_t* batched = nullptr;
};

using MatmulRowsKernel = void (*)(const MatmulArgs& args, int64_t row_begin, int64_t row_end);

// nullptr when the path has no kernel for the type (or the type is not supported at all).
MatmulRowsKernel scalar_matmul_kernel(TensorType type);
MatmulRowsKernel avx2_matmul_kernel(TensorType type);
MatmulRowsKernel avx512_matmul_kernel(TensorType type);

// Reference precision with F32 / F16 / BF16 weights: the reference's float product orders
// (reference_float.h); the scalar path computes them without SIMD, as its other kernels.
bool reference_float_type(TensorType type);
MatmulRowsKernel reference_float_kernel(CpuPath path);

// The path's kernel for the type, or the scalar one where the path has none (the low-bit types:
// docs/performance.md).
inline MatmulRowsKernel matmul_kernel(CpuPath path, TensorType type) {
    MatmulRowsKernel kernel = nullptr;
    switch (path) {
    case CpuPath::Avx2:
    case CpuPath::AvxVnni: kernel = avx2_matmul_kernel(type); break;
    case CpuPath::Avx512:
    case CpuPath::Avx512Vnni: kernel = avx512_matmul_kernel(type); break;
    case CpuPath::Scalar: break;
    }
    return kernel ? kernel : scalar_matmul_kernel(type);
}

} // namespace octo
