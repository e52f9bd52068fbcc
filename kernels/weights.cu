// Weight matrices in device memory: uploaded once per tensor, in their file layout.
#include "context.cuh"
#include "quant_decode.cuh"

extern "C" int octo_cuda_supports_type(uint32_t ggml_type) {
    return octo_cuda::dispatch_type(ggml_type, [](auto) {}) ? 1 : 0;
}

extern "C" int octo_cuda_weight_upload(OctoCudaContext* ctx, uint32_t ggml_type, const void* rows, int64_t n_in,
                                       int64_t n_out, uint64_t row_bytes, OctoCudaWeight** weight, char* err,
                                       size_t err_len) {
    *weight = nullptr;
    OCTO_ENTER("octo_cuda_weight_upload");
    if (!octo_cuda_supports_type(ggml_type)) OCTO_FAIL(OCTO_CUDA_EUNSUPPORTED, "octo_cuda_weight_upload", "weight type not supported");
    if (!rows || n_in <= 0 || n_out <= 0 || row_bytes == 0) OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_weight_upload", "empty weight matrix");
    const uint64_t bytes = static_cast<uint64_t>(n_out) * row_bytes;
    void* data = nullptr;
    if (int rc = octo_cuda::device_alloc(ctx, &data, bytes, __FILE__, __LINE__, out_)) return rc;
    // Synchronous: the rows are memory-mapped file pages the caller may unmap later.
    if (int rc = octo_cuda::check_cuda(ctx, cudaMemcpy(data, rows, bytes, cudaMemcpyHostToDevice), "cudaMemcpy",
                                       __FILE__, __LINE__, out_)) {
        (void)cudaFree(data);
        return rc;
    }
    *weight = new OctoCudaWeight{ggml_type, static_cast<uint8_t*>(data), n_in, n_out, row_bytes};
    return OCTO_CUDA_OK;
}

extern "C" void octo_cuda_weight_free(OctoCudaContext*, OctoCudaWeight* weight) {
    if (!weight) return;
    (void)cudaFree(weight->data);
    delete weight;
}
