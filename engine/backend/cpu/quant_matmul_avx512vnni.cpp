// Integer kernels with AVX-512 VNNI: 512-bit dot products (vpdpbusd) over steps of 64 values, in
// register tiles of up to 4 weight rows × 3 tokens, so that each weight step is unpacked once per
// tile and each activation step loaded once per tile row.
//
// vpdpbusd multiplies unsigned by signed bytes. The activations are taken as u = q + 128 (0..255)
// and every weight unpacked to a signed value w (Q8_0 as stored, Q4_0 q - 8, Q5_0 q - 16, Q4_1 /
// Q5_1 / Q4_K / Q5_K q, Q6_K q - 32), so  Σ u·w = Σ q·w + 128·Σ w : the dot product starts from
// -128·Σ w (computed once per weight step) and gives Σ q·w exactly.
//
// Per (row, token) the float steps are fixed — for every 64-value step, the sixteen 4-value
// integer sums times (weight scale × activation scale) of their lane, added to one 16-lane
// accumulator, plus the min terms (Q4_1 / Q5_1: m·s per block; Q4_K / Q5_K: dmin·m·(d·Σq) per
// sub-block) — and the lanes are reduced in one order at the end. The tile shape never changes a
// result. The activation rows of a call are first laid out for these kernels (u, lane scales, min
// factors) in a per-thread buffer: a small cost next to the product.
// GCC 12's AVX-512 intrinsics read a deliberately undefined register (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif

#include <algorithm>
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

constexpr int kRows = 4;   // weight rows per tile
constexpr int kTokens = 3; // tokens per tile
constexpr int64_t kTokenBlock = 48; // tokens laid out at a time

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

// Eight bytes -> eight floats in lanes 0..7 (the others 0).
OCTO_Z inline __m512 widen8(uint64_t bytes) {
    return _mm512_zextps256_ps512(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(bytes)))));
}

// [a × 8 lanes, b × 8 lanes]
OCTO_Z inline __m512 halves(float a, float b) {
    return _mm512_insertf32x8(_mm512_set1_ps(a), _mm256_set1_ps(b), 1);
}

OCTO_Z inline __m512i load256x2(const uint8_t* lo, const uint8_t* hi) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(lo))),
                              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hi)), 1);
}

// 16 bytes of nibbles of two blocks -> 64 values: [lo(a), hi(a), lo(b), hi(b)].
OCTO_Z inline __m512i nibbles64(const uint8_t* a, const uint8_t* b) {
    const __m128i va = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a));
    const __m128i vb = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b));
    const __m256i aa = _mm256_set_m128i(va, va);
    const __m256i bb = _mm256_set_m128i(vb, vb);
    const __m512i v = _mm512_inserti64x4(_mm512_castsi256_si512(aa), bb, 1);
    constexpr long long k4 = 4 * 0x0001000100010001ll; // 128-bit lanes: a, a >> 4, b, b >> 4
    const __m512i shifted = _mm512_srlv_epi16(v, _mm512_set_epi64(k4, k4, 0, 0, k4, k4, 0, 0));
    return _mm512_and_si512(shifted, _mm512_set1_epi8(15));
}

// One 64-value step of a weight row: signed values, the scale of each 4-value lane, and the start
// of the dot product (-128·Σ w per lane).
struct WeightStep {
    __m512i w;
    __m512 scale;
    __m512i start;
    __m512 min; // Q4_1 / Q5_1: m of each block's lanes; K-quants: dmin·m of each sub-block (lanes 0..7)
};

OCTO_Z inline __m512i start_of(__m512i w) {
    return _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_dpbusd_epi32(_mm512_setzero_si512(), _mm512_set1_epi8(static_cast<char>(0x80)), w));
}

// --- 32-value block types: step k covers blocks 2k and 2k + 1 (the second absent in a tail) ----

struct Q8_0 {
    static constexpr int kBlock = 32, kBytes = kQ8_0Bytes;
    static constexpr ActivationFormat kFormat = ActivationFormat::Q8_0;
    OCTO_Z static void load(const uint8_t* a, const uint8_t* b, WeightStep& s) {
        static const uint8_t zero[32] = {};
        s.w = load256x2(a + 2, b ? b + 2 : zero);
        s.scale = halves(half_at(a), b ? half_at(b) : 0.0f);
    }
};

