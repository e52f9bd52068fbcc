// The residual add (y += x) and the per-row bias add (y[t, :] += bias).
#include "context.cuh"
#include "launch.cuh"

namespace {

__global__ void add_kernel(float* y, const float* x, int64_t n) {
    const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}

__global__ void add_bias_kernel(float* y, const float* bias, int64_t n_tokens, int64_t n) {
    const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n_tokens * n) y[i] += bias[i % n];
}

} // namespace

extern "C" int octo_cuda_add(OctoCudaContext* ctx, float* y, const float* x, int64_t n, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_add");
    if (n <= 0) return OCTO_CUDA_OK;
    add_kernel<<<octo_cuda::blocks_for(n), octo_cuda::kThreads, 0, ctx->stream>>>(y, x, n);
    OCTO_CHECK_LAUNCH("add_kernel");
    return OCTO_CUDA_OK;
}

extern "C" int octo_cuda_add_bias(OctoCudaContext* ctx, float* y, const float* bias, int64_t n_tokens, int64_t n,
                                  char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_add_bias");
    if (n_tokens <= 0 || n <= 0) return OCTO_CUDA_OK;
    add_bias_kernel<<<octo_cuda::blocks_for(n_tokens * n), octo_cuda::kThreads, 0, ctx->stream>>>(y, bias, n_tokens, n);
    OCTO_CHECK_LAUNCH("add_bias_kernel");
    return OCTO_CUDA_OK;
}
