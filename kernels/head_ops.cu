// Per-head edits of the attention output z[n_tokens, n_head, head_dim]: ablation (replace or
// zero masked heads) and router gates (scale each head group).
#include "context.cuh"
#include "launch.cuh"

namespace {

__global__ void ablate_heads_kernel(float* z, const uint8_t* heads, const float* replacement, int64_t n,
                                    int64_t n_head, int64_t head_dim) {
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    const int64_t h = (idx / head_dim) % n_head;
    if (heads[h]) z[idx] = replacement ? replacement[h * head_dim + idx % head_dim] : 0.0f;
}

__global__ void scale_head_groups_kernel(float* z, const float* scales, int64_t n, int64_t n_head, int64_t head_dim,
                                         int64_t n_groups) {
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    const int64_t th = idx / head_dim; // t * n_head + h
    const int64_t t = th / n_head;
    const int64_t h = th % n_head;
    z[idx] *= scales[t * n_groups + h / (n_head / n_groups)];
}

} // namespace

extern "C" int octo_cuda_ablate_heads(OctoCudaContext* ctx, float* z, const uint8_t* heads, const float* replacement,
                                      int64_t n_tokens, int64_t n_head, int64_t head_dim, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_ablate_heads");
    const int64_t n = n_tokens * n_head * head_dim;
    if (n <= 0) return OCTO_CUDA_OK;
    const void* dev_heads = nullptr;
    if (int rc = octo_cuda::stage_host(ctx, octo_cuda::kStageHeads, heads, static_cast<size_t>(n_head), &dev_heads, out_)) return rc;
    ablate_heads_kernel<<<octo_cuda::blocks_for(n), octo_cuda::kThreads, 0, ctx->stream>>>(
        z, static_cast<const uint8_t*>(dev_heads), replacement, n, n_head, head_dim);
    OCTO_CHECK_LAUNCH("ablate_heads_kernel");
    return OCTO_CUDA_OK;
}

extern "C" int octo_cuda_scale_head_groups(OctoCudaContext* ctx, float* z, const float* scales, int64_t n_tokens,
                                           int64_t n_head, int64_t head_dim, int64_t n_groups, char* err,
                                           size_t err_len) {
    OCTO_ENTER("octo_cuda_scale_head_groups");
    if (n_groups <= 0 || n_head % n_groups) OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_scale_head_groups", "n_groups must divide n_head");
    const int64_t n = n_tokens * n_head * head_dim;
    if (n <= 0) return OCTO_CUDA_OK;
    scale_head_groups_kernel<<<octo_cuda::blocks_for(n), octo_cuda::kThreads, 0, ctx->stream>>>(z, scales, n, n_head,
                                                                                                head_dim, n_groups);
    OCTO_CHECK_LAUNCH("scale_head_groups_kernel");
    return OCTO_CUDA_OK;
}
