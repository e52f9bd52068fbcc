// RMSNorm, one block per row: squares summed in double (as on the CPU), then scaled.
#include "context.cuh"
#include "launch.cuh"

namespace {

__global__ void rms_norm_kernel(const float* x, const float* weight, float* y, int64_t n, float eps) {
    const float* xt = x + blockIdx.x * n;
    float* yt = y + blockIdx.x * n;
    double sum = 0.0;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) sum += static_cast<double>(__fmul_rn(xt[i], xt[i]));
    sum = octo_cuda::block_sum(sum);
    const float mean = static_cast<float>(sum / static_cast<double>(n));
    const float scale = 1.0f / sqrtf(mean + eps);
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) yt[i] = __fmul_rn(__fmul_rn(xt[i], scale), weight[i]);
}

} // namespace

extern "C" int octo_cuda_rms_norm(OctoCudaContext* ctx, const float* x, const float* weight, float* y,
                                  int64_t n_tokens, int64_t n, float eps, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_rms_norm");
    if (n_tokens <= 0 || n <= 0) return OCTO_CUDA_OK;
    rms_norm_kernel<<<static_cast<unsigned int>(n_tokens), octo_cuda::kThreads, 0, ctx->stream>>>(x, weight, y, n, eps);
    OCTO_CHECK_LAUNCH("rms_norm_kernel");
    return OCTO_CUDA_OK;
}
