// Integer kernels with AVX-512 (BW, VNNI), following the reference's float steps (quant_matmul.h).
//
// Weights are unpacked to unsigned bytes (Q8_0: stored value + 128; Q4_0 / Q5_0 without their
// offset; the others as stored) and multiplied with the signed activation bytes.
//   32-value blocks (Q8_0, Q4_0, Q5_0, Q4_1, Q5_1): vpdpbusd gives eight sums of four products
//     per block, started from -offset·(the lane's four activations), so each lane holds exactly
//     the lane of a signed product; d_w·d_x times them is added to an 8-lane accumulator block by
//     block, m·s (Q4_1 / Q5_1) to a float. A 512-bit register holds two such 8-lane problems: two
//     tokens of one weight row (prefill: tiles of 4 rows × 4 token pairs, each weight block
//     unpacked once per tile); a token alone (decode) takes one 256-bit register per row.
//   K-quants (Q4_K, Q5_K, Q6_K): 64-value steps of u8 × i8 pairs (vpmaddubsw, at most 2·63·127)
//     times the 16-bit sub-block scales and summed (vpdpwssd), in integers over the super-block,
//     folded to the reference's 8 lanes; d·d_x times them added to an 8-lane accumulator; the min
//     term -dmin·d_x·Σ m·(pair sums) in 4 float lanes (Q4_K) or one float (Q5_K); Q6_K's offset
//     of 32 removed from each pair of products. Tiles of 4 rows × 4 tokens; the float steps after
//     each super-block are done for two tokens (or, the min terms, four) per register.
//   Q4_0 as the reference repacks it: quant_matmul_token_groups.cpp.
// Per (row, token) these steps are fixed and the lanes reduced in one order at the end, so the
// tile shape never changes a result. The activation rows of a call are first laid out for these
// kernels once (QuantKernel::prepare, tokens in parallel).
#include "engine/backend/cpu/x86_intrinsics.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/gguf/quant_blocks.h"

#define OCTO_Z __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx2,fma,f16c")))

namespace octo {

namespace avx512vnni_kernels {

namespace {

using namespace qblock;

constexpr int kRows = 4;            // weight rows per tile
constexpr int kTokens = 4;          // tokens per tile
constexpr int64_t kTokenBlock = 48; // tokens laid out at a time
// How far ahead decode asks for weight bytes (one token streams each row once); the distances
// measured: docs/performance.md, "Tuning constants".
constexpr int64_t kPrefetchBytes = 5440;

OCTO_Z inline float half_at(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}

// Shift counts for _mm512_srlv_epi16: `lo` for every 16-bit element of the lower 256 bits, `hi`
// for the upper ones.
OCTO_Z inline __m512i counts(long long lo, long long hi) {
    const long long l = lo * 0x0001000100010001ll, h = hi * 0x0001000100010001ll;
    return _mm512_set_epi64(h, h, h, h, l, l, l, l);
}

// --- activations in the kernels' layout -------------------------------------------------------------
// 32-value block formats, tokens in pairs (2p, 2p + 1; the second all zeros after an odd last token),
// per block b, 256 bytes:
//   q: [token 2p: 32 | token 2p+1: 32] | start: int32 [8 | 8], -offset·Σq of the four values of
//   each lane | scale: float [d × 8 | d × 8] | s (Q8_1): float [s of 2p, s of 2p+1] (+ pad)
// A token alone (decode: one token per call), compactly so that a long row's activations stay in
// the first-level cache while the weights stream past them: per block b, q: 32 | start: int32 [8]
// (64 bytes), then d: float per block, then (Q8_1) s: float per block.
// Q8_K, per 256-value super-block: q[256] | d: float[16] (all the same) | bsums: int16[16],
//   pair sums bsums[2s] + bsums[2s+1]: int16[8] (+ pad) | per step: 32·(q[2i] + q[2i+1]), int16[32]
constexpr int64_t kPairBlockBytes = 256;
constexpr int64_t kSingleBlockBytes = 64 + 4 + 4; // q and start, d, (Q8_1) s
constexpr int64_t kSuperBytes = 256 + 64 + 64 + 4 * 64;

OCTO_Z void lay_out_k_row(const uint8_t* src, int64_t n_in, uint8_t* dst) {
    const auto* b = reinterpret_cast<const ActQ8_K*>(src);
    for (int64_t sb = 0; sb < n_in / 256; ++sb) {
        uint8_t* out = dst + sb * kSuperBytes;
        std::memcpy(out, b[sb].qs, 256);
        _mm512_storeu_ps(out + 256, _mm512_set1_ps(b[sb].d));
        const __m256i bsums = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b[sb].bsums));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 320), bsums);
        const __m128i pairs = _mm_hadd_epi16(_mm256_castsi256_si128(bsums), _mm256_extracti128_si256(bsums, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 352), pairs);
        for (int k = 0; k < 4; ++k) {
            const __m512i q = _mm512_loadu_si512(b[sb].qs + 64 * k);
            _mm512_storeu_si512(out + 384 + 64 * k, _mm512_maddubs_epi16(_mm512_set1_epi8(32), q));
        }
    }
}

