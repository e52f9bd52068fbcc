// octo_cuda_matmul: the fused decode kernel for a few tokens, cuBLAS for batches.
#include "matmul_dequant.cuh"
#include "matmul_gemm.cuh"

extern "C" int octo_cuda_matmul(OctoCudaContext* ctx, const OctoCudaWeight* w, const float* x, float* y,
                                int64_t n_tokens, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_matmul");
    if (!w || !x || !y || n_tokens < 0) OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_matmul", "null weight or buffer");
    if (n_tokens == 0) return OCTO_CUDA_OK;
    if (n_tokens <= octo_cuda::kFusedMaxTokens) return octo_cuda::launch_matmul_dequant(ctx, w, x, y, n_tokens, out_);
    return octo_cuda::launch_matmul_gemm(ctx, w, x, y, n_tokens, out_);
}
