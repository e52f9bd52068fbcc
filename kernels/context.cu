// Context, memory and staging entry points.
#include <cstdio>

#include "check.cuh"
#include "context.cuh"

namespace octo_cuda {

int device_alloc(OctoCudaContext* ctx, void** ptr, size_t bytes, const char* file, int line, ErrOut out) {
    *ptr = nullptr;
    if (fault_fires(OCTO_CUDA_FAULT_ALLOC)) {
        return report(out, OCTO_CUDA_ENOMEM, "cudaMalloc", file, line, "out of memory (cudaErrorMemoryAllocation, injected)");
    }
    return check_cuda(ctx, cudaMalloc(ptr, bytes == 0 ? 1 : bytes), "cudaMalloc", file, line, out);
}

int ensure_scratch(OctoCudaContext* ctx, Scratch& s, size_t bytes, ErrOut out) {
    if (s.bytes >= bytes) return OCTO_CUDA_OK;
    if (s.ptr) {
        // cudaFree waits for the device, so queued kernels still reading s are done.
        if (int rc = check_cuda(ctx, cudaFree(s.ptr), "cudaFree", __FILE__, __LINE__, out)) return rc;
        s = {};
    }
    const size_t grown = bytes + bytes / 4; // some headroom: fewer regrowths as batches vary
    if (int rc = device_alloc(ctx, &s.ptr, grown, __FILE__, __LINE__, out)) return rc;
    s.bytes = grown;
    return OCTO_CUDA_OK;
}

int stage_host(OctoCudaContext* ctx, StageSlot slot, const void* host, size_t bytes, const void** dev, ErrOut out) {
    Scratch& s = ctx->stage[slot];
    if (int rc = ensure_scratch(ctx, s, bytes, out)) return rc;
    // From pageable memory the copy is staged before the call returns: host may be reused.
    if (int rc = check_cuda(ctx, cudaMemcpyAsync(s.ptr, host, bytes, cudaMemcpyHostToDevice, ctx->stream),
                            "cudaMemcpyAsync", __FILE__, __LINE__, out)) {
        return rc;
    }
    *dev = s.ptr;
    return OCTO_CUDA_OK;
}

} // namespace octo_cuda

extern "C" int octo_cuda_context_create(int device, OctoCudaContext** out_ctx, char* err, size_t err_len) {
    *out_ctx = nullptr;
    auto* ctx = new OctoCudaContext;
    ctx->device = device;
    ::octo_cuda::ErrOut out_{err, err_len};
    int rc = ::octo_cuda::check_cuda(ctx, cudaSetDevice(device), "cudaSetDevice", __FILE__, __LINE__, out_);
    if (!rc) {
        rc = ::octo_cuda::check_cuda(ctx, cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking),
                                     "cudaStreamCreateWithFlags", __FILE__, __LINE__, out_);
    }
    if (!rc) rc = ::octo_cuda::check_cublas(cublasCreate(&ctx->blas), "cublasCreate", __FILE__, __LINE__, out_);
    if (!rc) rc = ::octo_cuda::check_cublas(cublasSetStream(ctx->blas, ctx->stream), "cublasSetStream", __FILE__, __LINE__, out_);
    if (rc) {
        octo_cuda_context_destroy(ctx);
        return rc;
    }
    *out_ctx = ctx;
    return OCTO_CUDA_OK;
}

extern "C" void octo_cuda_context_destroy(OctoCudaContext* ctx) {
    if (!ctx) return;
    // Best effort: a poisoned context cannot free anything, and teardown has no one to report to.
    if (ctx->blas) (void)cublasDestroy(ctx->blas);
    for (auto& s : ctx->stage) (void)cudaFree(s.ptr);
    (void)cudaFree(ctx->gemm_w.ptr);
    (void)cudaFree(ctx->gemm_x.ptr);
    (void)cudaFree(ctx->scores.ptr);
    if (ctx->stream) (void)cudaStreamDestroy(ctx->stream);
    delete ctx;
}

extern "C" int octo_cuda_synchronize(OctoCudaContext* ctx, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_synchronize");
    OCTO_CHECK(cudaStreamSynchronize(ctx->stream));
    return OCTO_CUDA_OK;
}

extern "C" int octo_cuda_alloc(OctoCudaContext* ctx, uint64_t bytes, void** ptr, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_alloc");
    return ::octo_cuda::device_alloc(ctx, ptr, bytes, __FILE__, __LINE__, out_);
}

extern "C" int octo_cuda_free(OctoCudaContext* ctx, void* ptr, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_free");
    OCTO_CHECK(cudaFree(ptr));
    return OCTO_CUDA_OK;
}

extern "C" int octo_cuda_upload(OctoCudaContext* ctx, void* dst, const void* src, uint64_t bytes, char* err,
                                size_t err_len) {
    OCTO_ENTER("octo_cuda_upload");
    OCTO_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, ctx->stream));
    return OCTO_CUDA_OK;
}

extern "C" int octo_cuda_download(OctoCudaContext* ctx, void* dst, const void* src, uint64_t bytes, char* err,
                                  size_t err_len) {
    OCTO_ENTER("octo_cuda_download");
    OCTO_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, ctx->stream));
    OCTO_CHECK(cudaStreamSynchronize(ctx->stream));
    return OCTO_CUDA_OK;
}