template <bool kFifthBit, bool kMin>
struct Q45 {
    static constexpr int kBlock = 32;
    static constexpr int kBytes = kFifthBit ? (kMin ? kQ5_1Bytes : kQ5_0Bytes) : (kMin ? kQ4_1Bytes : kQ4_0Bytes);
    static constexpr ActivationFormat kFormat = kMin ? ActivationFormat::Q8_1 : ActivationFormat::Q8_0;
    static constexpr int kQs = (kMin ? 4 : 2) + (kFifthBit ? 4 : 0); // offset of qs in the block
    OCTO_Z static void load(const uint8_t* a, const uint8_t* b, WeightStep& s) {
        static const uint8_t zero[kBytes] = {};
        const uint8_t* bb = b ? b : zero;
        __m512i w = nibbles64(a + kQs, bb + kQs);
        if constexpr (kFifthBit) {
            uint32_t qa, qb;
            std::memcpy(&qa, a + (kMin ? 4 : 2), 4);
            std::memcpy(&qb, bb + (kMin ? 4 : 2), 4);
            const __mmask64 bits = static_cast<__mmask64>(qa) | (static_cast<__mmask64>(qb) << 32);
            w = _mm512_or_si512(w, _mm512_and_si512(_mm512_movm_epi8(bits), _mm512_set1_epi8(16)));
        }
        if constexpr (!kMin) w = _mm512_sub_epi8(w, _mm512_set1_epi8(kFifthBit ? 16 : 8));
        if (!b) w = _mm512_maskz_mov_epi8(0xffffffffull, w); // a tail block: nothing in the upper half
        s.w = w;
        s.scale = halves(half_at(a), b ? half_at(b) : 0.0f);
        if constexpr (kMin) s.min = halves(half_at(a + 2), b ? half_at(b + 2) : 0.0f);
    }
};

// --- K-quants: step k covers values 64k .. 64k + 63 of a super-block ---------------------------

template <bool kFifthBit>
struct Q45_K {
    static constexpr int kBlock = 256, kBytes = kFifthBit ? kQ5_KBytes : kQ4_KBytes;
    static constexpr ActivationFormat kFormat = ActivationFormat::Q8_K;
    // The sub-block scales d·sc[s] and mins dmin·m[s] (lanes 0..7) of a super-block; the 6-bit
    // fields unpacked four at a time as in qblock::unpack_k_scale_min.
    struct Scales { __m512 sc; __m512 min; };
    OCTO_Z static Scales scales(const uint8_t* block) {
        uint32_t a, b, c;
        std::memcpy(&a, block + 4, 4);
        std::memcpy(&b, block + 8, 4);
        std::memcpy(&c, block + 12, 4);
        const uint64_t sc = (a & 0x3f3f3f3fu) | static_cast<uint64_t>((c & 0x0f0f0f0fu) | ((a >> 2) & 0x30303030u)) << 32;
        const uint64_t mn = (b & 0x3f3f3f3fu) | static_cast<uint64_t>(((c >> 4) & 0x0f0f0f0fu) | ((b >> 2) & 0x30303030u)) << 32;
        Scales out;
        out.sc = _mm512_mul_ps(_mm512_set1_ps(half_at(block)), widen8(sc));
        out.min = _mm512_maskz_mul_ps(0x00ff, _mm512_set1_ps(half_at(block + 2)), widen8(mn));
        return out;
    }
    OCTO_Z static void load(const uint8_t* block, const Scales& sc, int k, WeightStep& s) {
        const __m256i packed = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + (kFifthBit ? 48 : 16) + 32 * k));
        const __m512i both = _mm512_broadcast_i64x4(packed);
        __m512i w = _mm512_and_si512(_mm512_srlv_epi16(both, counts(0, 4)), _mm512_set1_epi8(15));
        if constexpr (kFifthBit) {
            const __m512i qh = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 16)));
            const __m512i bit = _mm512_and_si512(_mm512_srlv_epi16(qh, counts(2 * k, 2 * k + 1)), _mm512_set1_epi8(1));
            w = _mm512_or_si512(w, _mm512_slli_epi16(bit, 4));
        }
        s.w = w;
        const int lo = 2 * k, hi = 2 * k + 1;
        s.scale = _mm512_permutexvar_ps(_mm512_set_epi32(hi, hi, hi, hi, hi, hi, hi, hi, lo, lo, lo, lo, lo, lo, lo, lo), sc.sc);
    }
};

