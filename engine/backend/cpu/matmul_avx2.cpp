// AVX2 + FMA + F16C matrix products. Every function carries the target attribute, so the file
// builds for baseline x86-64 and is only entered when cpu_supports(CpuPath::Avx2).
//
// Each (row, token) dot product keeps two 8-lane accumulators — chunk vectors 0 and 2 go to the
// first, 1 and 3 to the second — summed and reduced horizontally in one fixed order at the end.
// Up to four tokens share each decoded chunk (chunk_decoders_avx2.h); that sharing changes how
// often a chunk is decoded, never the arithmetic of any one element. Plain weights (F32 / F16 /
// BF16) in a prompt go in register tiles of 3 rows × 4 tokens instead, with the same per-element
// steps (plain_tile: two passes over the row, one accumulator of each element at a time).
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

// Chunks of 32 values per block of both passes: 768 values, 12 KiB of F32 activations for four
// tokens (the alternatives measured: docs/performance.md, "Tuning constants").
constexpr int64_t kPlainChunkBlock = 24;

// Plain rows (F32 / F16 / BF16, nothing to decode but a load or a conversion): kRows weight
// rows × kTile tokens in registers, so each weight vector loaded serves kTile tokens and each
// activation vector kRows rows. Every element gets exactly dot_tile's steps: its first
// accumulator takes chunk vectors 0 and 2 of every chunk in order, its second vectors 1 and 3,
// and the two are added and reduced at the end. The tile computes them in two passes over each
// block of the row (first accumulators, then second ones), so that one 8-lane register per
// element is live at a time: 3 × 4 tiles fit the 16 registers (with both live, only 2 × 3 did,
// and the compiler spilled; F16 prompts ran at ~5 multiply-adds per cycle). The tile shape and
// the blocks change only what is loaded when, never a result.
template <class Decoder, int kRows, int kTile>
OCTO_AVX2 void plain_tile(const uint8_t* rows, uint64_t row_bytes, int64_t n_in, const float* x, float* y,
                          int64_t y_stride) {
    const int64_t n_chunks = n_in / kChunk;
    // Both passes run over a block of kPlainChunkBlock chunks before the next block starts, so
    // that the second pass reads the block's activations from L1, not L2 (four tokens of a
    // 2304-wide row are 36 KiB); the accumulators of the pass not running wait in memory.
    __m256 sums[2][kRows][kTile];
    for (int pass = 0; pass < 2; ++pass) {
        for (int r = 0; r < kRows; ++r) {
            for (int t = 0; t < kTile; ++t) sums[pass][r][t] = _mm256_setzero_ps();
        }
    }
    for (int64_t c0 = 0; c0 < n_chunks; c0 += kPlainChunkBlock) {
        const int64_t c1 = std::min(n_chunks, c0 + kPlainChunkBlock);
        for (int pass = 0; pass < 2; ++pass) {
            __m256 acc[kRows][kTile];
            for (int r = 0; r < kRows; ++r) {
                for (int t = 0; t < kTile; ++t) acc[r][t] = sums[pass][r][t];
            }
            for (int64_t c = c0; c < c1; ++c) {
                for (int k = pass; k < 4; k += 2) {
                    __m256 w[kRows];
                    for (int r = 0; r < kRows; ++r) w[r] = Decoder::vector(rows + r * row_bytes, c, k);
                    for (int t = 0; t < kTile; ++t) {
                        const __m256 xv = _mm256_loadu_ps(x + t * n_in + c * kChunk + 8 * k);
                        for (int r = 0; r < kRows; ++r) acc[r][t] = _mm256_fmadd_ps(w[r], xv, acc[r][t]);
                    }
                }
            }
            for (int r = 0; r < kRows; ++r) {
                for (int t = 0; t < kTile; ++t) sums[pass][r][t] = acc[r][t];
            }
        }
    }
    for (int r = 0; r < kRows; ++r) {
        const uint8_t* row = rows + r * row_bytes;
        for (int t = 0; t < kTile; ++t) {
            float sum = horizontal_sum(sums[0][r][t], sums[1][r][t]);
            const float* xt = x + t * n_in;
            for (int64_t i = n_chunks * kChunk; i < n_in; ++i) sum = std::fma(Decoder::value(row, i), xt[i], sum);
            y[t * y_stride + r] = sum;
        }
    }
}

constexpr int kPlainRows = 3;                            // weight rows per plain tile
constexpr int kPlainTokens = 4;                          // tokens per plain tile
constexpr int64_t kPlainTokenBlock = 16 * kPlainTokens;  // tokens whose x rows stay in cache while rows are walked
constexpr int64_t kPlainRowBlockBytes = 128 << 10;       // weight bytes walked per tile of tokens

#define OCTO_M OCTO_AVX2
#include "engine/backend/cpu/matmul_rows_x86.inc"
#undef OCTO_M

} // namespace

MatmulRowsKernel avx2_matmul_kernel(TensorType type) { return kernel_for_type<Rows>(type); }

} // namespace octo
