// AVX-512 matrix products: the AVX2 chunk decoders (chunk_decoders_avx2.h), with the four
// 8-float vectors of a chunk joined into two 16-float vectors for the multiply-adds. Each
// (row, token) dot product keeps two 16-lane accumulators — values 0..15 of every chunk go to
// the first, 16..31 to the second — reduced in one fixed order at the end; as in the AVX2 path,
// how many tokens share a chunk never changes the arithmetic of one element.
// GCC 12's AVX-512 intrinsics read a deliberately undefined register (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif

#include <algorithm>
#include <cmath>

#include "engine/backend/cpu/chunk_decoders_avx2.h"
#include "engine/backend/cpu/matmul_kernels.h"

#define OCTO_AVX512 __attribute__((target("avx512f,avx2,fma,f16c")))

namespace octo {

namespace {

using namespace avx2;

constexpr int64_t kTokenBlock = 64; // tokens whose x rows stay in cache while rows are walked
constexpr int kMaxTile = 4;         // tokens sharing one decoded chunk

// [lo (8 floats), hi (8 floats)]: the 128-bit lanes lo0 lo1 hi0 hi1.
OCTO_AVX512 inline __m512 join(__m256 lo, __m256 hi) {
    return _mm512_shuffle_f32x4(_mm512_zextps256_ps512(lo), _mm512_zextps256_ps512(hi), _MM_SHUFFLE(1, 0, 1, 0));
}

OCTO_AVX512 inline float horizontal_sum(__m512 a, __m512 b) {
    const __m512 s = _mm512_add_ps(a, b);
    const __m256 upper = _mm512_castps512_ps256(_mm512_shuffle_f32x4(s, s, _MM_SHUFFLE(3, 2, 3, 2)));
    const __m256 s8 = _mm256_add_ps(_mm512_castps512_ps256(s), upper);
    __m128 v = _mm_add_ps(_mm256_castps256_ps128(s8), _mm256_extractf128_ps(s8, 1));
    v = _mm_add_ps(v, _mm_movehl_ps(v, v));
    v = _mm_add_ss(v, _mm_movehdup_ps(v));
    return _mm_cvtss_f32(v);
}

// y[t, r] for kTile consecutive tokens starting at x (rows n_in apart) and one weight row.
template <class Decoder, int kTile>
OCTO_AVX512 void dot_tile(const uint8_t* row, int64_t n_in, const float* x, float* y, int64_t y_stride) {
    const int64_t n_chunks = n_in / kChunk;
    __m512 acc0[kTile];
    __m512 acc1[kTile];
    for (int t = 0; t < kTile; ++t) acc0[t] = acc1[t] = _mm512_setzero_ps();
    for (int64_t c = 0; c < n_chunks; ++c) {
        __m256 w[4];
        Decoder::chunk(row, c, w);
        const __m512 w_lo = join(w[0], w[1]); // values 0..15 of the chunk
        const __m512 w_hi = join(w[2], w[3]); // values 16..31
        for (int t = 0; t < kTile; ++t) {
            const float* xc = x + t * n_in + c * kChunk;
            acc0[t] = _mm512_fmadd_ps(w_lo, _mm512_loadu_ps(xc), acc0[t]);
            acc1[t] = _mm512_fmadd_ps(w_hi, _mm512_loadu_ps(xc + 16), acc1[t]);
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
    OCTO_AVX512 static void run(const MatmulArgs& a, int64_t row_begin, int64_t row_end);
};

template <class Decoder>
OCTO_AVX512 void Rows<Decoder>::run(const MatmulArgs& a, int64_t row_begin, int64_t row_end) {
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

MatmulRowsKernel avx512_matmul_kernel(TensorType type) { return kernel_for_type<Rows>(type); }

} // namespace octo
