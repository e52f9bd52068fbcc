// Rotary position embedding in place, both layouts; one thread per (token, head, pair). Angles
// are computed in double and rounded to float, as on the CPU.
#include "context.cuh"
#include "launch.cuh"

namespace {

__global__ void rope_kernel(float* x, int64_t n_tokens, int64_t n_heads, int64_t head_dim, const int32_t* positions,
                            OctoCudaRope p) {
    const int64_t n_pairs = p.n_rot / 2;
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= n_tokens * n_heads * n_pairs) return;
    const int64_t i = idx % n_pairs;
    const int64_t th = idx / n_pairs; // token * n_heads + head
    const int64_t t = th / n_heads;
    double theta = positions[t] * p.freq_scale *
                   pow(p.freq_base, -2.0 * static_cast<double>(i) / static_cast<double>(p.n_rot));
    if (p.freq_factors) theta /= p.freq_factors[i];
    const float c = __fmul_rn(static_cast<float>(cos(theta)), p.attn_factor);
    const float s = __fmul_rn(static_cast<float>(sin(theta)), p.attn_factor);
    float* head = x + th * head_dim;
    const int64_t a = p.layout == OCTO_CUDA_ROPE_NORMAL ? 2 * i : i;
    const int64_t b = p.layout == OCTO_CUDA_ROPE_NORMAL ? 2 * i + 1 : i + n_pairs;
    const float x0 = head[a];
    const float x1 = head[b];
    head[a] = __fsub_rn(__fmul_rn(x0, c), __fmul_rn(x1, s));
    head[b] = __fadd_rn(__fmul_rn(x0, s), __fmul_rn(x1, c));
}

} // namespace

extern "C" int octo_cuda_rope(OctoCudaContext* ctx, float* x, int64_t n_tokens, int64_t n_heads, int64_t head_dim,
                              const int32_t* positions, const OctoCudaRope* params, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_rope");
    if (!params || params->n_rot < 0 || params->n_rot % 2 || params->n_rot > head_dim) {
        OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_rope", "n_rot must be even and at most head_dim");
    }
    const int64_t n = n_tokens * n_heads * (params->n_rot / 2);
    if (n <= 0) return OCTO_CUDA_OK;
    const void* dev_positions = nullptr;
    if (int rc = octo_cuda::stage_host(ctx, octo_cuda::kStagePositions, positions, n_tokens * sizeof(int32_t),
                                       &dev_positions, out_)) {
        return rc;
    }
    rope_kernel<<<octo_cuda::blocks_for(n), octo_cuda::kThreads, 0, ctx->stream>>>(
        x, n_tokens, n_heads, head_dim, static_cast<const int32_t*>(dev_positions), *params);
    OCTO_CHECK_LAUNCH("rope_kernel");
    return OCTO_CUDA_OK;
}