struct Q6_K {
    static constexpr int kBlock = 256, kBytes = kQ6_KBytes;
    static constexpr ActivationFormat kFormat = ActivationFormat::Q8_K;
    struct Scales { __m512 per_lane[4]; };
    OCTO_Z static Scales scales(const uint8_t* block) {
        Scales out;
        const __m512 d = _mm512_set1_ps(half_at(block + 208));
        const __m128i expand = _mm_setr_epi8(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
        for (int k = 0; k < 4; ++k) {
            uint32_t four;
            std::memcpy(&four, block + 192 + 4 * k, 4);
            const __m128i s = _mm_shuffle_epi8(_mm_cvtsi32_si128(static_cast<int>(four)), expand);
            out.per_lane[k] = _mm512_mul_ps(d, _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(s)));
        }
        return out;
    }
    OCTO_Z static void load(const uint8_t* block, const Scales& sc, int k, WeightStep& s) {
        const int h = k / 2; // half of the super-block
        const __m512i ql = _mm512_loadu_si512(block + 64 * h);
        const __m512i qh = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block + 128 + 32 * h)));
        const int nib = 4 * (k % 2); // low nibbles for even steps, high for odd
        const __m512i low = _mm512_and_si512(_mm512_srlv_epi16(ql, counts(nib, nib)), _mm512_set1_epi8(15));
        // qh bits 0-1 / 2-3 (even steps) or 4-5 / 6-7 (odd) of the two 32-value groups
        const __m512i high = _mm512_and_si512(_mm512_srlv_epi16(qh, counts(nib, nib + 2)), _mm512_set1_epi8(3));
        s.w = _mm512_sub_epi8(_mm512_or_si512(low, _mm512_slli_epi16(high, 4)), _mm512_set1_epi8(32));
        s.scale = sc.per_lane[k];
    }
};

// --- activations in the kernels' layout ------------------------------------------------------------
//   u[n_steps * 64]       q + 128
//   scale[n_steps * 16]   the activation scale of each lane
//   min[n_steps * 16]     Q8_1: s / 8 of each lane's block (8 lanes a block add up to m·s);
//                         Q8_K: per super-block (at its first step), d·(bsums[2s] + bsums[2s+1]) in lane s
struct ActLayout {
    int64_t n_steps = 0;
    int64_t bytes_per_row = 0;
};

ActLayout act_layout(int64_t n_in) {
    ActLayout l;
    l.n_steps = (n_in + 63) / 64;
    l.bytes_per_row = l.n_steps * (64 + 64 + 64);
    return l;
}

OCTO_Z void lay_out_row(ActivationFormat format, const uint8_t* src, int64_t n_in, uint8_t* dst, const ActLayout& l) {
    uint8_t* u = dst;
    float* scale = reinterpret_cast<float*>(dst + l.n_steps * 64);
    float* min = scale + l.n_steps * 16;
    std::memset(dst, 0, static_cast<size_t>(l.bytes_per_row));
    std::memset(u, 128, static_cast<size_t>(l.n_steps * 64));
    if (format == ActivationFormat::Q8_K) {
        const auto* b = reinterpret_cast<const ActQ8_K*>(src);
        for (int64_t sb = 0; sb < n_in / 256; ++sb) {
            for (int i = 0; i < 256; i += 64) {
                const __m512i q = _mm512_loadu_si512(b[sb].qs + i);
                _mm512_storeu_si512(u + 256 * sb + i, _mm512_xor_si512(q, _mm512_set1_epi8(static_cast<char>(0x80))));
            }
            for (int k = 0; k < 4; ++k) _mm512_storeu_ps(scale + (4 * sb + k) * 16, _mm512_set1_ps(b[sb].d));
            for (int s = 0; s < 8; ++s) {
                min[4 * sb * 16 + s] = b[sb].d * static_cast<float>(b[sb].bsums[2 * s] + b[sb].bsums[2 * s + 1]);
            }
        }
        return;
    }
    const bool q8_1 = format == ActivationFormat::Q8_1;
    const int64_t nb = n_in / 32;
    for (int64_t k = 0; k < nb; ++k) {
        const int8_t* qs = q8_1 ? reinterpret_cast<const ActQ8_1*>(src)[k].qs : reinterpret_cast<const ActQ8_0*>(src)[k].qs;
        const float d = q8_1 ? reinterpret_cast<const ActQ8_1*>(src)[k].d : reinterpret_cast<const ActQ8_0*>(src)[k].d;
        const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(qs));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(u + 32 * k), _mm256_xor_si256(q, _mm256_set1_epi8(static_cast<char>(0x80))));
        _mm256_storeu_ps(scale + 8 * k, _mm256_set1_ps(d));
        if (q8_1) _mm256_storeu_ps(min + 8 * k, _mm256_set1_ps(reinterpret_cast<const ActQ8_1*>(src)[k].s * 0.125f));
    }
}