// Token `half` (0 or 1) of a pair; src null: zeros.
OCTO_Z void lay_out_pair_half(ActivationFormat format, int offset, const uint8_t* src, int64_t nb, uint8_t* dst, int half) {
    const bool q8_1 = format == ActivationFormat::Q8_1;
    for (int64_t k = 0; k < nb; ++k) {
        uint8_t* block = dst + k * kPairBlockBytes;
        if (!src) {
            std::memset(block + 32 * half, 0, 32);
            std::memset(block + 64 + 32 * half, 0, 32);
            std::memset(block + 128 + 32 * half, 0, 32);
            reinterpret_cast<float*>(block + 192)[half] = 0.0f;
            continue;
        }
        const int8_t* qs = q8_1 ? reinterpret_cast<const ActQ8_1*>(src)[k].qs : reinterpret_cast<const ActQ8_0*>(src)[k].qs;
        const float d = q8_1 ? reinterpret_cast<const ActQ8_1*>(src)[k].d : reinterpret_cast<const ActQ8_0*>(src)[k].d;
        const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(block + 32 * half), q);
        // each lane's four values: the lanes of a signed product
        const __m256i sums = _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_set1_epi8(static_cast<char>(offset)), q);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(block + 64 + 32 * half), _mm256_sub_epi32(_mm256_setzero_si256(), sums));
        _mm256_storeu_ps(reinterpret_cast<float*>(block + 128 + 32 * half), _mm256_set1_ps(d));
        reinterpret_cast<float*>(block + 192)[half] = q8_1 ? reinterpret_cast<const ActQ8_1*>(src)[k].s : 0.0f;
    }
}

// The single-token layout above.
OCTO_Z void lay_out_single(ActivationFormat format, int offset, const uint8_t* src, int64_t nb, uint8_t* dst) {
    const bool q8_1 = format == ActivationFormat::Q8_1;
    auto* d = reinterpret_cast<float*>(dst + nb * 64);
    auto* s = d + nb;
    for (int64_t k = 0; k < nb; ++k) {
        const int8_t* qs = q8_1 ? reinterpret_cast<const ActQ8_1*>(src)[k].qs : reinterpret_cast<const ActQ8_0*>(src)[k].qs;
        const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs));
        const __m256i sums = _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_set1_epi8(static_cast<char>(offset)), q);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 64 * k), q);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + 64 * k + 32), _mm256_sub_epi32(_mm256_setzero_si256(), sums));
        d[k] = q8_1 ? reinterpret_cast<const ActQ8_1*>(src)[k].d : reinterpret_cast<const ActQ8_0*>(src)[k].d;
        if (q8_1) s[k] = reinterpret_cast<const ActQ8_1*>(src)[k].s;
    }
}

// --- 32-value block types -------------------------------------------------------------------------
// A block as unsigned bytes (Q8_0: stored value + 128; Q4_0 / Q5_0 without their offset), its
// scale d and (Q4_1 / Q5_1) its m.
struct Block32 {
    __m256i w;
    float d;
    float m;
};

OCTO_Z inline __m256i nibbles32(const uint8_t* qs) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qs));
    const __m128i mask = _mm_set1_epi8(15);
    return _mm256_set_m128i(_mm_and_si128(_mm_srli_epi16(v, 4), mask), _mm_and_si128(v, mask));
}

struct Q8_0 {
    static constexpr int kBytes = kQ8_0Bytes, kOffset = 128;
    static constexpr ActivationFormat kFormat = ActivationFormat::Q8_0;
    OCTO_Z static Block32 load(const uint8_t* b) {
        const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 2));
        return {_mm256_xor_si256(q, _mm256_set1_epi8(static_cast<char>(0x80))), half_at(b), 0.0f};
    }
    // The block's unsigned bytes twice, [block | block], for a token pair.
    OCTO_Z static __m512i load_twice(const uint8_t* b) {
        const __m512i q = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 2)));
        return _mm512_xor_si512(q, _mm512_set1_epi8(static_cast<char>(0x80)));
    }
};

