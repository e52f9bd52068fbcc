// Reference rates for octoscope-cli bench (octo_cuda_api.h): a large device-to-device copy and a
// cuBLAS GEMM of the prefill path's types, timed with CUDA events on the context's stream.
#include <cuda_fp16.h>

#include "context.cuh"

namespace {

// Device buffers freed on every return path.
struct DeviceBuffers {
    void* p[3] = {nullptr, nullptr, nullptr};
    ~DeviceBuffers() {
        for (void* q : p) (void)cudaFree(q);
    }
};

struct Events {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~Events() {
        if (start) (void)cudaEventDestroy(start);
        if (stop) (void)cudaEventDestroy(stop);
    }
};

} // namespace

extern "C" int octo_cuda_bench_copy(OctoCudaContext* ctx, uint64_t bytes, int iters, double* gb_per_s, char* err,
                                    size_t err_len) {
    OCTO_ENTER("octo_cuda_bench_copy");
    if (bytes == 0 || iters < 1 || !gb_per_s) OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_bench_copy", "empty copy");
    DeviceBuffers buf;
    if (int rc = octo_cuda::device_alloc(ctx, &buf.p[0], bytes, __FILE__, __LINE__, out_)) return rc;
    if (int rc = octo_cuda::device_alloc(ctx, &buf.p[1], bytes, __FILE__, __LINE__, out_)) return rc;
    OCTO_CHECK(cudaMemsetAsync(buf.p[0], 1, bytes, ctx->stream));
    Events ev;
    OCTO_CHECK(cudaEventCreate(&ev.start));
    OCTO_CHECK(cudaEventCreate(&ev.stop));
    OCTO_CHECK(cudaMemcpyAsync(buf.p[1], buf.p[0], bytes, cudaMemcpyDeviceToDevice, ctx->stream)); // untimed
    OCTO_CHECK(cudaEventRecord(ev.start, ctx->stream));
    for (int i = 0; i < iters; ++i) {
        OCTO_CHECK(cudaMemcpyAsync(buf.p[1], buf.p[0], bytes, cudaMemcpyDeviceToDevice, ctx->stream));
    }
    OCTO_CHECK(cudaEventRecord(ev.stop, ctx->stream));
    OCTO_CHECK(cudaEventSynchronize(ev.stop));
    float ms = 0.0f;
    OCTO_CHECK(cudaEventElapsedTime(&ms, ev.start, ev.stop));
    *gb_per_s = 2.0 * static_cast<double>(bytes) * iters / (static_cast<double>(ms) * 1e-3) / 1e9;
    return OCTO_CUDA_OK;
}

extern "C" int octo_cuda_bench_gemm(OctoCudaContext* ctx, int64_t m, int64_t n, int64_t k, int iters,
                                    double* tflop_per_s, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_bench_gemm");
    if (m <= 0 || n <= 0 || k <= 0 || iters < 1 || !tflop_per_s) {
        OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_bench_gemm", "empty product");
    }
    DeviceBuffers buf;
    const size_t a_bytes = static_cast<size_t>(m * k) * sizeof(__half), b_bytes = static_cast<size_t>(k * n) * sizeof(__half);
    const size_t c_bytes = static_cast<size_t>(m * n) * sizeof(float);
    if (int rc = octo_cuda::device_alloc(ctx, &buf.p[0], a_bytes, __FILE__, __LINE__, out_)) return rc;
    if (int rc = octo_cuda::device_alloc(ctx, &buf.p[1], b_bytes, __FILE__, __LINE__, out_)) return rc;
    if (int rc = octo_cuda::device_alloc(ctx, &buf.p[2], c_bytes, __FILE__, __LINE__, out_)) return rc;
    OCTO_CHECK(cudaMemsetAsync(buf.p[0], 0, a_bytes, ctx->stream));
    OCTO_CHECK(cudaMemsetAsync(buf.p[1], 0, b_bytes, ctx->stream));
    const float one = 1.0f, zero = 0.0f;
    const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
    auto product = [&] {
        return cublasGemmEx(ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N, mi, ni, ki, &one, buf.p[0], CUDA_R_16F, ki, buf.p[1],
                            CUDA_R_16F, ki, &zero, buf.p[2], CUDA_R_32F, mi, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    OCTO_CHECK_BLAS(product()); // untimed
    Events ev;
    OCTO_CHECK(cudaEventCreate(&ev.start));
    OCTO_CHECK(cudaEventCreate(&ev.stop));
    OCTO_CHECK(cudaEventRecord(ev.start, ctx->stream));
    for (int i = 0; i < iters; ++i) OCTO_CHECK_BLAS(product());
    OCTO_CHECK(cudaEventRecord(ev.stop, ctx->stream));
    OCTO_CHECK(cudaEventSynchronize(ev.stop));
    float ms = 0.0f;
    OCTO_CHECK(cudaEventElapsedTime(&ms, ev.start, ev.stop));
    *tflop_per_s = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) * iters /
                   (static_cast<double>(ms) * 1e-3) / 1e12;
    return OCTO_CUDA_OK;
}
