// MXFP4 weights × Q8_0 activations on the AVX-512 VNNI path (gpt-oss's experts), with the float
// steps of the AVX2 kernel (quant_matmul_x86.inc, step_block4 / tile_block4) and so its bits: per
// (row, token) each block's 8 lanes of four-product integer sums are added, scaled by d_x·d_w, to
// an even-block or an odd-block 8-lane accumulator by one fused step per lane; the two are added
// and reduced in the AVX2 kernel's order, and a lone last block (an odd block count) is reduced to
// one integer and added by one fused step.
//
// What differs is how the lanes are computed (and that each token's activations are first laid
// out in pairs of blocks with their scales, so a pair is one load). Two blocks at a time fill one 512-bit register —
// the even block in the low half, the odd one in the high half, so one register holds both
// accumulators — and each lane is one vpdpbusd of the levels' magnitudes (unsigned) with the
// activations negated where a level is negative, instead of AVX2's sign, multiply-add to int16
// and multiply-add to int32. The integer sums are the same (no int16 step can saturate here:
// |level| ≤ 12, |x| ≤ 127), so the bits are.
#include "engine/backend/cpu/x86_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/gguf/block_values.h"
#include "engine/gguf/iq_grids.h"
#include "engine/gguf/quant_blocks.h"

#define OCTO_MX __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx2,fma,f16c")))

namespace octo {

namespace {

using qblock::kMXFP4Bytes;

constexpr int kTile = 8;                // tokens sharing one unpacked pair of blocks
constexpr int64_t kRowBlockBytes = 16384; // weight rows walked per pass over a block of tokens
constexpr int64_t kTokenBlock = 64;

// The 32 levels of one block (E2M1 values doubled, as int8): low nibbles are values 0..15.
OCTO_MX inline __m256i levels32(const uint8_t* qs) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    const __m128i mask = _mm_set1_epi8(15);
    const __m256i idx = _mm256_set_m128i(_mm_and_si128(_mm_srli_epi16(b, 4), mask), _mm_and_si128(b, mask));
    const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(iq::kMxfp4Values)));
    return _mm256_shuffle_epi8(table, idx);
}

OCTO_MX inline __m256i load32(const void* p) { return _mm256_loadu_si256(static_cast<const __m256i*>(p)); }

// The AVX2 kernel's reduction of its 8 lanes.
OCTO_MX inline float hsum(__m256 a) {
    __m128 v = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    v = _mm_add_ps(v, _mm_movehl_ps(v, v));
    v = _mm_add_ss(v, _mm_movehdup_ps(v));
    return _mm_cvtss_f32(v);
}

// The activations of one token as the pairs read them: per pair of blocks (2p, 2p + 1) their 64
// values, then their scales as 16 floats (d_2p eight times, d_2p+1 eight times). A lone last
// block is read from the quantised row itself.
constexpr int64_t kPairBytes = 128;

int64_t prepared_bytes(int64_t n_in, int64_t n_tokens) { return n_tokens * (n_in / 64) * kPairBytes; }

OCTO_MX void prepare(const QuantMatmulArgs& a, int64_t token, uint8_t* prepared) {
    const int64_t pairs = a.w->n_in / 64;
    const auto* x = reinterpret_cast<const ActQ8_0*>(a.xq + token * a.xq_row_bytes);
    uint8_t* out = prepared + token * pairs * kPairBytes;
    for (int64_t p = 0; p < pairs; ++p, out += kPairBytes) {
        std::memcpy(out, x[2 * p].qs, 32);
        std::memcpy(out + 32, x[2 * p + 1].qs, 32);
        _mm512_storeu_ps(out + 64, _mm512_insertf32x8(_mm512_set1_ps(x[2 * p].d), _mm256_set1_ps(x[2 * p + 1].d), 1));
    }
}