template <bool kFifthBit, bool kMin>
struct Q45 {
    static constexpr int kBytes = kFifthBit ? (kMin ? kQ5_1Bytes : kQ5_0Bytes) : (kMin ? kQ4_1Bytes : kQ4_0Bytes);
    static constexpr int kOffset = kMin ? 0 : (kFifthBit ? 16 : 8);
    static constexpr ActivationFormat kFormat = kMin ? ActivationFormat::Q8_1 : ActivationFormat::Q8_0;
    static constexpr int kQs = (kMin ? 4 : 2) + (kFifthBit ? 4 : 0); // offset of qs in the block
    OCTO_Z static Block32 load(const uint8_t* b) {
        __m256i w = nibbles32(b + kQs);
        if constexpr (kFifthBit) {
            uint32_t qh;
            std::memcpy(&qh, b + (kMin ? 4 : 2), 4);
            w = _mm256_or_si256(w, _mm256_maskz_mov_epi8(qh, _mm256_set1_epi8(16)));
        }
        return {w, half_at(b), kMin ? half_at(b + 2) : 0.0f};
    }
    // [block | block] for a token pair: the 16 packed bytes in all four 128-bit lanes, shifted by
    // 0 / 4 / 0 / 4 bits (values 0..15, 16..31, 0..15, 16..31).
    OCTO_Z static __m512i load_twice(const uint8_t* b) {
        const __m512i packed = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + kQs)));
        const __m512i shifts = _mm512_set_epi64(0x0004000400040004ll, 0x0004000400040004ll, 0, 0,
                                                0x0004000400040004ll, 0x0004000400040004ll, 0, 0);
        __m512i w = _mm512_and_si512(_mm512_srlv_epi16(packed, shifts), _mm512_set1_epi8(15));
        if constexpr (kFifthBit) {
            uint32_t qh;
            std::memcpy(&qh, b + (kMin ? 4 : 2), 4);
            const __mmask64 bits = static_cast<__mmask64>(qh) | (static_cast<__mmask64>(qh) << 32);
            w = _mm512_or_si512(w, _mm512_maskz_mov_epi8(bits, _mm512_set1_epi8(16)));
        }
        return w;
    }
};

OCTO_Z inline float hsum8(__m256 a) { // the reference's order
    __m128 v = _mm_add_ps(_mm256_extractf128_ps(a, 1), _mm256_castps256_ps128(a));
    v = _mm_add_ps(v, _mm_movehl_ps(v, v));
    v = _mm_add_ss(v, _mm_movehdup_ps(v));
    return _mm_cvtss_f32(v);
}

// R weight rows × NP token pairs. Each (row, token) is one 8-lane half of a 16-lane register:
// per block, d_w·d_x times the 8 lanes of four-product sums added in order, as the reference's
// dot products do; m·s (Q4_1 / Q5_1) added to a separate float.
template <class P, int R, int NP>
OCTO_Z void tile32_tokens(const uint8_t* const (&rows)[R], const uint8_t* const (&pairs)[NP], int64_t nb, float* y,
                          int64_t y_stride) {
    constexpr bool kMin = P::kFormat == ActivationFormat::Q8_1;
    __m512 acc[R][NP];
    float extra[R][2 * NP];
    for (int r = 0; r < R; ++r) {
        for (int p = 0; p < NP; ++p) acc[r][p] = _mm512_setzero_ps();
        for (int t = 0; t < 2 * NP; ++t) extra[r][t] = 0.0f;
    }
    for (int64_t b = 0; b < nb; ++b) {
        __m512i w[R];
        __m512 ws[R];
        float m[R];
        for (int r = 0; r < R; ++r) {
            const uint8_t* block = rows[r] + b * P::kBytes;
            w[r] = P::load_twice(block);
            ws[r] = _mm512_set1_ps(half_at(block));
            m[r] = kMin ? half_at(block + 2) : 0.0f;
        }
        for (int p = 0; p < NP; ++p) {
            const uint8_t* block = pairs[p] + b * kPairBlockBytes;
            const __m512i q = _mm512_loadu_si512(block);
            const __m512i start = _mm512_loadu_si512(block + 64);
            const __m512 xs = _mm512_loadu_ps(block + 128);
            for (int r = 0; r < R; ++r) {
                const __m512i dot = _mm512_dpbusd_epi32(start, w[r], q);
                acc[r][p] = _mm512_fmadd_ps(_mm512_mul_ps(ws[r], xs), _mm512_cvtepi32_ps(dot), acc[r][p]);
                if constexpr (kMin) {
                    const float* s = reinterpret_cast<const float*>(block + 192);
                    extra[r][2 * p] = std::fma(m[r], s[0], extra[r][2 * p]); // fused, as the reference's build
                    extra[r][2 * p + 1] = std::fma(m[r], s[1], extra[r][2 * p + 1]);
                }
            }
        }
    }
    for (int r = 0; r < R; ++r) {
        for (int p = 0; p < NP; ++p) {
            y[(2 * p) * y_stride + r] = hsum8(_mm512_castps512_ps256(acc[r][p])) + extra[r][2 * p];
            y[(2 * p + 1) * y_stride + r] = hsum8(_mm512_extractf32x8_ps(acc[r][p], 1)) + extra[r][2 * p + 1];
        }
    }
}