// --- tiles ---------------------------------------------------------------------------------------

template <int R, int T>
struct Acc {
    __m512 v[R][T];
};

template <int R, int T>
OCTO_Z inline void add_step(Acc<R, T>& acc, const WeightStep (&ws)[R], const uint8_t* const (&act)[T], const ActLayout& l,
                            int64_t step, bool with_min) {
    for (int t = 0; t < T; ++t) {
        const __m512i u = _mm512_loadu_si512(act[t] + step * 64);
        const float* scale = reinterpret_cast<const float*>(act[t] + l.n_steps * 64) + step * 16;
        const __m512 xs = _mm512_loadu_ps(scale);
        for (int r = 0; r < R; ++r) {
            const __m512i dot = _mm512_dpbusd_epi32(ws[r].start, u, ws[r].w);
            acc.v[r][t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(dot), _mm512_mul_ps(ws[r].scale, xs), acc.v[r][t]);
            if (with_min) {
                const __m512 m = _mm512_loadu_ps(scale + l.n_steps * 16);
                acc.v[r][t] = _mm512_fmadd_ps(ws[r].min, m, acc.v[r][t]);
            }
        }
    }
}

template <class P, int R, int T>
OCTO_Z void tile32(const uint8_t* const (&rows)[R], const uint8_t* const (&act)[T], const ActLayout& l, int64_t nb,
                   float* y, int64_t y_stride) {
    constexpr bool kMin = P::kFormat == ActivationFormat::Q8_1;
    Acc<R, T> acc;
    for (int r = 0; r < R; ++r) {
        for (int t = 0; t < T; ++t) acc.v[r][t] = _mm512_setzero_ps();
    }
    for (int64_t k = 0; 2 * k < nb; ++k) {
        WeightStep ws[R];
        for (int r = 0; r < R; ++r) {
            const uint8_t* a = rows[r] + 2 * k * P::kBytes;
            P::load(a, 2 * k + 1 < nb ? a + P::kBytes : nullptr, ws[r]);
            ws[r].start = start_of(ws[r].w);
        }
        add_step<R, T>(acc, ws, act, l, k, kMin);
    }
    for (int r = 0; r < R; ++r) {
        for (int t = 0; t < T; ++t) y[t * y_stride + r] = _mm512_reduce_add_ps(acc.v[r][t]);
    }
}

template <class P, int R, int T>
OCTO_Z void tile_k(const uint8_t* const (&rows)[R], const uint8_t* const (&act)[T], const ActLayout& l, int64_t nb,
                   float* y, int64_t y_stride) {
    constexpr bool kMin = !std::is_same_v<P, Q6_K>;
    Acc<R, T> acc;
    for (int r = 0; r < R; ++r) {
        for (int t = 0; t < T; ++t) acc.v[r][t] = _mm512_setzero_ps();
    }
    for (int64_t sb = 0; sb < nb; ++sb) {
        typename P::Scales sc[R];
        for (int r = 0; r < R; ++r) sc[r] = P::scales(rows[r] + sb * P::kBytes);
        for (int k = 0; k < 4; ++k) {
            WeightStep ws[R];
            for (int r = 0; r < R; ++r) {
                P::load(rows[r] + sb * P::kBytes, sc[r], k, ws[r]);
                ws[r].start = start_of(ws[r].w);
            }
            add_step<R, T>(acc, ws, act, l, 4 * sb + k, false);
        }
        if constexpr (kMin) { // - Σ_s dmin·m[s] · d·(bsums of sub-block s)
            for (int t = 0; t < T; ++t) {
                const float* min = reinterpret_cast<const float*>(act[t] + l.n_steps * 64) + l.n_steps * 16 + 4 * sb * 16;
                const __m512 m = _mm512_loadu_ps(min);
                for (int r = 0; r < R; ++r) acc.v[r][t] = _mm512_fnmadd_ps(sc[r].min, m, acc.v[r][t]);
            }
        }
    }
    for (int r = 0; r < R; ++r) {
        for (int t = 0; t < T; ++t) y[t * y_stride + r] = _mm512_reduce_add_ps(acc.v[r][t]);
    }
}

