// Prefill products through cuBLAS. Row-major y[n_tokens, n_out] = x[n_tokens, n_in] · W[n_out, n_in]ᵀ
// is, column-major, y(n_out × n_tokens) = Wᵀ(op T of an n_in × n_out matrix) · x(n_in × n_tokens).
#include <cuda_fp16.h>

#include "launch.cuh"
#include "matmul_gemm.cuh"
#include "quant_decode.cuh"

namespace octo_cuda {

namespace {

__device__ inline void store(float* dst, float v) { *dst = v; }
__device__ inline void store(__half* dst, float v) { *dst = __float2half_rn(v); }

// Dequantises W[n_out, n_in] into dst[n_out * n_in]: one thread per value (plain types) or per
// 32-value chunk (block types).
template <class D, class Out>
__global__ void dequantize_kernel(const uint8_t* w, uint64_t row_bytes, int64_t n_in, int64_t n_out, Out* dst) {
    const int64_t idx = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if constexpr (D::kPlain) {
        if (idx >= n_in * n_out) return;
        const int64_t r = idx / n_in;
        store(dst + idx, D::value(w + r * row_bytes, idx % n_in));
    } else {
        const int64_t chunks = n_in / 32;
        if (idx >= chunks * n_out) return;
        const int64_t r = idx / chunks;
        const int64_t c = idx % chunks;
        float values[32];
        D::chunk(w + r * row_bytes, c, values);
        Out* o = dst + r * n_in + c * 32;
        for (int i = 0; i < 32; ++i) store(o + i, values[i]);
    }
}

__global__ void to_half_kernel(const float* x, __half* y, int64_t n) {
    const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __float2half_rn(x[i]);
}

template <class Out>
int dequantize_weight(OctoCudaContext* ctx, const OctoCudaWeight* w, Out* dst, ErrOut out_) {
    const bool known = dispatch_type(w->type, [&](auto decoder) {
        using D = decltype(decoder);
        const int64_t n_threads = D::kPlain ? w->n_in * w->n_out : (w->n_in / 32) * w->n_out;
        dequantize_kernel<D, Out><<<blocks_for(n_threads), kThreads, 0, ctx->stream>>>(w->data, w->row_bytes, w->n_in,
                                                                                       w->n_out, dst);
    });
    if (!known) OCTO_FAIL(OCTO_CUDA_EUNSUPPORTED, "octo_cuda_matmul", "weight type not supported");
    OCTO_CHECK_LAUNCH("dequantize_kernel");
    return OCTO_CUDA_OK;
}

} // namespace

int launch_matmul_gemm(OctoCudaContext* ctx, const OctoCudaWeight* w, const float* x, float* y, int64_t n_tokens,
                       ErrOut out_) {
    const float one = 1.0f;
    const float zero = 0.0f;
    const int m = static_cast<int>(w->n_out);
    const int n = static_cast<int>(n_tokens);
    const int k = static_cast<int>(w->n_in);
    const size_t n_weights = static_cast<size_t>(w->n_in * w->n_out);
    // F32 and BF16 weights multiply in F32 (BF16's range exceeds F16's); the rest in F16.
    const bool in_f32 = w->type == kF32 || w->type == kBF16;
    const void* a = w->data;
    const void* b = x;
    if (in_f32 && w->type != kF32) {
        if (int rc = ensure_scratch(ctx, ctx->gemm_w, n_weights * sizeof(float), out_)) return rc;
        if (int rc = dequantize_weight(ctx, w, static_cast<float*>(ctx->gemm_w.ptr), out_)) return rc;
        a = ctx->gemm_w.ptr;
    }
    if (!in_f32) {
        if (w->type != kF16) {
            if (int rc = ensure_scratch(ctx, ctx->gemm_w, n_weights * sizeof(__half), out_)) return rc;
            if (int rc = dequantize_weight(ctx, w, static_cast<__half*>(ctx->gemm_w.ptr), out_)) return rc;
            a = ctx->gemm_w.ptr;
        }
        const int64_t n_x = n_tokens * w->n_in;
        if (int rc = ensure_scratch(ctx, ctx->gemm_x, static_cast<size_t>(n_x) * sizeof(__half), out_)) return rc;
        to_half_kernel<<<blocks_for(n_x), kThreads, 0, ctx->stream>>>(x, static_cast<__half*>(ctx->gemm_x.ptr), n_x);
        OCTO_CHECK_LAUNCH("to_half_kernel");
        b = ctx->gemm_x.ptr;
    }
    const cudaDataType_t ab_type = in_f32 ? CUDA_R_32F : CUDA_R_16F;
    OCTO_CHECK_BLAS(cublasGemmEx(ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &one, a, ab_type, k, b, ab_type, k,
                                 &zero, y, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    return OCTO_CUDA_OK;
}

} // namespace octo_cuda