// Where one token's activations of block b lie: the first token of a laid-out pair (the odd last
// token of a prompt), or the single-token layout (decode). d(b) points at its scale.
struct PairFirstToken {
    const uint8_t* act;
    int64_t nb;
    const uint8_t* q(int64_t b) const { return act + b * kPairBlockBytes; }
    const uint8_t* start(int64_t b) const { return act + b * kPairBlockBytes + 64; }
    const float* d(int64_t b) const { return reinterpret_cast<const float*>(act + b * kPairBlockBytes + 128); }
    const float* s(int64_t b) const { return reinterpret_cast<const float*>(act + b * kPairBlockBytes + 192); }
};
struct SingleToken {
    const uint8_t* act;
    int64_t nb;
    const uint8_t* q(int64_t b) const { return act + 64 * b; }
    const uint8_t* start(int64_t b) const { return act + 64 * b + 32; }
    const float* d(int64_t b) const { return reinterpret_cast<const float*>(act + nb * 64) + b; }
    const float* s(int64_t b) const { return reinterpret_cast<const float*>(act + nb * 64) + nb + b; }
};

// One token × one weight row: the same steps in 8 lanes (decode: one row streamed at a time
// reads memory fastest).
template <class P, class Token>
OCTO_Z void tile32_row(const uint8_t* row, const Token& x, float* y) {
    constexpr bool kMin = P::kFormat == ActivationFormat::Q8_1;
    __m256 acc = _mm256_setzero_ps();
    float extra = 0.0f;
    for (int64_t b = 0; b < x.nb; ++b) {
        _mm_prefetch(reinterpret_cast<const char*>(row + (b + kPrefetchBytes / P::kBytes) * P::kBytes), _MM_HINT_T0);
        const Block32 blk = P::load(row + b * P::kBytes);
        const __m256i dot = _mm256_dpbusd_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.start(b))), blk.w,
                                                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.q(b))));
        const __m256 d = _mm256_mul_ps(_mm256_set1_ps(blk.d), _mm256_broadcast_ss(x.d(b)));
        acc = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(dot), acc);
        if constexpr (kMin) extra = std::fma(blk.m, *x.s(b), extra);
    }
    *y = hsum8(acc) + extra;
}

constexpr int kPairRows = 4;  // weight rows per token-pair tile
constexpr int kPairs = 4;     // token pairs per tile (docs/performance.md, "Tuning constants")

template <class P, int R, int NP>
OCTO_Z void run_tokens_tile(const WeightMatrix& w, const uint8_t* laid, int64_t pair_bytes, int64_t r, int64_t p0, float* y) {
    const uint8_t* rows[R];
    for (int i = 0; i < R; ++i) rows[i] = w.data + static_cast<uint64_t>(r + i) * w.row_bytes;
    const uint8_t* pairs[NP];
    for (int i = 0; i < NP; ++i) pairs[i] = laid + (p0 + i) * pair_bytes;
    tile32_tokens<P, R, NP>(rows, pairs, w.n_in / 32, y + r, w.n_out);
}

template <class P, int NP>
OCTO_Z void run_tokens_rows(const WeightMatrix& w, const uint8_t* laid, int64_t pair_bytes, int64_t row_begin,
                            int64_t row_end, int64_t p0, float* y) {
    int64_t r = row_begin;
    for (; r + kPairRows <= row_end; r += kPairRows) run_tokens_tile<P, kPairRows, NP>(w, laid, pair_bytes, r, p0, y);
    switch (row_end - r) {
    case 3: run_tokens_tile<P, 3, NP>(w, laid, pair_bytes, r, p0, y); break;
    case 2: run_tokens_tile<P, 2, NP>(w, laid, pair_bytes, r, p0, y); break;
    case 1: run_tokens_tile<P, 1, NP>(w, laid, pair_bytes, r, p0, y); break;
    default: break;
    }
}

// One token over rows [row_begin, row_end).
template <class P, class Token>
OCTO_Z void run_single_token(const WeightMatrix& w, const Token& x, int64_t row_begin, int64_t row_end, float* y) {
    for (int64_t r = row_begin; r < row_end; ++r) tile32_row<P>(w.data + static_cast<uint64_t>(r) * w.row_bytes, x, y + r);
}

constexpr int64_t kPairBlock = 24; // token pairs whose activations stay in cache while rows are walked

int64_t prepared_bytes32(int64_t n_in, int64_t n_tokens) {
    if (n_tokens == 1) return (n_in / 32) * kSingleBlockBytes;
    return (n_tokens + 1) / 2 * (n_in / 32) * kPairBlockBytes;
}

