// The KV cache in device memory: creation, writes to the batch's cells, copies between cells.
#include "context.cuh"
#include "launch.cuh"

namespace {

// k/v [n_tokens, row] -> cells write_cells[i] of one layer ([n_cells, row]).
__global__ void kv_write_kernel(float* k_layer, float* v_layer, const float* k, const float* v,
                                const int32_t* write_cells, int64_t n_tokens, int64_t row) {
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= n_tokens * row) return;
    const int64_t dst = static_cast<int64_t>(write_cells[idx / row]) * row + idx % row;
    k_layer[dst] = k[idx];
    v_layer[dst] = v[idx];
}

} // namespace

extern "C" int octo_cuda_kv_create(OctoCudaContext* ctx, int64_t n_layer, int64_t n_cells, int64_t n_head_kv,
                                   int64_t head_dim, OctoCudaKv** kv, char* err, size_t err_len) {
    *kv = nullptr;
    OCTO_ENTER("octo_cuda_kv_create");
    if (n_layer <= 0 || n_cells <= 0 || n_head_kv <= 0 || head_dim <= 0) {
        OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_kv_create", "KV cache shape must be positive");
    }
    const size_t bytes = static_cast<size_t>(n_layer * n_cells * n_head_kv * head_dim) * sizeof(float);
    void* k = nullptr;
    void* v = nullptr;
    if (int rc = octo_cuda::device_alloc(ctx, &k, bytes, __FILE__, __LINE__, out_)) return rc;
    if (int rc = octo_cuda::device_alloc(ctx, &v, bytes, __FILE__, __LINE__, out_)) {
        (void)cudaFree(k);
        return rc;
    }
    *kv = new OctoCudaKv{static_cast<float*>(k), static_cast<float*>(v), n_layer, n_cells, n_head_kv, head_dim};
    return OCTO_CUDA_OK;
}

extern "C" void octo_cuda_kv_free(OctoCudaContext*, OctoCudaKv* kv) {
    if (!kv) return;
    (void)cudaFree(kv->k);
    (void)cudaFree(kv->v);
    delete kv;
}

extern "C" int octo_cuda_kv_write(OctoCudaContext* ctx, OctoCudaKv* kv, int64_t layer, const float* k,
                                  const float* v, const OctoCudaCells* cells, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_kv_write");
    if (!kv || !cells || layer < 0 || layer >= kv->n_layer) OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_kv_write", "bad cache or layer");
    if (cells->n_tokens <= 0) return OCTO_CUDA_OK;
    const void* dev_cells = nullptr;
    if (int rc = octo_cuda::stage_host(ctx, octo_cuda::kStageWriteCells, cells->write_cells,
                                       cells->n_tokens * sizeof(int32_t), &dev_cells, out_)) {
        return rc;
    }
    const int64_t row = kv->n_head_kv * kv->head_dim;
    const int64_t layer_offset = layer * kv->n_cells * row;
    kv_write_kernel<<<octo_cuda::blocks_for(cells->n_tokens * row), octo_cuda::kThreads, 0, ctx->stream>>>(
        kv->k + layer_offset, kv->v + layer_offset, k, v, static_cast<const int32_t*>(dev_cells), cells->n_tokens, row);
    OCTO_CHECK_LAUNCH("kv_write_kernel");
    return OCTO_CUDA_OK;
}

extern "C" int octo_cuda_kv_copy(OctoCudaContext* ctx, OctoCudaKv* kv, int64_t from, int64_t to, int64_t n,
                                 char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_kv_copy");
    if (!kv || n < 0 || from < 0 || to < 0 || from + n > kv->n_cells || to + n > kv->n_cells) {
        OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_kv_copy", "cells out of range");
    }
    if (n == 0 || from == to) return OCTO_CUDA_OK;
    if (from < to + n && to < from + n) OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_kv_copy", "overlapping cell ranges");
    const int64_t row = kv->n_head_kv * kv->head_dim;
    const size_t bytes = static_cast<size_t>(n * row) * sizeof(float);
    for (int64_t l = 0; l < kv->n_layer; ++l) {
        const int64_t base = l * kv->n_cells * row;
        OCTO_CHECK(cudaMemcpyAsync(kv->k + base + to * row, kv->k + base + from * row, bytes, cudaMemcpyDeviceToDevice, ctx->stream));
        OCTO_CHECK(cudaMemcpyAsync(kv->v + base + to * row, kv->v + base + from * row, bytes, cudaMemcpyDeviceToDevice, ctx->stream));
    }
    return OCTO_CUDA_OK;
}
