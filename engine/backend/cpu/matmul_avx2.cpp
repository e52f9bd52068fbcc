// AVX2 + FMA + F16C matrix products. Every function carries the target attribute, so the file
// builds for baseline x86-64 and is only entered when cpu_supports(CpuPath::Avx2).
//
// Each (row, token) dot product keeps two 8-lane accumulators — chunk vectors 0 and 2 go to the
// first, 1 and 3 to the second — summed and reduced horizontally in one fixed order at the end.
// Up to four tokens share each decoded chunk (chunk_decoders_avx2.h); that sharing changes how
// often a chunk is decoded, never the arithmetic of any one element.
#include <algorithm>
#include <cmath>

#include "engine/backend/cpu/chunk_decoders_avx2.h"
#include "engine/backend/cpu/matmul_kernels.h"

namespace octo {

namespace {

using namespace avx2;

constexpr int64_t kTokenBlock = 64; // tokens whose x rows stay in cache while rows are walked
constexpr int kMaxTile = 4;         // tokens sharing one decoded chunk

OCTO_AVX2 inline float horizontal_sum(__m256 a, __m256 b) {
    const __m256 s = _mm256_add_ps(a, b);
    __m128 v = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
    v = _mm_add_ps(v, _mm_movehl_ps(v, v));
    v = _mm_add_ss(v, _mm_movehdup_ps(v));
    return _mm_cvtss_f32(v);
}

// y[t, r] for kTile consecutive tokens starting at x (rows n_in apart) and one weight row.
template <class Decoder, int kTile>
OCTO_AVX2 void dot_tile(const uint8_t* row, int64_t n_in, const float* x, float* y, int64_t y_stride) {
    const int64_t n_chunks = n_in / kChunk;
    __m256 acc0[kTile];
    __m256 acc1[kTile];
    for (int t = 0; t < kTile; ++t) acc0[t] = acc1[t] = _mm256_setzero_ps();
    for (int64_t c = 0; c < n_chunks; ++c) {
        __m256 w[4];
        Decoder::chunk(row, c, w);
        for (int t = 0; t < kTile; ++t) {
            const float* xc = x + t * n_in + c * kChunk;
            acc0[t] = _mm256_fmadd_ps(w[0], _mm256_loadu_ps(xc), acc0[t]);
            acc1[t] = _mm256_fmadd_ps(w[1], _mm256_loadu_ps(xc + 8), acc1[t]);
            acc0[t] = _mm256_fmadd_ps(w[2], _mm256_loadu_ps(xc + 16), acc0[t]);
            acc1[t] = _mm256_fmadd_ps(w[3], _mm256_loadu_ps(xc + 24), acc1[t]);
        }
    }
    for (int t = 0; t < kTile; ++t) {
        float sum = horizontal_sum(acc0[t], acc1[t]);
        if constexpr (Decoder::kPlain) { // a row length that is not a multiple of 32
            const float* xt = x + t * n_in;
            for (int64_t i = n_chunks * kChunk; i < n_in; ++i) sum = std::fma(Decoder::value(row, i), xt[i], sum);
        }
        y[t * y_stride] = sum;
    }
}

template <class Decoder>
struct Rows {
    OCTO_AVX2 static void run(const MatmulArgs& a, int64_t row_begin, int64_t row_end);
};

template <class Decoder>
OCTO_AVX2 void Rows<Decoder>::run(const MatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    for (int64_t t0 = 0; t0 < a.n_tokens; t0 += kTokenBlock) {
        const int64_t t1 = std::min(a.n_tokens, t0 + kTokenBlock);
        for (int64_t r = row_begin; r < row_end; ++r) {
            const uint8_t* row = w.data + static_cast<uint64_t>(r) * w.row_bytes;
            int64_t t = t0;
            for (; t + kMaxTile <= t1; t += kMaxTile) {
                dot_tile<Decoder, kMaxTile>(row, w.n_in, a.x + t * w.n_in, a.y + t * w.n_out + r, w.n_out);
            }
            for (; t < t1; ++t) dot_tile<Decoder, 1>(row, w.n_in, a.x + t * w.n_in, a.y + t * w.n_out + r, w.n_out);
        }
    }
}

} // namespace

MatmulRowsKernel avx2_matmul_kernel(TensorType type) { return kernel_for_type<Rows>(type); }

} // namespace octo