template <class P>
OCTO_Z void prepare32(const QuantMatmulArgs& a, int64_t t, uint8_t* prepared) {
    const int64_t nb = a.w->n_in / 32;
    if (a.n_tokens == 1) {
        lay_out_single(P::kFormat, P::kOffset, a.xq, nb, prepared);
        return;
    }
    uint8_t* pair = prepared + (t / 2) * nb * kPairBlockBytes;
    lay_out_pair_half(P::kFormat, P::kOffset, a.xq + t * a.xq_row_bytes, nb, pair, static_cast<int>(t % 2));
    if (t % 2 == 0 && t + 1 == a.n_tokens) lay_out_pair_half(P::kFormat, P::kOffset, nullptr, nb, pair, 1);
}

template <class P>
OCTO_Z void rows_kernel32(const QuantMatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    if (a.n_tokens == 1) {
        run_single_token<P>(w, SingleToken{a.prepared, w.n_in / 32}, row_begin, row_end, a.y);
        return;
    }
    const int64_t pair_bytes = w.n_in / 32 * kPairBlockBytes;
    const int64_t n_full = a.n_tokens / 2;
    for (int64_t p0 = 0; p0 < n_full; p0 += kPairBlock) {
        const int64_t p1 = std::min(n_full, p0 + kPairBlock);
        int64_t p = p0;
        for (; p + kPairs <= p1; p += kPairs) {
            run_tokens_rows<P, kPairs>(w, a.prepared, pair_bytes, row_begin, row_end, p, a.y + 2 * p * w.n_out);
        }
        for (; p < p1; ++p) run_tokens_rows<P, 1>(w, a.prepared, pair_bytes, row_begin, row_end, p, a.y + 2 * p * w.n_out);
    }
    if (a.n_tokens % 2) {
        run_single_token<P>(w, PairFirstToken{a.prepared + n_full * pair_bytes, w.n_in / 32}, row_begin, row_end,
                            a.y + (a.n_tokens - 1) * w.n_out);
    }
}

// --- K-quants: step k covers values 64k .. 64k + 63 of a super-block ---------------------------

// Per super-block of a row: the 16-bit scale of each pair of products per step, and (Q4_K / Q5_K)
// the mins, each twice (one per 16-value block sum).
struct SuperScales {
    __m512i sc16; // int16 elements 0..15: the super-block's scales (Q4_K/Q5_K: 8, Q6_K: 16)
    __m128i mins; // int16: m[0..7]
    float d = 0.0f, dmin = 0.0f;
};

template <bool kFifthBit>
struct Q45_K {
    static constexpr int kBytes = kFifthBit ? kQ5_KBytes : kQ4_KBytes;
    static constexpr bool kMins = true;
    static constexpr bool kLaneMins = !kFifthBit; // the reference keeps Q4_K's min term in 4 float lanes
    // The 6-bit fields unpacked four at a time as in qblock::unpack_k_scale_min.
    OCTO_Z static SuperScales scales(const uint8_t* block) {
        uint32_t a, b, c;
        std::memcpy(&a, block + 4, 4);
        std::memcpy(&b, block + 8, 4);
        std::memcpy(&c, block + 12, 4);
        const uint64_t sc = (a & 0x3f3f3f3fu) | static_cast<uint64_t>((c & 0x0f0f0f0fu) | ((a >> 2) & 0x30303030u)) << 32;
        const uint64_t mn = (b & 0x3f3f3f3fu) | static_cast<uint64_t>(((c >> 4) & 0x0f0f0f0fu) | ((b >> 2) & 0x30303030u)) << 32;
        SuperScales out;
        out.sc16 = _mm512_zextsi256_si512(_mm256_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(sc))));
        out.mins = _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(mn)));
        out.d = half_at(block);
        out.dmin = half_at(block + 2);
        return out;
    }
    // Unsigned values of step k and the scale of each product pair (sub-blocks 2k, 2k + 1).
    OCTO_Z static void load(const uint8_t* block, const SuperScales& sc, int k, __m512i& w, __m512i& scale) {
        const __m256i packed = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + (kFifthBit ? 48 : 16) + 32 * k));
        w = _mm512_and_si512(_mm512_srlv_epi16(_mm512_broadcast_i64x4(packed), counts(0, 4)), _mm512_set1_epi8(15));
        if constexpr (kFifthBit) {
            const __m512i qh = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 16)));
            const __m512i bit = _mm512_and_si512(_mm512_srlv_epi16(qh, counts(2 * k, 2 * k + 1)), _mm512_set1_epi8(1));
            w = _mm512_or_si512(w, _mm512_slli_epi16(bit, 4));
        }
        const short lo = static_cast<short>(2 * k), hi = static_cast<short>(2 * k + 1);
        scale = _mm512_permutexvar_epi16(_mm512_set_epi16(hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi, hi,
                                                          lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo, lo),
                                         sc.sc16);
    }
};

