// Per-head contribution norms sqrt(z_hᵀ G_h z_h), one block per (token, head), in double as on
// the CPU: thread i forms (G_h z_h)_i over j in order, the block adds y_i z_i.
#include "context.cuh"
#include "launch.cuh"

namespace {

__global__ void head_norms_kernel(const float* z, const float* grams, float* norms, int64_t n_head, int64_t head_dim) {
    const int64_t task = blockIdx.x; // t * n_head + h
    const float* zh = z + task * head_dim;
    const float* g = grams + (task % n_head) * head_dim * head_dim; // symmetric
    double quad = 0.0;
    for (int64_t i = threadIdx.x; i < head_dim; i += blockDim.x) {
        double y = 0.0;
        for (int64_t j = 0; j < head_dim; ++j) y += static_cast<double>(g[j * head_dim + i]) * zh[j];
        quad += y * zh[i];
    }
    quad = octo_cuda::block_sum(quad);
    if (threadIdx.x == 0) norms[task] = static_cast<float>(sqrt(fmax(quad, 0.0)));
}

} // namespace

extern "C" int octo_cuda_head_norms(OctoCudaContext* ctx, const float* z, const float* grams, float* norms,
                                    int64_t n_tokens, int64_t n_head, int64_t head_dim, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_head_norms");
    if (n_tokens <= 0 || n_head <= 0 || head_dim <= 0) return OCTO_CUDA_OK;
    head_norms_kernel<<<static_cast<unsigned int>(n_tokens * n_head), 128, 0, ctx->stream>>>(z, grams, norms, n_head, head_dim);
    OCTO_CHECK_LAUNCH("head_norms_kernel");
    return OCTO_CUDA_OK;
}
