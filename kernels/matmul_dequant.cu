// Fused dequantise-and-multiply for decode: one warp per output row. Lanes walk the row in
// 32-value chunks (block types) or single values (plain types), decode them and accumulate the
// products with up to kFusedMaxTokens activation rows; the warp's partial sums are then added.
#include "launch.cuh"
#include "matmul_dequant.cuh"
#include "quant_decode.cuh"

namespace octo_cuda {

namespace {

constexpr int kWarpsPerBlock = 4;

template <class D>
__global__ void matmul_dequant_kernel(const uint8_t* w, uint64_t row_bytes, int64_t n_in, int64_t n_out,
                                      const float* x, float* y, int n_tokens) {
    const int64_t r = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (r >= n_out) return;
    const uint8_t* row = w + r * row_bytes;
    float sum[kFusedMaxTokens] = {};
    if constexpr (D::kPlain) {
        for (int64_t i = lane; i < n_in; i += 32) {
            const float wi = D::value(row, i);
#pragma unroll
            for (int t = 0; t < kFusedMaxTokens; ++t) {
                if (t < n_tokens) sum[t] += wi * x[t * n_in + i];
            }
        }
    } else {
        float values[32];
        for (int64_t c = lane; c < n_in / 32; c += 32) {
            D::chunk(row, c, values);
#pragma unroll
            for (int t = 0; t < kFusedMaxTokens; ++t) {
                if (t >= n_tokens) break;
                const float* xc = x + t * n_in + c * 32; // [32]
                float s = 0.0f;
#pragma unroll
                for (int i = 0; i < 32; ++i) s += values[i] * xc[i];
                sum[t] += s;
            }
        }
    }
#pragma unroll
    for (int t = 0; t < kFusedMaxTokens; ++t) {
        if (t >= n_tokens) break;
        const float total = warp_sum(sum[t]);
        if (lane == 0) y[t * n_out + r] = total;
    }
}

} // namespace

int launch_matmul_dequant(OctoCudaContext* ctx, const OctoCudaWeight* w, const float* x, float* y, int64_t n_tokens,
                          ErrOut out_) {
    const unsigned int grid = blocks_for(w->n_out, kWarpsPerBlock);
    const bool known = dispatch_type(w->type, [&](auto decoder) {
        matmul_dequant_kernel<decltype(decoder)><<<grid, 32 * kWarpsPerBlock, 0, ctx->stream>>>(
            w->data, w->row_bytes, w->n_in, w->n_out, x, y, static_cast<int>(n_tokens));
    });
    if (!known) OCTO_FAIL(OCTO_CUDA_EUNSUPPORTED, "octo_cuda_matmul", "weight type not supported");
    OCTO_CHECK_LAUNCH("matmul_dequant_kernel");
    return OCTO_CUDA_OK;
}

} // namespace octo_cuda
