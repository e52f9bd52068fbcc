// Prefill-sized matrix products: the weight matrix is dequantised into scratch (F16, or F32 for
// F32/BF16 weights) and multiplied by cuBLAS (cublasGemmEx, float accumulation).
#pragma once

#include "context.cuh"

namespace octo_cuda {

int launch_matmul_gemm(OctoCudaContext* ctx, const OctoCudaWeight* w, const float* x, float* y, int64_t n_tokens,
                       ErrOut out_);

} // namespace octo_cuda
