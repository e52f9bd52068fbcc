// SwiGLU: out = silu(gate) * up, element-wise (out may alias gate).
#include "context.cuh"
#include "launch.cuh"

namespace {

__global__ void swiglu_kernel(const float* gate, const float* up, float* out, int64_t n) {
    const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float g = gate[i];
    out[i] = __fmul_rn(__fdiv_rn(g, 1.0f + expf(-g)), up[i]);
}

} // namespace

extern "C" int octo_cuda_swiglu(OctoCudaContext* ctx, const float* gate, const float* up, float* out, int64_t n,
                                char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_swiglu");
    if (n <= 0) return OCTO_CUDA_OK;
    swiglu_kernel<<<octo_cuda::blocks_for(n), octo_cuda::kThreads, 0, ctx->stream>>>(gate, up, out, n);
    OCTO_CHECK_LAUNCH("swiglu_kernel");
    return OCTO_CUDA_OK;
}