struct Q6_K {
    static constexpr int kBytes = kQ6_KBytes;
    static constexpr bool kMins = false;
    static constexpr bool kLaneMins = false;
    OCTO_Z static SuperScales scales(const uint8_t* block) {
        SuperScales out;
        out.sc16 = _mm512_zextsi256_si512(
            _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 192))));
        out.d = half_at(block + 208);
        return out;
    }
    // Unsigned 6-bit values of step k and the scale of each product pair (16-value groups 4k..4k+3).
    OCTO_Z static void load(const uint8_t* block, const SuperScales& sc, int k, __m512i& w, __m512i& scale) {
        const int h = k / 2; // half of the super-block
        const __m512i ql = _mm512_loadu_si512(block + 64 * h);
        const __m512i qh = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 128 + 32 * h)));
        const int nib = 4 * (k % 2); // low nibbles for even steps, high for odd
        const __m512i low = _mm512_and_si512(_mm512_srlv_epi16(ql, counts(nib, nib)), _mm512_set1_epi8(15));
        // qh bits 0-1 / 2-3 (even steps) or 4-5 / 6-7 (odd) of the two 32-value groups
        const __m512i high = _mm512_and_si512(_mm512_srlv_epi16(qh, counts(nib, nib + 2)), _mm512_set1_epi8(3));
        w = _mm512_or_si512(low, _mm512_slli_epi16(high, 4));
        const short g = static_cast<short>(4 * k);
        const short g1 = static_cast<short>(g + 1), g2 = static_cast<short>(g + 2), g3 = static_cast<short>(g + 3);
        scale = _mm512_permutexvar_epi16(_mm512_set_epi16(g3, g3, g3, g3, g3, g3, g3, g3, g2, g2, g2, g2, g2, g2, g2, g2,
                                                          g1, g1, g1, g1, g1, g1, g1, g1, g, g, g, g, g, g, g, g),
                                         sc.sc16);
    }
};

