// Token embeddings: row tokens[i] of the table, decoded to float.
#include "launch.cuh"
#include "quant_decode.cuh"
#include "context.cuh"

namespace {

// grid (blocks over one row's values or chunks, n_tokens)
template <class D>
__global__ void embed_kernel(const uint8_t* table, uint64_t row_bytes, int64_t n_in, const int32_t* tokens, float* out) {
    const int64_t t = blockIdx.y;
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const uint8_t* row = table + static_cast<int64_t>(tokens[t]) * row_bytes;
    float* o = out + t * n_in;
    if constexpr (D::kPlain) {
        if (idx < n_in) o[idx] = D::value(row, idx);
    } else {
        if (idx >= n_in / 32) return;
        float values[32];
        D::chunk(row, idx, values);
        for (int i = 0; i < 32; ++i) o[idx * 32 + i] = values[i];
    }
}

} // namespace

extern "C" int octo_cuda_embed(OctoCudaContext* ctx, const OctoCudaWeight* table, const int32_t* tokens,
                               int64_t n_tokens, float* out, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_embed");
    if (!table || !out || (n_tokens > 0 && !tokens)) OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_embed", "null table, tokens or output");
    if (n_tokens == 0) return OCTO_CUDA_OK;
    const void* dev_tokens = nullptr;
    if (int rc = octo_cuda::stage_host(ctx, octo_cuda::kStageTokens, tokens, n_tokens * sizeof(int32_t), &dev_tokens, out_)) return rc;
    const bool known = octo_cuda::dispatch_type(table->type, [&](auto decoder) {
        using D = decltype(decoder);
        const int64_t per_row = D::kPlain ? table->n_in : table->n_in / 32;
        const dim3 grid(octo_cuda::blocks_for(per_row), static_cast<unsigned int>(n_tokens));
        embed_kernel<D><<<grid, octo_cuda::kThreads, 0, ctx->stream>>>(table->data, table->row_bytes, table->n_in,
                                                                     static_cast<const int32_t*>(dev_tokens), out);
    });
    if (!known) OCTO_FAIL(OCTO_CUDA_EUNSUPPORTED, "octo_cuda_embed", "weight type not supported");
    OCTO_CHECK_LAUNCH("embed_kernel");
    return OCTO_CUDA_OK;
}