template <class P, int R, int T>
OCTO_Z void tile(const uint8_t* const (&rows)[R], const uint8_t* const (&act)[T], const ActLayout& l, int64_t nb,
                 float* y, int64_t y_stride) {
    if constexpr (P::kBlock == 32) {
        tile32<P, R, T>(rows, act, l, nb, y, y_stride);
    } else {
        tile_k<P, R, T>(rows, act, l, nb, y, y_stride);
    }
}

// Rows [r, r + R) × tokens [t, t + T) of the laid-out activations.
template <class P, int R, int T>
OCTO_Z void run_tile(const WeightMatrix& w, const uint8_t* laid, const ActLayout& l, int64_t r, int64_t t_local,
                     float* y_tile) {
    const uint8_t* rows[R];
    for (int i = 0; i < R; ++i) rows[i] = w.data + static_cast<uint64_t>(r + i) * w.row_bytes;
    const uint8_t* act[T];
    for (int i = 0; i < T; ++i) act[i] = laid + (t_local + i) * l.bytes_per_row;
    tile<P, R, T>(rows, act, l, w.n_in / P::kBlock, y_tile, w.n_out);
}

template <class P, int T>
OCTO_Z void run_rows(const WeightMatrix& w, const uint8_t* laid, const ActLayout& l, int64_t row_begin, int64_t row_end,
                     int64_t t_local, float* y) {
    int64_t r = row_begin;
    if constexpr (T == 1) { // decode: one weight row streamed at a time reads memory fastest
        for (; r < row_end; ++r) run_tile<P, 1, T>(w, laid, l, r, t_local, y + r);
        return;
    }
    for (; r + kRows <= row_end; r += kRows) run_tile<P, kRows, T>(w, laid, l, r, t_local, y + r);
    switch (row_end - r) {
    case 3: run_tile<P, 3, T>(w, laid, l, r, t_local, y + r); break;
    case 2: run_tile<P, 2, T>(w, laid, l, r, t_local, y + r); break;
    case 1: run_tile<P, 1, T>(w, laid, l, r, t_local, y + r); break;
    default: break;
    }
}

template <class P>
OCTO_Z void rows_kernel(const QuantMatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    const ActLayout l = act_layout(w.n_in);
    thread_local std::vector<uint8_t> laid;
    for (int64_t t0 = 0; t0 < a.n_tokens; t0 += kTokenBlock) {
        const int64_t n = std::min(kTokenBlock, a.n_tokens - t0);
        laid.resize(static_cast<size_t>(n * l.bytes_per_row));
        for (int64_t t = 0; t < n; ++t) {
            lay_out_row(P::kFormat, a.xq + (t0 + t) * a.xq_row_bytes, w.n_in, laid.data() + t * l.bytes_per_row, l);
        }
        int64_t t = 0;
        for (; t + kTokens <= n; t += kTokens) {
            run_rows<P, kTokens>(w, laid.data(), l, row_begin, row_end, t, a.y + (t0 + t) * w.n_out);
        }
        switch (n - t) {
        case 2: run_rows<P, 2>(w, laid.data(), l, row_begin, row_end, t, a.y + (t0 + t) * w.n_out); break;
        case 1: run_rows<P, 1>(w, laid.data(), l, row_begin, row_end, t, a.y + (t0 + t) * w.n_out); break;
        default: break;
        }
    }
}

} // namespace

} // namespace avx512vnni_kernels

QuantMatmulKernel avx512vnni_quant_matmul_kernel(TensorType type) {
    using namespace avx512vnni_kernels;
    switch (type) {
    case TensorType::Q8_0: return rows_kernel<Q8_0>;
    case TensorType::Q4_0: return rows_kernel<Q45<false, false>>;
    case TensorType::Q5_0: return rows_kernel<Q45<true, false>>;
    case TensorType::Q4_1: return rows_kernel<Q45<false, true>>;
    case TensorType::Q5_1: return rows_kernel<Q45<true, true>>;
    case TensorType::Q4_K: return rows_kernel<Q45_K<false>>;
    case TensorType::Q5_K: return rows_kernel<Q45_K<true>>;
    case TensorType::Q6_K: return rows_kernel<Q6_K>;
    default: return nullptr;
    }
}

} // namespace octo