// Per (row, token) as the reference's K-quant dot products: the integer sums of a super-block in
// 8 lanes (four products each, over the eight 32-value groups), d·d_x times them added to one
// 8-lane accumulator; the min term -dmin·d_x·Σ m·(pair sums) kept in 4 float lanes (Q4_K) or one
// float (Q5_K); Q6_K's offset of 32 removed from each pair of products.
// The steps after each super-block are done for two tokens (the 8-lane sums and accumulators) or
// four (the min terms) in one 512-bit register; each lane's float steps are those of its own
// (row, token), so the numbers are those of one (row, token) at a time.
template <class P, int R, int T>
OCTO_Z void tile_k(const uint8_t* const (&rows)[R], const uint8_t* const (&act)[T], int64_t nb, float* y,
                   int64_t y_stride) {
    constexpr int NP = (T + 1) / 2; // token pairs (the second of the last one absent when T is odd)
    __m512 acc[R][NP];   // [token 2j: 8 lanes | token 2j + 1: 8 lanes]
    __m512 mins[R];      // [token t: 4 lanes] for t = 0..3 (Q4_K: the reference's 4 lanes; Q5_K: lane 0)
    for (int r = 0; r < R; ++r) {
        for (int j = 0; j < NP; ++j) acc[r][j] = _mm512_setzero_ps();
        mins[r] = _mm512_setzero_ps();
    }
    for (int64_t sb = 0; sb < nb; ++sb) {
        if constexpr (R == 1 && T == 1) { // decode streams the row: ask for the data ~5 KiB ahead
            const char* ahead = reinterpret_cast<const char*>(rows[0] + (sb + kPrefetchBytes / P::kBytes) * P::kBytes);
            for (int line = 0; line < P::kBytes; line += 64) _mm_prefetch(ahead + line, _MM_HINT_T0);
        }
        SuperScales sc[R];
        for (int r = 0; r < R; ++r) sc[r] = P::scales(rows[r] + sb * P::kBytes);
        __m512i sums[R][T];
        for (int r = 0; r < R; ++r) {
            for (int t = 0; t < T; ++t) sums[r][t] = _mm512_setzero_si512();
        }
        for (int k = 0; k < 4; ++k) {
            __m512i w[R], scale[R];
            for (int r = 0; r < R; ++r) P::load(rows[r] + sb * P::kBytes, sc[r], k, w[r], scale[r]);
            for (int t = 0; t < T; ++t) {
                const uint8_t* block = act[t] + sb * kSuperBytes;
                const __m512i q = _mm512_loadu_si512(block + 64 * k);
                for (int r = 0; r < R; ++r) {
                    __m512i pairs = _mm512_maddubs_epi16(w[r], q); // |pair| <= 2·63·127
                    if constexpr (!P::kMins) pairs = _mm512_sub_epi16(pairs, _mm512_loadu_si512(block + 384 + 64 * k));
                    sums[r][t] = _mm512_dpwssd_epi32(sums[r][t], pairs, scale[r]); // exact: no sum nears 2^31
                }
            }
        }
        // d_x of each token pair, [d_x(2j) × 8 | d_x(2j + 1) × 8] (0 for an absent token)
        __m512 dx_pair[NP];
        for (int j = 0; j < NP; ++j) {
            const __m256 lo = _mm256_loadu_ps(reinterpret_cast<const float*>(act[2 * j] + sb * kSuperBytes + 256));
            const __m256 hi = 2 * j + 1 < T
                                  ? _mm256_loadu_ps(reinterpret_cast<const float*>(act[2 * j + 1 < T ? 2 * j + 1 : 0] + sb * kSuperBytes + 256))
                                  : _mm256_setzero_ps();
            dx_pair[j] = _mm512_insertf32x8(_mm512_castps256_ps512(lo), hi, 1);
        }
        for (int r = 0; r < R; ++r) {
            const __m512 d = _mm512_set1_ps(sc[r].d);
            for (int j = 0; j < NP; ++j) {
                const __m512i a = sums[r][2 * j];
                const __m512i b = 2 * j + 1 < T ? sums[r][2 * j + 1 < T ? 2 * j + 1 : 0] : _mm512_setzero_si512();
                // [a's 8 lanes folded | b's]: the low 256 bits of each plus its high 256 bits
                const __m512i folded = _mm512_add_epi32(_mm512_shuffle_i64x2(a, b, 0x44), _mm512_shuffle_i64x2(a, b, 0xee));
                acc[r][j] = _mm512_fmadd_ps(_mm512_mul_ps(dx_pair[j], d), _mm512_cvtepi32_ps(folded), acc[r][j]);
            }
        }
        if constexpr (P::kMins) {
            // per token: its d_x × 4 and its 8 pair sums bsums[2s] + bsums[2s + 1], 128 bits each
            __m512 dx4 = _mm512_setzero_ps();
            __m512i pair_sums = _mm512_setzero_si512();
            for (int t = 0; t < T && t < 4; ++t) {
                const uint8_t* block = act[t] + sb * kSuperBytes;
                dx4 = _mm512_mask_broadcastss_ps(dx4, static_cast<__mmask16>(0xf << (4 * t)),
                                                 _mm_load_ss(reinterpret_cast<const float*>(block + 256)));
                pair_sums = _mm512_mask_broadcast_i32x4(pair_sums, static_cast<__mmask16>(0xf << (4 * t)),
                                                        _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 352)));
            }
            for (int r = 0; r < R; ++r) {
                __m512i prod = _mm512_madd_epi16(_mm512_broadcast_i32x4(sc[r].mins), pair_sums); // 4 int32 a token
                if constexpr (!P::kLaneMins) { // one integer sum a token, in its lane 0
                    prod = _mm512_add_epi32(prod, _mm512_shuffle_epi32(prod, _MM_PERM_BADC));
                    prod = _mm512_add_epi32(prod, _mm512_shuffle_epi32(prod, _MM_PERM_CDAB));
                }
                // -d_x·dmin, as the reference's float dmin = -d_x * dmin
                const __m512 dmin = _mm512_mul_ps(dx4, _mm512_set1_ps(-sc[r].dmin));
                mins[r] = _mm512_fmadd_ps(dmin, _mm512_cvtepi32_ps(prod), mins[r]);
            }
        }
    }
    static_assert(!P::kMins || T <= 4, "four tokens' min terms a register");
    for (int r = 0; r < R; ++r) {
        alignas(64) float m[16];
        _mm512_store_ps(m, mins[r]);
        for (int t = 0; t < T; ++t) {
            const __m512 pair = acc[r][t / 2];
            const __m256 a = t % 2 ? _mm512_extractf32x8_ps(pair, 1) : _mm512_castps512_ps256(pair);
            __m128 v = _mm_add_ps(_mm256_extractf128_ps(a, 1), _mm256_castps256_ps128(a));
            v = _mm_add_ps(v, _mm_movehl_ps(v, v));
            v = _mm_add_ss(v, _mm_movehdup_ps(v));
            float min_term = 0.0f;
            if constexpr (P::kLaneMins) {
                const float* l = m + 4 * t;
                min_term = (l[0] + l[2]) + (l[1] + l[3]);
            } else if constexpr (P::kMins) {
                min_term = m[4 * t];
            }
            y[t * y_stride + r] = _mm_cvtss_f32(v) + min_term;
        }
    }
}

