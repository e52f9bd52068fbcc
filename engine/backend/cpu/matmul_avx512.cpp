// AVX-512 matrix products: the AVX2 chunk decoders (chunk_decoders_avx2.h), with the four
// 8-float vectors of a chunk joined into two 16-float vectors for the multiply-adds. Each
// (row, token) dot product keeps two 16-lane accumulators — values 0..15 of every chunk go to
// the first, 16..31 to the second — reduced in one fixed order at the end; as in the AVX2 path,
// how many tokens share a chunk never changes the arithmetic of one element.
// Plain weights (F32 / F16 / BF16: the exact path and the reference path of float models) are
// multiplied in register tiles of 4 rows × 3 tokens for prompts (each weight vector loaded once
// per 3 tokens, each activation vector once per 4 rows); a token alone (decode) streams one row
// at a time. Quantised weights keep one row × 4 tokens per decoded chunk: there the decoding,
// not the loads, is the cost.
#include "engine/backend/cpu/x86_intrinsics.h"

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
constexpr int64_t kPrefetchBytes = 5120; // how far ahead decode asks for weight bytes

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

// 16 values of a plain row as one vector: values 32c + 16h … 32c + 16h + 15 (h = 0, 1), the same
// floats the AVX2 decoder gives (the conversions are exact).
template <class Decoder>
struct PlainHalf;
template <>
struct PlainHalf<DecodeF32> {
    static constexpr int kChunkBytes = 128;
    // Two 256-bit loads: a GGUF tensor is 32-byte aligned, and a 512-bit load that crosses a
    // cache line costs more than the join.
    OCTO_AVX512 static __m512 load(const uint8_t* row, int64_t c, int h) {
        const float* p = reinterpret_cast<const float*>(row) + c * kChunk + 16 * h;
        const __m512d lo = _mm512_castps_pd(_mm512_castps256_ps512(_mm256_loadu_ps(p)));
        return _mm512_castpd_ps(_mm512_insertf64x4(lo, _mm256_castps_pd(_mm256_loadu_ps(p + 8)), 1));
    }
};
template <>
struct PlainHalf<DecodeF16> {
    static constexpr int kChunkBytes = 64;
    OCTO_AVX512 static __m512 load(const uint8_t* row, int64_t c, int h) {
        return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + 2 * (c * kChunk + 16 * h))));
    }
};
template <>
struct PlainHalf<DecodeBF16> {
    static constexpr int kChunkBytes = 64;
    OCTO_AVX512 static __m512 load(const uint8_t* row, int64_t c, int h) {
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + 2 * (c * kChunk + 16 * h)));
        return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(b), 16));
    }
};

// y[t, r] for kTile consecutive tokens starting at x (rows n_in apart) and one weight row.
template <class Decoder, int kTile>
OCTO_AVX512 void dot_tile(const uint8_t* row, int64_t n_in, const float* x, float* y, int64_t y_stride) {
    const int64_t n_chunks = n_in / kChunk;
    __m512 acc0[kTile];
    __m512 acc1[kTile];
    for (int t = 0; t < kTile; ++t) acc0[t] = acc1[t] = _mm512_setzero_ps();
    for (int64_t c = 0; c < n_chunks; ++c) {
        if constexpr (kTile == 1 && Decoder::kPlain) { // decode streams the row: ask ~5 KiB ahead
            constexpr int kBytes = PlainHalf<Decoder>::kChunkBytes;
            const char* ahead = reinterpret_cast<const char*>(row) + c * kBytes + kPrefetchBytes;
            for (int line = 0; line < kBytes; line += 64) _mm_prefetch(ahead + line, _MM_HINT_T0);
        }
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

// Plain rows (F32 / F16 / BF16, nothing to decode but a load or a conversion): kRows weight
// rows × kTile tokens in registers, so each loaded weight vector serves kTile tokens and each
// activation vector kRows rows. Every element gets the same two accumulators and the same
// steps as dot_tile above, in the same order: the tile shape changes only what is loaded when.
template <class Decoder, int kRows, int kTile>
OCTO_AVX512 void plain_tile(const uint8_t* rows, uint64_t row_bytes, int64_t n_in, const float* x, float* y,
                            int64_t y_stride) {
    const int64_t n_chunks = n_in / kChunk;
    __m512 acc0[kRows][kTile];
    __m512 acc1[kRows][kTile];
    for (int r = 0; r < kRows; ++r) {
        for (int t = 0; t < kTile; ++t) acc0[r][t] = acc1[r][t] = _mm512_setzero_ps();
    }
    for (int64_t c = 0; c < n_chunks; ++c) {
        __m512 w[kRows];
        for (int r = 0; r < kRows; ++r) w[r] = PlainHalf<Decoder>::load(rows + r * row_bytes, c, 0);
        for (int t = 0; t < kTile; ++t) {
            const __m512 xv = _mm512_loadu_ps(x + t * n_in + c * kChunk);
            for (int r = 0; r < kRows; ++r) acc0[r][t] = _mm512_fmadd_ps(w[r], xv, acc0[r][t]);
        }
        for (int r = 0; r < kRows; ++r) w[r] = PlainHalf<Decoder>::load(rows + r * row_bytes, c, 1);
        for (int t = 0; t < kTile; ++t) {
            const __m512 xv = _mm512_loadu_ps(x + t * n_in + c * kChunk + 16);
            for (int r = 0; r < kRows; ++r) acc1[r][t] = _mm512_fmadd_ps(w[r], xv, acc1[r][t]);
        }
    }
    for (int r = 0; r < kRows; ++r) {
        const uint8_t* row = rows + r * row_bytes;
        for (int t = 0; t < kTile; ++t) {
            float sum = horizontal_sum(acc0[r][t], acc1[r][t]);
            const float* xt = x + t * n_in;
            for (int64_t i = n_chunks * kChunk; i < n_in; ++i) sum = std::fma(Decoder::value(row, i), xt[i], sum);
            y[t * y_stride + r] = sum;
        }
    }
}

// 4 rows × 3 tokens (the other shapes measured: docs/performance.md, "Tuning constants"): 24 of
// the 32 vector registers hold sums, four hold the rows' vectors.
constexpr int kPlainRows = 4;             // weight rows per plain tile
constexpr int kPlainTokens = 3;           // tokens per plain tile
constexpr int64_t kPlainTokenBlock = 63;  // tokens whose x rows stay in cache while rows are walked
constexpr int64_t kPlainRowBlockBytes = 128 << 10; // weight bytes walked per tile of tokens

#define OCTO_M OCTO_AVX512
#include "engine/backend/cpu/matmul_rows_x86.inc"
#undef OCTO_M

} // namespace

MatmulRowsKernel avx512_matmul_kernel(TensorType type) { return kernel_for_type<Rows>(type); }

} // namespace octo