// One weight row × kT tokens into y[t · y_stride]: px the tokens' prepared pairs (p_stride bytes
// apart), xq their quantised rows (x_stride apart) for a lone last block.
template <int kT>
OCTO_MX void tile(const uint8_t* row, const uint8_t* px, int64_t p_stride, const uint8_t* xq, int64_t x_stride, int64_t nb,
                  float* y, int64_t y_stride) {
    __m512 acc[kT]; // low half: even blocks, high half: odd blocks
    for (int t = 0; t < kT; ++t) acc[t] = _mm512_setzero_ps();
    int64_t b = 0;
    for (; b + 1 < nb; b += 2) {
        const uint8_t* w0 = row + b * kMXFP4Bytes;
        const uint8_t* w1 = w0 + kMXFP4Bytes;
        const __m512i q = _mm512_inserti64x4(_mm512_castsi256_si512(levels32(w0 + 1)), levels32(w1 + 1), 1);
        const __mmask64 negative = _mm512_movepi8_mask(q);
        const __m512i magnitude = _mm512_abs_epi8(q);
        const __m512 dw = _mm512_insertf32x8(_mm512_set1_ps(qblock::e8m0_half(w0[0])), _mm256_set1_ps(qblock::e8m0_half(w1[0])), 1);
        const uint8_t* pair = px + b / 2 * kPairBytes;
        for (int t = 0; t < kT; ++t) {
            const uint8_t* x = pair + t * p_stride;
            const __m512i xs = _mm512_loadu_si512(x);
            const __m512i signed_x = _mm512_mask_sub_epi8(xs, negative, _mm512_setzero_si512(), xs);
            const __m512i lanes = _mm512_dpbusd_epi32(_mm512_setzero_si512(), magnitude, signed_x);
            const __m512 d = _mm512_mul_ps(_mm512_loadu_ps(reinterpret_cast<const float*>(x + 64)), dw); // d_x · d_w
            acc[t] = _mm512_fmadd_ps(d, _mm512_cvtepi32_ps(lanes), acc[t]);
        }
    }
    for (int t = 0; t < kT; ++t) {
        float sum = hsum(_mm256_add_ps(_mm512_castps512_ps256(acc[t]), _mm512_extractf32x8_ps(acc[t], 1)));
        if (b < nb) { // the lone last block
            const uint8_t* w = row + b * kMXFP4Bytes;
            const __m256i q = levels32(w + 1);
            const auto& x = reinterpret_cast<const ActQ8_0*>(xq + t * x_stride)[b];
            const __m256i lanes = _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_abs_epi8(q), _mm256_sign_epi8(load32(x.qs), q));
            const __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256(lanes, 1));
            const __m128i s2 = _mm_add_epi32(s4, _mm_unpackhi_epi64(s4, s4));
            const int sumi = _mm_cvtsi128_si32(_mm_add_epi32(s2, _mm_shuffle_epi32(s2, 1)));
            sum = std::fma(x.d * qblock::e8m0_half(w[0]), static_cast<float>(sumi), sum);
        }
        y[t * y_stride] = sum;
    }
}

OCTO_MX void rows(const QuantMatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    const int64_t nb = w.n_in / 32;
    const int64_t x_stride = a.xq_row_bytes;
    const int64_t p_stride = nb / 2 * kPairBytes;
    const int64_t rows_per_block = std::max<int64_t>(1, kRowBlockBytes / static_cast<int64_t>(w.row_bytes));
    for (int64_t r0 = row_begin; r0 < row_end; r0 += rows_per_block) {
        const int64_t r1 = std::min(row_end, r0 + rows_per_block);
        for (int64_t t0 = 0; t0 < a.n_tokens; t0 += kTokenBlock) {
            const int64_t t1 = std::min(a.n_tokens, t0 + kTokenBlock);
            for (int64_t t = t0; t < t1; t += kTile) {
                const uint8_t* x = a.xq + t * x_stride;
                const uint8_t* px = a.prepared ? a.prepared + t * p_stride : nullptr; // null: a single block, no pair
                float* y = a.y + t * w.n_out;
                for (int64_t r = r0; r < r1; ++r) {
                    const uint8_t* row = w.data + static_cast<uint64_t>(r) * w.row_bytes;
                    switch (std::min<int64_t>(kTile, t1 - t)) {
                    case 8: tile<8>(row, px, p_stride, x, x_stride, nb, y + r, w.n_out); break;
                    case 7: tile<7>(row, px, p_stride, x, x_stride, nb, y + r, w.n_out); break;
                    case 6: tile<6>(row, px, p_stride, x, x_stride, nb, y + r, w.n_out); break;
                    case 5: tile<5>(row, px, p_stride, x, x_stride, nb, y + r, w.n_out); break;
                    case 4: tile<4>(row, px, p_stride, x, x_stride, nb, y + r, w.n_out); break;
                    case 3: tile<3>(row, px, p_stride, x, x_stride, nb, y + r, w.n_out); break;
                    case 2: tile<2>(row, px, p_stride, x, x_stride, nb, y + r, w.n_out); break;
                    default: tile<1>(row, px, p_stride, x, x_stride, nb, y + r, w.n_out); break;
                    }
                }
            }
        }
    }
}

} // namespace

QuantKernel avx512vnni_mxfp4_kernel() { return {rows, prepared_bytes, prepare}; }

} // namespace octo