// --- K-quant rows × tokens -------------------------------------------------------------------------

// Rows [r, r + R) × tokens [t, t + T) of the laid-out activations.
template <class P, int R, int T>
OCTO_Z void run_k_tile(const WeightMatrix& w, const uint8_t* laid, int64_t laid_bytes, int64_t r, int64_t t_local,
                       float* y_tile) {
    const uint8_t* rows[R];
    for (int i = 0; i < R; ++i) rows[i] = w.data + static_cast<uint64_t>(r + i) * w.row_bytes;
    const uint8_t* act[T];
    for (int i = 0; i < T; ++i) act[i] = laid + (t_local + i) * laid_bytes;
    tile_k<P, R, T>(rows, act, w.n_in / 256, y_tile, w.n_out);
}

template <class P, int T>
OCTO_Z void run_k_rows(const WeightMatrix& w, const uint8_t* laid, int64_t laid_bytes, int64_t row_begin, int64_t row_end,
                       int64_t t_local, float* y) {
    int64_t r = row_begin;
    if constexpr (T == 1) { // decode: one weight row streamed at a time reads memory fastest
        for (; r < row_end; ++r) run_k_tile<P, 1, T>(w, laid, laid_bytes, r, t_local, y + r);
        return;
    }
    for (; r + kRows <= row_end; r += kRows) run_k_tile<P, kRows, T>(w, laid, laid_bytes, r, t_local, y + r);
    switch (row_end - r) {
    case 3: run_k_tile<P, 3, T>(w, laid, laid_bytes, r, t_local, y + r); break;
    case 2: run_k_tile<P, 2, T>(w, laid, laid_bytes, r, t_local, y + r); break;
    case 1: run_k_tile<P, 1, T>(w, laid, laid_bytes, r, t_local, y + r); break;
    default: break;
    }
}

int64_t prepared_bytes_k(int64_t n_in, int64_t n_tokens) { return n_tokens * (n_in / 256) * kSuperBytes; }

OCTO_Z void prepare_k(const QuantMatmulArgs& a, int64_t t, uint8_t* prepared) {
    const int64_t n_in = a.w->n_in;
    lay_out_k_row(a.xq + t * a.xq_row_bytes, n_in, prepared + t * (n_in / 256) * kSuperBytes);
}

template <class P>
OCTO_Z void rows_kernel_k(const QuantMatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    const int64_t laid_bytes = w.n_in / 256 * kSuperBytes;
    for (int64_t t0 = 0; t0 < a.n_tokens; t0 += kTokenBlock) {
        const int64_t n = std::min(kTokenBlock, a.n_tokens - t0);
        const uint8_t* laid = a.prepared + t0 * laid_bytes;
        int64_t t = 0;
        for (; t + kTokens <= n; t += kTokens) {
            run_k_rows<P, kTokens>(w, laid, laid_bytes, row_begin, row_end, t, a.y + (t0 + t) * w.n_out);
        }
        switch (n - t) {
        case 3: run_k_rows<P, 3>(w, laid, laid_bytes, row_begin, row_end, t, a.y + (t0 + t) * w.n_out); break;
        case 2: run_k_rows<P, 2>(w, laid, laid_bytes, row_begin, row_end, t, a.y + (t0 + t) * w.n_out); break;
        case 1: run_k_rows<P, 1>(w, laid, laid_bytes, row_begin, row_end, t, a.y + (t0 + t) * w.n_out); break;
        default: break;
        }
    }
}

template <class P>
QuantKernel kernel32() { return {rows_kernel32<P>, prepared_bytes32, prepare32<P>}; }

template <class P>
QuantKernel kernel_k() { return {rows_kernel_k<P>, prepared_bytes_k, prepare_k}; }

} // namespace

} // namespace avx512vnni_kernels

QuantKernel avx512vnni_quant_matmul_kernel(TensorType type) {
    using namespace avx512vnni_kernels;
    switch (type) {
    case TensorType::Q8_0: return kernel32<Q8_0>();
    case TensorType::Q4_0: return kernel32<Q45<false, false>>();
    case TensorType::Q5_0: return kernel32<Q45<true, false>>();
    case TensorType::Q4_1: return kernel32<Q45<false, true>>();
    case TensorType::Q5_1: return kernel32<Q45<true, true>>();
    case TensorType::Q4_K: return kernel_k<Q45_K<false>>();
    case TensorType::Q5_K: return kernel_k<Q45_K<true>>();
    case TensorType::Q6_K: return kernel_k<Q6_K>();
    case TensorType::MXFP4: return avx512vnni_mxfp4_kernel();
    default: return {};
    }
}

} // namespace octo
