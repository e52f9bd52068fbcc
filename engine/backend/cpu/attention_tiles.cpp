#include "engine/backend/cpu/attention_tiles.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "engine/backend/cpu/cpu_features.h"
#include "engine/core/half.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define OCTO_AT_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

namespace octo {

namespace {

constexpr int64_t kKeyBlock = 64;    // key positions every query of the tile passes while they stay in L1
constexpr int64_t kValueBlock = 256; // value positions transposed at a time (a multiple of 32)
// Tiles of fewer queries than this (one generated token: the heads of one group) score their
// keys in place with the AVX2 kernels: transposing them would cost more than it saves. (The
// wide kernels read keys in place for up to kGroupQueries queries in reference_dot's order:
// scores_in_place_wide.)
constexpr int64_t kFewQueries = 4;
// Up to this many queries summing values in the one-token order (the heads of one group) read
// the value rows in place, all queries from each row loaded once (group_values_in_place; the
// measurements: docs/performance.md, "Tuning constants").
constexpr int64_t kGroupQueries = 4;

inline int64_t lanes_of(ValueSumOrder order) { return order == ValueSumOrder::Batch ? 8 : 32; }

// Rows of one kind (keys or values) as the cache stores them: T = float, or uint16_t for F16
// (widened exactly as they are loaded, so the float steps are those of the widened rows).
template <class T>
struct Rows {
    const T* base = nullptr;
    int64_t stride = 0;
    const int32_t* cell = nullptr;
    const T* at(int64_t p) const { return base + cell[p] * stride; }
};

inline float load1(const float* p) { return *p; }
inline float load1(const uint16_t* p) { return fp16_to_fp32(*p); }

// How a query's scores are summed (reference_float.h): reference_dot's order (F32 keys, and
// F16 keys of a query evaluated alone: the same but for the values past the last whole step of
// 32, which reference_dot_f16 adds in double), or the tiled product's (F16 keys of a batched query).
enum class ScoreOrder { Dot, DotF16, Lanes };

ScoreOrder score_order(const AttentionQuery& a, bool k_half, int64_t head_dim) {
    if (!k_half) return ScoreOrder::Dot;
    return a.order == ValueSumOrder::Batch && head_dim % 8 == 0 ? ScoreOrder::Lanes : ScoreOrder::DotF16;
}

float score_one(ScoreOrder order, const float* q, const float* k, int64_t head_dim) {
    switch (order) {
    case ScoreOrder::Dot: return reference_dot(q, k, head_dim);
    case ScoreOrder::DotF16: return reference_dot_f16(q, k, head_dim);
    case ScoreOrder::Lanes: break;
    }
    return reference_lanes_dot(q, k, head_dim);
}

// An F16 key row is widened into `widened` [head_dim] first.
float score_one(ScoreOrder order, const float* q, const uint16_t* k, int64_t head_dim, float* widened) {
    for (int64_t d = 0; d < head_dim; ++d) widened[d] = fp16_to_fp32(k[d]);
    return score_one(order, q, widened, head_dim);
}
inline float score_one(ScoreOrder order, const float* q, const float* k, int64_t head_dim, float*) {
    return score_one(order, q, k, head_dim);
}

#if defined(__x86_64__)

OCTO_AT_AVX2 inline __m256 load8(const float* p) { return _mm256_loadu_ps(p); }
OCTO_AT_AVX2 inline __m256 load8(const uint16_t* p) {
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

// [lo(a) + hi(a) | lo(b) + hi(b)]: the first step of both horizontal sums, for two vectors.
OCTO_AT_AVX2 inline __m256 pair_halves(__m256 a, __m256 b) {
    return _mm256_add_ps(_mm256_permute2f128_ps(a, b, 0x20), _mm256_permute2f128_ps(a, b, 0x31));
}

// Lane j of the result: the dot product's horizontal sum of s[j] — t_l = s_l + s_(l+4), then
// (t0 + t1) + (t2 + t3) — for eight vectors at once.
OCTO_AT_AVX2 inline __m256 dot_sums8(const __m256 (&s)[8]) {
    const __m256 h1 = _mm256_hadd_ps(pair_halves(s[0], s[4]), pair_halves(s[1], s[5]));
    const __m256 h2 = _mm256_hadd_ps(pair_halves(s[2], s[6]), pair_halves(s[3], s[7]));
    return _mm256_hadd_ps(h1, h2);
}

// Lane j of the result: the tiled product's sum of the lanes of s[j] — t_l = s_l + s_(l+4), then
// (t0 + t2) + (t1 + t3) — for eight vectors at once.
OCTO_AT_AVX2 inline __m256 lane_sums8(const __m256 (&s)[8]) {
    const __m256 ab = pair_halves(s[0], s[4]), cd = pair_halves(s[1], s[5]);
    const __m256 ef = pair_halves(s[2], s[6]), gh = pair_halves(s[3], s[7]);
    const __m256 u1 = _mm256_add_ps(_mm256_shuffle_ps(ab, cd, 0x44), _mm256_shuffle_ps(ab, cd, 0xEE));
    const __m256 u2 = _mm256_add_ps(_mm256_shuffle_ps(ef, gh, 0x44), _mm256_shuffle_ps(ef, gh, 0xEE));
    return _mm256_add_ps(_mm256_shuffle_ps(u1, u2, 0x88), _mm256_shuffle_ps(u1, u2, 0xDD));
}

// Scores of positions p .. p + 7 for kQ queries: reference_dot(q_b, k_p) · scale each, into
// out[b]. Each key row is loaded (and an F16 one widened) once for every query.
template <int kQ, class T>
OCTO_AT_AVX2 inline void scores8_group(const float* const* q, const Rows<T>& keys, int64_t p, int64_t head_dim, float scale,
                                       float* const* out) {
    __m256 s[kQ][8];
    for (int j = 0; j < 8; ++j) {
        const T* k = keys.at(p + j);
        __m256 a[kQ][4];
        for (int b = 0; b < kQ; ++b) {
            for (int c = 0; c < 4; ++c) a[b][c] = _mm256_setzero_ps();
        }
        for (int64_t i = 0; i < head_dim; i += 32) {
            for (int c = 0; c < 4; ++c) {
                __m256 kv = load8(k + i + 8 * c);
                // in a register: GCC would otherwise fold the load into each query's multiply-add
                // and load (and widen) the key kQ times
                __asm__("" : "+x"(kv));
                for (int b = 0; b < kQ; ++b) a[b][c] = _mm256_fmadd_ps(_mm256_loadu_ps(q[b] + i + 8 * c), kv, a[b][c]);
            }
        }
        for (int b = 0; b < kQ; ++b) s[b][j] = _mm256_add_ps(_mm256_add_ps(a[b][0], a[b][2]), _mm256_add_ps(a[b][1], a[b][3]));
    }
    for (int b = 0; b < kQ; ++b) _mm256_storeu_ps(out[b], _mm256_mul_ps(dot_sums8(s[b]), _mm256_set1_ps(scale)));
}

// The 32 chains of one query's values [32][head_dim] folded and added into out[head_dim], one
// value at a time, as finish_values adds them.
inline void fold_chains(const float* chains, int64_t head_dim, float* out) {
    for (int64_t d = 0; d < head_dim; ++d) {
        const auto chain = [&](int c) { return chains[c * head_dim + d]; };
        float f[8];
        for (int l = 0; l < 8; ++l) f[l] = (chain(l) + chain(16 + l)) + (chain(8 + l) + chain(24 + l));
        const float t0 = f[0] + f[4], t1 = f[1] + f[5], t2 = f[2] + f[6], t3 = f[3] + f[7];
        out[d] = (t0 + t1) + (t2 + t3);
    }
}

// The values of kQueries queries of one kv head (one generated token: the heads of a group) in
// the Single order, read in place (position-major rows, no transposing): for eight values at a
// time, position j's weight times its row goes to the chain of class j % 32 — accumulator
// class / 8, lane class % 8 of single_sums — kClasses classes a pass (as many as the registers
// hold), positions in blocks that stay in L1, each chain carried from block to block in `chains`
// [kQueries][32][head_dim]; then the chains are folded and added as finish_values adds them.
// Each value row is loaded once for all the queries, so the cache is read once per group, and
// every chain takes its multiply-adds in the same order whatever kQueries is: the bits are those
// of the queries summed one by one. w[i]: query i's weights [range]; row[j]: position
// origin + j's row (a row of zeros outside the tile's positions).
template <int kQueries, int kClasses, class T>
OCTO_AT_AVX2 inline void group_values_in_place(const float* const* w, const T* const* row, int64_t range,
                                               int64_t head_dim, float* chains, float* const* out) {
    constexpr int64_t kBlock = 128;
    const int64_t whole = head_dim & ~int64_t{7};
    const int64_t stride = 32 * head_dim; // one query's chains
    for (int64_t block = 0; block < range; block += kBlock) {
        const int64_t block_end = std::min(range, block + kBlock);
        for (int64_t d = 0; d < whole; d += 8) {
            for (int c0 = 0; c0 < 32; c0 += kClasses) {
                __m256 a[kQueries][kClasses];
                for (int i = 0; i < kQueries; ++i) {
                    for (int k = 0; k < kClasses; ++k) {
                        a[i][k] = block == 0 ? _mm256_setzero_ps()
                                             : _mm256_loadu_ps(chains + i * stride + (c0 + k) * head_dim + d);
                    }
                }
                for (int64_t base = block; base < block_end; base += 32) {
                    for (int k = 0; k < kClasses; ++k) {
                        const int64_t j = base + c0 + k;
                        const __m256 v = load8(row[j] + d);
                        for (int i = 0; i < kQueries; ++i) a[i][k] = _mm256_fmadd_ps(_mm256_set1_ps(w[i][j]), v, a[i][k]);
                    }
                }
                for (int i = 0; i < kQueries; ++i) {
                    for (int k = 0; k < kClasses; ++k) _mm256_storeu_ps(chains + i * stride + (c0 + k) * head_dim + d, a[i][k]);
                }
            }
        }
        for (int64_t d = whole; d < head_dim; ++d) {
            for (int64_t j = block; j < block_end; ++j) {
                const float v = load1(row[j] + d);
                for (int i = 0; i < kQueries; ++i) {
                    float& chain = chains[i * stride + (j % 32) * head_dim + d];
                    chain = std::fma(w[i][j], v, j < 32 ? 0.0f : chain);
                }
            }
        }
    }
    for (int i = 0; i < kQueries; ++i) fold_chains(chains + i * stride, head_dim, out[i]);
}

// ... in the tiled product's order: one 8-lane accumulator a query over the head (a multiple of 8).
template <int kQ, class T>
OCTO_AT_AVX2 inline void scores8_lanes_group(const float* const* q, const Rows<T>& keys, int64_t p, int64_t head_dim,
                                             float scale, float* const* out) {
    __m256 s[kQ][8];
    for (int j = 0; j < 8; ++j) {
        const T* k = keys.at(p + j);
        __m256 a[kQ];
        for (int b = 0; b < kQ; ++b) a[b] = _mm256_setzero_ps();
        for (int64_t i = 0; i < head_dim; i += 8) {
            __m256 kv = load8(k + i);
            __asm__("" : "+x"(kv)); // once for every query (scores8_group says why)
            for (int b = 0; b < kQ; ++b) a[b] = _mm256_fmadd_ps(_mm256_loadu_ps(q[b] + i), kv, a[b]);
        }
        for (int b = 0; b < kQ; ++b) s[b][j] = a[b];
    }
    for (int b = 0; b < kQ; ++b) _mm256_storeu_ps(out[b], _mm256_mul_ps(lane_sums8(s[b]), _mm256_set1_ps(scale)));
}

// Eight rows of eight floats, r[j] + d0, as eight columns: x[d][j] = r[j][d0 + d].
template <class T>
OCTO_AT_AVX2 inline void transpose8(const T* const (&r)[8], int64_t d0, __m256 (&x)[8]) {
    for (int j = 0; j < 8; ++j) x[j] = load8(r[j] + d0);
    const __m256 t0 = _mm256_unpacklo_ps(x[0], x[1]), t1 = _mm256_unpackhi_ps(x[0], x[1]);
    const __m256 t2 = _mm256_unpacklo_ps(x[2], x[3]), t3 = _mm256_unpackhi_ps(x[2], x[3]);
    const __m256 t4 = _mm256_unpacklo_ps(x[4], x[5]), t5 = _mm256_unpackhi_ps(x[4], x[5]);
    const __m256 t6 = _mm256_unpacklo_ps(x[6], x[7]), t7 = _mm256_unpackhi_ps(x[6], x[7]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    x[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
    x[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
    x[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
    x[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
    x[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
    x[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
    x[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
    x[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

// The rows of positions p0 + j (j < n, a multiple of 8) transposed, in one of two layouts:
// Columns: out[d · n + j] (value d of position p0 + j);
// Pairs: values d and d + 1 side by side for each 8 positions, out[(d / 2) · 2n + (j / 8) · 16 +
// (d % 2) · 8 + j % 8] — the vector of 16 that the wide kernels multiply.
// Positions outside [valid_begin, valid_end) as zeros (`zeros`: head_dim of them).
enum class Layout { Columns, Pairs };

template <class T>
OCTO_AT_AVX2 void transpose_rows(const Rows<T>& rows, int64_t p0, int64_t n, int64_t valid_begin, int64_t valid_end,
                                 int64_t head_dim, const T* zeros, Layout layout, float* out) {
    const int64_t whole = head_dim & ~int64_t{7};
    const auto at = [&](int64_t d, int64_t j) {
        return layout == Layout::Columns ? d * n + j : (d / 2) * 2 * n + (j / 8) * 16 + (d % 2) * 8 + j % 8;
    };
    for (int64_t j = 0; j < n; j += 8) {
        const T* r[8];
        for (int l = 0; l < 8; ++l) {
            const int64_t p = p0 + j + l;
            r[l] = p >= valid_begin && p < valid_end ? rows.at(p) : zeros;
        }
        for (int64_t d = 0; d < whole; d += 8) {
            __m256 x[8];
            transpose8(r, d, x);
            for (int k = 0; k < 8; ++k) _mm256_storeu_ps(out + at(d + k, j), x[k]);
        }
        for (int64_t d = whole; d < head_dim; ++d) {
            for (int l = 0; l < 8; ++l) out[at(d, j + l)] = load1(r[l] + d);
        }
    }
}

// Batch order, kD output values: acc[dd] (eight lanes) += w[j] · vt[dd · ld + j] over n positions,
// position j to lane j % 8 (block starts are multiples of 8, so that is the position's own lane).
template <int kD>
OCTO_AT_AVX2 inline void batch_sums(const float* w, const float* vt, int64_t ld, int64_t n, float* acc, bool start) {
    __m256 a[kD];
    for (int dd = 0; dd < kD; ++dd) a[dd] = start ? _mm256_setzero_ps() : _mm256_loadu_ps(acc + 8 * dd);
    for (int64_t j = 0; j < n; j += 8) {
        const __m256 wv = _mm256_loadu_ps(w + j);
        for (int dd = 0; dd < kD; ++dd) a[dd] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(vt + dd * ld + j), a[dd]);
    }
    for (int dd = 0; dd < kD; ++dd) _mm256_storeu_ps(acc + 8 * dd, a[dd]);
}

// batch_sums for two queries at once (w[b], acc[b]): each value vector loaded once for both.
template <int kD>
OCTO_AT_AVX2 inline void batch_sums_pair(const float* const* w, const float* vt, int64_t ld, int64_t n, float* const* acc,
                                         bool start) {
    __m256 a[2][kD];
    for (int b = 0; b < 2; ++b) {
        for (int dd = 0; dd < kD; ++dd) a[b][dd] = start ? _mm256_setzero_ps() : _mm256_loadu_ps(acc[b] + 8 * dd);
    }
    for (int64_t j = 0; j < n; j += 8) {
        const __m256 w0 = _mm256_loadu_ps(w[0] + j), w1 = _mm256_loadu_ps(w[1] + j);
        for (int dd = 0; dd < kD; ++dd) {
            __m256 v = _mm256_loadu_ps(vt + dd * ld + j);
            __asm__("" : "+x"(v)); // once for both (scores8_group says why)
            a[0][dd] = _mm256_fmadd_ps(w0, v, a[0][dd]);
            a[1][dd] = _mm256_fmadd_ps(w1, v, a[1][dd]);
        }
    }
    for (int b = 0; b < 2; ++b) {
        for (int dd = 0; dd < kD; ++dd) _mm256_storeu_ps(acc[b] + 8 * dd, a[b][dd]);
    }
}

// Single order (the dot product's), kD output values: four accumulators each, position j to
// accumulator (j % 32) / 8, lane j % 8 (block starts are multiples of 32).
template <int kD>
OCTO_AT_AVX2 inline void single_sums(const float* w, const float* vt, int64_t ld, int64_t n, float* acc, bool start) {
    __m256 a[kD][4];
    for (int dd = 0; dd < kD; ++dd) {
        for (int c = 0; c < 4; ++c) a[dd][c] = start ? _mm256_setzero_ps() : _mm256_loadu_ps(acc + 32 * dd + 8 * c);
    }
    for (int64_t j = 0; j < n; j += 32) {
        for (int c = 0; c < 4; ++c) {
            const __m256 wv = _mm256_loadu_ps(w + j + 8 * c);
            for (int dd = 0; dd < kD; ++dd) a[dd][c] = _mm256_fmadd_ps(wv, _mm256_loadu_ps(vt + dd * ld + j + 8 * c), a[dd][c]);
        }
    }
    for (int dd = 0; dd < kD; ++dd) {
        for (int c = 0; c < 4; ++c) _mm256_storeu_ps(acc + 32 * dd + 8 * c, a[dd][c]);
    }
}

// The running sums of one query, reduced into its output values.
OCTO_AT_AVX2 void finish_values(const float* acc, ValueSumOrder order, int64_t head_dim, float* out) {
    const int64_t whole = head_dim & ~int64_t{7};
    for (int64_t d = 0; d < whole; d += 8) {
        __m256 s[8];
        if (order == ValueSumOrder::Batch) {
            for (int j = 0; j < 8; ++j) s[j] = _mm256_loadu_ps(acc + (d + j) * 8);
            _mm256_storeu_ps(out + d, lane_sums8(s));
        } else {
            for (int j = 0; j < 8; ++j) {
                const float* a = acc + (d + j) * 32;
                s[j] = _mm256_add_ps(_mm256_add_ps(_mm256_loadu_ps(a), _mm256_loadu_ps(a + 16)),
                                     _mm256_add_ps(_mm256_loadu_ps(a + 8), _mm256_loadu_ps(a + 24)));
            }
            _mm256_storeu_ps(out + d, dot_sums8(s));
        }
    }
    for (int64_t d = whole; d < head_dim; ++d) { // the same sums, one value at a time
        float s[8];
        if (order == ValueSumOrder::Batch) {
            std::copy(acc + d * 8, acc + d * 8 + 8, s);
        } else {
            const float* a = acc + d * 32;
            for (int l = 0; l < 8; ++l) s[l] = (a[l] + a[16 + l]) + (a[8 + l] + a[24 + l]);
        }
        const float t0 = s[0] + s[4], t1 = s[1] + s[5], t2 = s[2] + s[6], t3 = s[3] + s[7];
        out[d] = order == ValueSumOrder::Batch ? (t0 + t2) + (t1 + t3) : (t0 + t1) + (t2 + t3);
    }
}

// The scores of eight positions from g for the queries listed in `which` (all in one order),
// at most kAvx2Group at a time.
constexpr int64_t kAvx2Group = 3; // reference_dot's 4 accumulators a query: 12 of the 16 vector registers
template <class T>
OCTO_AT_AVX2 void scores8_of(std::span<const int64_t> which, std::span<const float* const> q, bool lanes, const Rows<T>& keys,
                             int64_t g, int64_t head_dim, float scale, float* scores, int64_t range, int64_t origin) {
    for (size_t at = 0; at < which.size(); at += kAvx2Group) {
        const auto n = static_cast<int64_t>(std::min<size_t>(kAvx2Group, which.size() - at));
        const float* qs[kAvx2Group];
        float* out[kAvx2Group];
        for (int64_t b = 0; b < n; ++b) {
            const int64_t i = which[at + static_cast<size_t>(b)];
            qs[b] = q[static_cast<size_t>(i)];
            out[b] = scores + i * range + (g - origin);
        }
        if (lanes) {
            if (n == 3) scores8_lanes_group<3>(qs, keys, g, head_dim, scale, out);
            else if (n == 2) scores8_lanes_group<2>(qs, keys, g, head_dim, scale, out);
            else scores8_lanes_group<1>(qs, keys, g, head_dim, scale, out);
        } else {
            if (n == 3) scores8_group<3>(qs, keys, g, head_dim, scale, out);
            else if (n == 2) scores8_group<2>(qs, keys, g, head_dim, scale, out);
            else scores8_group<1>(qs, keys, g, head_dim, scale, out);
        }
    }
}

// Scores of every query over [first, n_seen), keys a block at a time; s_i[p - origin]. Queries
// in one order whose eight positions from g are all attended score together; the others' edge
// positions one at a time. (`widened`: [head_dim] for an F16 key scored alone; `full`: where the
// queries scoring together are listed.)
template <class T>
OCTO_AT_AVX2 void tile_scores(std::span<const AttentionQuery> queries, std::span<const float* const> q, bool k_half,
                              const Rows<T>& keys, int64_t head_dim, float scale, int64_t origin, int64_t range,
                              int64_t end, float* widened, std::vector<int64_t> (&full)[2], float* scores) {
    for (int64_t block = origin; block < end; block += kKeyBlock) {
        int64_t lo = block + kKeyBlock, hi_all = block;
        for (const AttentionQuery& a : queries) {
            lo = std::min(lo, std::max(block, a.first & ~int64_t{7}));
            hi_all = std::max(hi_all, std::min(block + kKeyBlock, a.n_seen));
        }
        for (int64_t g = lo; g < hi_all; g += 8) {
            full[0].clear();
            full[1].clear();
            for (size_t i = 0; i < queries.size(); ++i) {
                const AttentionQuery& a = queries[i];
                const ScoreOrder order = score_order(a, k_half, head_dim);
                const bool vector_dots = order == ScoreOrder::Lanes || head_dim % 32 == 0;
                const int64_t hi = std::min(block + kKeyBlock, a.n_seen);
                if (g + 8 <= std::max(block, a.first & ~int64_t{7}) || g >= hi) continue; // none of its positions
                if (vector_dots && g >= a.first && g + 8 <= hi) {
                    full[order == ScoreOrder::Lanes ? 1 : 0].push_back(static_cast<int64_t>(i));
                    continue;
                }
                float* s = scores + static_cast<int64_t>(i) * range; // s[p - origin]: position p
                for (int64_t p = std::max(g, a.first); p < std::min(g + 8, hi); ++p) {
                    s[p - origin] = score_one(order, q[i], keys.at(p), head_dim, widened) * scale;
                }
            }
            scores8_of(full[0], q, false, keys, g, head_dim, scale, scores, range, origin);
            scores8_of(full[1], q, true, keys, g, head_dim, scale, scores, range, origin);
        }
    }
}

// --- the wide kernels: the same float steps, sixteen elements a vector (AVX-512) --------------

#define OCTO_AT_AVX512 __attribute__((target("avx512f,avx512vl,avx512dq,avx2,fma,f16c")))

// GCC 12's headers start a broadcast and a widening cast from an undefined vector and then warn
// about it (its bug 105593); the upper lanes are always written.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__) // a GCC-only warning: clang would warn about the unknown name
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// Scores of positions g .. g + 15 for kQ queries (`mask[b]`: query b's stored, at out[b]), from
// keys transposed into kt[d · ld + j]: reference_dot's steps, each position in its own lane —
// accumulator (d % 32) / 8 of lane d % 8 takes q[d] · k[d] by multiply-add over steps of 32,
// folded (0 + 2) + (1 + 3), then t_l = s_l + s_(l+4) and (t0 + t1) + (t2 + t3). Each loaded key
// vector feeds every query.
template <int kQ>
OCTO_AT_AVX512 inline void scores16_group(const float* const* q, const float* kt, int64_t ld, int64_t head_dim, float scale,
                                          const __mmask16* mask, float* const* out) {
    __m512 t[kQ][4];
    for (int l = 0; l < 8; ++l) {
        __m512 a[kQ][4];
        for (int b = 0; b < kQ; ++b) {
            for (int j = 0; j < 4; ++j) a[b][j] = _mm512_setzero_ps();
        }
        for (int64_t i = 0; i < head_dim; i += 32) {
            for (int j = 0; j < 4; ++j) {
                const int64_t d = i + 8 * j + l;
                __m512 k = _mm512_loadu_ps(kt + d * ld);
                // in a register: GCC would otherwise fold the load into each query's multiply-add
                // and load the key kQ times
                __asm__("" : "+v"(k));
                for (int b = 0; b < kQ; ++b) a[b][j] = _mm512_fmadd_ps(_mm512_set1_ps(q[b][d]), k, a[b][j]);
            }
        }
        for (int b = 0; b < kQ; ++b) {
            const __m512 f = _mm512_add_ps(_mm512_add_ps(a[b][0], a[b][2]), _mm512_add_ps(a[b][1], a[b][3]));
            t[b][l % 4] = l < 4 ? f : _mm512_add_ps(t[b][l % 4], f);
        }
    }
    for (int b = 0; b < kQ; ++b) {
        const __m512 sum = _mm512_add_ps(_mm512_add_ps(t[b][0], t[b][1]), _mm512_add_ps(t[b][2], t[b][3]));
        _mm512_mask_storeu_ps(out[b], mask[b], _mm512_mul_ps(sum, _mm512_set1_ps(scale)));
    }
}

// ... in the tiled product's order, for kQ queries: lane l's chain takes q[d] · k[d] for
// d = l, l + 8, ... by multiply-add, then t_l = s_l + s_(l+4) and (t0 + t2) + (t1 + t3). Each
// loaded key vector feeds every query's chain.
template <int kQ>
OCTO_AT_AVX512 inline void scores16_lanes_group(const float* const* q, const float* kt, int64_t ld, int64_t head_dim,
                                                float scale, const __mmask16* mask, float* const* out) {
    __m512 a[kQ][8];
    for (int b = 0; b < kQ; ++b) {
        for (int l = 0; l < 8; ++l) a[b][l] = _mm512_setzero_ps();
    }
    for (int64_t i = 0; i < head_dim; i += 8) {
        for (int l = 0; l < 8; ++l) {
            __m512 k = _mm512_loadu_ps(kt + (i + l) * ld);
            __asm__("" : "+v"(k)); // one load for every query (scores16_group says why)
            for (int b = 0; b < kQ; ++b) a[b][l] = _mm512_fmadd_ps(_mm512_set1_ps(q[b][i + l]), k, a[b][l]);
        }
    }
    for (int b = 0; b < kQ; ++b) {
        const __m512 t0 = _mm512_add_ps(a[b][0], a[b][4]), t1 = _mm512_add_ps(a[b][1], a[b][5]);
        const __m512 t2 = _mm512_add_ps(a[b][2], a[b][6]), t3 = _mm512_add_ps(a[b][3], a[b][7]);
        const __m512 sum = _mm512_add_ps(_mm512_add_ps(t0, t2), _mm512_add_ps(t1, t3));
        _mm512_mask_storeu_ps(out[b], mask[b], _mm512_mul_ps(sum, _mm512_set1_ps(scale)));
    }
}

// batch_sums_wide for kQ queries at once, kPairs pairs of output values each: every loaded value
// vector feeds all of them (each lane's sum in its own order, so the same bits).
template <int kPairs, int kQ>
OCTO_AT_AVX512 inline void batch_sums_wide_group(const float* const* w, const float* vt, int64_t ld, int64_t n,
                                                 float* const* acc, bool start) {
    __m512 a[kQ][kPairs];
    for (int b = 0; b < kQ; ++b) {
        for (int m = 0; m < kPairs; ++m) a[b][m] = start ? _mm512_setzero_ps() : _mm512_loadu_ps(acc[b] + 16 * m);
    }
    for (int64_t j = 0; j < n; j += 8) {
        __m512 wv[kQ];
        for (int b = 0; b < kQ; ++b) wv[b] = _mm512_broadcast_f32x8(_mm256_loadu_ps(w[b] + j));
        for (int m = 0; m < kPairs; ++m) {
            const __m512 v = _mm512_loadu_ps(vt + m * ld + 2 * j);
            for (int b = 0; b < kQ; ++b) a[b][m] = _mm512_fmadd_ps(wv[b], v, a[b][m]);
        }
    }
    for (int b = 0; b < kQ; ++b) {
        for (int m = 0; m < kPairs; ++m) _mm512_storeu_ps(acc[b] + 16 * m, a[b][m]);
    }
}

// batch_sums over values in the Pairs layout: kPairs pairs of output values, each vector
// [value d's eight lanes | value d + 1's], the weights of eight positions in both halves.
template <int kPairs>
OCTO_AT_AVX512 inline void batch_sums_wide(const float* w, const float* vt, int64_t ld, int64_t n, float* acc, bool start) {
    __m512 a[kPairs];
    for (int m = 0; m < kPairs; ++m) a[m] = start ? _mm512_setzero_ps() : _mm512_loadu_ps(acc + 16 * m);
    for (int64_t j = 0; j < n; j += 8) {
        const __m512 wv = _mm512_broadcast_f32x8(_mm256_loadu_ps(w + j));
        for (int m = 0; m < kPairs; ++m) a[m] = _mm512_fmadd_ps(wv, _mm512_loadu_ps(vt + m * ld + 2 * j), a[m]);
    }
    for (int m = 0; m < kPairs; ++m) _mm512_storeu_ps(acc + 16 * m, a[m]);
}

// single_sums over values in the Pairs layout (kPairs pairs, four accumulators each); the
// running sums keep single_sums' layout, acc[d · 32 + 8c + lane].
template <int kPairs>
OCTO_AT_AVX512 inline void single_sums_wide(const float* w, const float* vt, int64_t ld, int64_t n, float* acc, bool start) {
    __m512 a[kPairs][4];
    for (int m = 0; m < kPairs; ++m) {
        for (int c = 0; c < 4; ++c) {
            a[m][c] = start ? _mm512_setzero_ps()
                            : _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_loadu_ps(acc + 64 * m + 8 * c)),
                                                 _mm256_loadu_ps(acc + 64 * m + 32 + 8 * c), 1);
        }
    }
    for (int64_t j = 0; j < n; j += 32) {
        for (int c = 0; c < 4; ++c) {
            const __m512 wv = _mm512_broadcast_f32x8(_mm256_loadu_ps(w + j + 8 * c));
            for (int m = 0; m < kPairs; ++m) a[m][c] = _mm512_fmadd_ps(wv, _mm512_loadu_ps(vt + m * ld + 2 * (j + 8 * c)), a[m][c]);
        }
    }
    for (int m = 0; m < kPairs; ++m) {
        for (int c = 0; c < 4; ++c) {
            _mm256_storeu_ps(acc + 64 * m + 8 * c, _mm512_castps512_ps256(a[m][c]));
            _mm256_storeu_ps(acc + 64 * m + 32 + 8 * c, _mm512_extractf32x8_ps(a[m][c], 1));
        }
    }
}

// Asks for the cache lines of `bytes` bytes from p (rows read in an order the hardware does not
// foresee).
inline void prefetch_bytes(const void* p, int64_t bytes) {
    for (int64_t b = 0; b < bytes; b += 64) _mm_prefetch(static_cast<const char*>(p) + b, _MM_HINT_T0);
}

OCTO_AT_AVX512 inline __m512 load16(const float* p) { return _mm512_loadu_ps(p); }
OCTO_AT_AVX512 inline __m512 load16(const uint16_t* p) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

// group_values_in_place's chains of values d0 .. d0 + 16 · kVecs - 1, sixteen values a vector:
// for each class of positions (j % 32) every query's chains of those values stay in registers
// while the block's positions of that class pass, each weight broadcast once for all kVecs
// vectors. The chains take their multiply-adds in the same order as there, so the same bits.
template <int kQueries, int kVecs, class T>
OCTO_AT_AVX512 void group_values_wide(const float* const* w, const T* const* row, int64_t range, int64_t d0,
                                      int64_t head_dim, float* chains) {
    constexpr int64_t kBlock = 256; // positions whose rows stay in L1 while the 32 classes pass (a multiple of 32)
    constexpr int64_t kRowBytes = 16 * kVecs * static_cast<int64_t>(sizeof(T)); // of a row, read a pass
    const int64_t stride = 32 * head_dim; // one query's chains
    for (int64_t block = 0; block < range; block += kBlock) {
        const int64_t block_end = std::min(range, block + kBlock);
        for (int c = 0; c < 32; ++c) {
            // The next block's rows, fetched while this one's classes pass (a class reads every
            // 32nd row, which the hardware does not foresee): kBlock / 32 rows a class.
            const int64_t ahead = block + kBlock + c * (kBlock / 32);
            for (int64_t j = ahead; j < std::min(range, ahead + kBlock / 32); ++j) prefetch_bytes(row[j] + d0, kRowBytes);
            float* at = chains + c * head_dim + d0;
            __m512 a[kQueries][kVecs];
            for (int i = 0; i < kQueries; ++i) {
                for (int x = 0; x < kVecs; ++x) {
                    a[i][x] = block == 0 ? _mm512_setzero_ps() : _mm512_loadu_ps(at + i * stride + 16 * x);
                }
            }
            for (int64_t j = block + c; j < block_end; j += 32) {
                __m512 v[kVecs];
                for (int x = 0; x < kVecs; ++x) v[x] = load16(row[j] + d0 + 16 * x);
                for (int i = 0; i < kQueries; ++i) {
                    const __m512 wi = _mm512_set1_ps(w[i][j]);
                    for (int x = 0; x < kVecs; ++x) a[i][x] = _mm512_fmadd_ps(wi, v[x], a[i][x]);
                }
            }
            for (int i = 0; i < kQueries; ++i) {
                for (int x = 0; x < kVecs; ++x) _mm512_storeu_ps(at + i * stride + 16 * x, a[i][x]);
            }
        }
    }
}

// fold_chains sixteen values at a time (head_dim a multiple of 16): the same adds, value by value.
OCTO_AT_AVX512 inline void fold_chains_wide(const float* chains, int64_t head_dim, float* out) {
    for (int64_t d = 0; d < head_dim; d += 16) {
        const float* at = chains + d; // chain c's values at at + c · head_dim
        __m512 f[8];
        for (int l = 0; l < 8; ++l) {
            f[l] = _mm512_add_ps(_mm512_add_ps(load16(at + l * head_dim), load16(at + (16 + l) * head_dim)),
                                 _mm512_add_ps(load16(at + (8 + l) * head_dim), load16(at + (24 + l) * head_dim)));
        }
        const __m512 t0 = _mm512_add_ps(f[0], f[4]), t1 = _mm512_add_ps(f[1], f[5]);
        const __m512 t2 = _mm512_add_ps(f[2], f[6]), t3 = _mm512_add_ps(f[3], f[7]);
        _mm512_storeu_ps(out + d, _mm512_add_ps(_mm512_add_ps(t0, t1), _mm512_add_ps(t2, t3)));
    }
}

// group_values_in_place with the wide kernels (head_dim a multiple of 32, range of 32).
template <int kQueries, class T>
OCTO_AT_AVX512 void group_values_in_place_wide(const float* const* w, const T* const* row, int64_t range, int64_t head_dim,
                                               float* chains, float* const* out) {
    int64_t d0 = 0;
    for (; d0 + 64 <= head_dim; d0 += 64) group_values_wide<kQueries, 4>(w, row, range, d0, head_dim, chains);
    if (d0 < head_dim) group_values_wide<kQueries, 2>(w, row, range, d0, head_dim, chains);
    for (int i = 0; i < kQueries; ++i) fold_chains_wide(chains + i * 32 * head_dim, head_dim, out[i]);
}

// Positions g .. g + 15 of a query attending [first, hi) as a store mask.
inline __mmask16 positions_mask(int64_t g, int64_t first, int64_t hi) {
    const int64_t lo = std::clamp<int64_t>(first - g, 0, 16), up = std::clamp<int64_t>(hi - g, 0, 16);
    return static_cast<__mmask16>(((1u << up) - 1u) & ~((1u << lo) - 1u));
}

// Whether a query's scores take the tiled product's order; otherwise reference_dot's (Dot and
// DotF16 are the same steps when head_dim is a multiple of 32, as the wide kernels' are).
bool lanes_order(const AttentionQuery& a, bool k_half, int64_t head_dim) {
    return score_order(a, k_half, head_dim) == ScoreOrder::Lanes;
}

// Queries scored at once: the tiled product's order keeps 8 chains a query in registers (3
// queries: 24 of the 32), reference_dot's 4 at a time (4 queries: 16).
constexpr int64_t kLanesGroup = 3;
constexpr int64_t kDotGroup = 4;

// The scores of queries that share an order (at most its group) over the key block at `block`
// (n positions transposed into kt); scores[b · range + p - origin] is query b's.
OCTO_AT_AVX512 void scores_grouped(std::span<const AttentionQuery> queries, std::span<const float* const> q, bool lanes,
                                   const float* kt, int64_t ld, int64_t head_dim, float scale, int64_t block, int64_t n,
                                   int64_t origin, int64_t range, float* scores) {
    const auto n_q = static_cast<int64_t>(queries.size());
    int64_t lo = block + n, hi = block;
    for (const AttentionQuery& a : queries) {
        lo = std::min(lo, std::max(block, a.first & ~int64_t{15}));
        hi = std::max(hi, std::min(block + n, a.n_seen));
    }
    const float* qs[kDotGroup];
    float* out[kDotGroup];
    __mmask16 mask[kDotGroup];
    for (int64_t g = lo; g < hi; g += 16) {
        for (int64_t b = 0; b < n_q; ++b) {
            const AttentionQuery& a = queries[static_cast<size_t>(b)];
            qs[b] = q[static_cast<size_t>(b)];
            out[b] = scores + b * range + (g - origin);
            mask[b] = positions_mask(g, a.first, std::min(block + n, a.n_seen));
        }
        const float* k = kt + (g - block);
        if (lanes) {
            switch (n_q) {
            case 3: scores16_lanes_group<3>(qs, k, ld, head_dim, scale, mask, out); break;
            case 2: scores16_lanes_group<2>(qs, k, ld, head_dim, scale, mask, out); break;
            default: scores16_lanes_group<1>(qs, k, ld, head_dim, scale, mask, out); break;
            }
        } else {
            switch (n_q) {
            case 4: scores16_group<4>(qs, k, ld, head_dim, scale, mask, out); break;
            case 3: scores16_group<3>(qs, k, ld, head_dim, scale, mask, out); break;
            case 2: scores16_group<2>(qs, k, ld, head_dim, scale, mask, out); break;
            default: scores16_group<1>(qs, k, ld, head_dim, scale, mask, out); break;
            }
        }
    }
}

// Scores of every query, keys a block of 64 at a time transposed into kt (head_dim a multiple of 32).
template <class T>
OCTO_AT_AVX512 void tile_scores_wide(std::span<const AttentionQuery> queries, std::span<const float* const> q,
                                     bool k_half, const Rows<T>& keys, int64_t head_dim,
                                     float scale, int64_t origin, int64_t range,
                                     int64_t first, int64_t end, const T* zeros, float* kt, float* scores) {
    for (int64_t block = origin; block < end; block += kKeyBlock) {
        const int64_t n = std::min(kKeyBlock, ((end + 15) & ~int64_t{15}) - block); // a multiple of 16
        transpose_rows(keys, block, n, first, end, head_dim, zeros, Layout::Columns, kt);
        for (size_t i = 0; i < queries.size();) { // runs of queries in one order, each run's queries at once
            const bool lanes = lanes_order(queries[i], k_half, head_dim);
            size_t m = 1;
            while (m < static_cast<size_t>(lanes ? kLanesGroup : kDotGroup) && i + m < queries.size() &&
                   lanes_order(queries[i + m], k_half, head_dim) == lanes) {
                ++m;
            }
            scores_grouped(queries.subspan(i, m), q.subspan(i, m), lanes, kt, n, head_dim, scale, block, n, origin, range,
                           scores + static_cast<int64_t>(i) * range);
            i += m;
        }
    }
}

// The weighted values with the wide kernels (head_dim a multiple of 16).
OCTO_AT_AVX512 void values_wide(const float* w, const float* vt, int64_t n, int64_t head_dim, ValueSumOrder order,
                                float* acc, bool start) {
    int64_t d = 0;
    if (order == ValueSumOrder::Batch) {
        for (; d + 16 <= head_dim; d += 16) batch_sums_wide<8>(w, vt + d * n, 2 * n, n, acc + d * 8, start);
        for (; d < head_dim; d += 2) batch_sums_wide<1>(w, vt + d * n, 2 * n, n, acc + d * 8, start);
    } else {
        for (; d + 8 <= head_dim; d += 8) single_sums_wide<4>(w, vt + d * n, 2 * n, n, acc + d * 32, start);
        for (; d < head_dim; d += 2) single_sums_wide<1>(w, vt + d * n, 2 * n, n, acc + d * 32, start);
    }
}

// The weighted values of the queries from i on that sum in the batch order, up to 4 at once, or
// of query i alone: how many were summed. Query b's weights are at w + b · range, its running
// sums at sums + sums_at[b].
OCTO_AT_AVX512 int64_t values_wide_grouped(std::span<const AttentionQuery> queries, int64_t i, const float* w, int64_t range,
                                           const float* vt, int64_t n, int64_t head_dim, float* sums,
                                           const int64_t* sums_at, bool start) {
    constexpr int64_t kValueGroup = 4; // 4 pairs of values a query: 16 accumulators
    int64_t n_q = 0;
    while (n_q < kValueGroup && i + n_q < static_cast<int64_t>(queries.size()) &&
           queries[static_cast<size_t>(i + n_q)].order == ValueSumOrder::Batch) {
        ++n_q;
    }
    if (n_q < 2 || head_dim % 8 != 0) {
        values_wide(w + i * range, vt, n, head_dim, queries[static_cast<size_t>(i)].order, sums + sums_at[i], start);
        return 1;
    }
    const float* wq[kValueGroup];
    float* acc[kValueGroup];
    for (int64_t d = 0; d < head_dim; d += 8) {
        for (int64_t b = 0; b < n_q; ++b) {
            wq[b] = w + (i + b) * range;
            acc[b] = sums + sums_at[i + b] + d * 8;
        }
        const float* v = vt + d * n;
        switch (n_q) {
        case 4: batch_sums_wide_group<4, 4>(wq, v, 2 * n, n, acc, start); break;
        case 3: batch_sums_wide_group<4, 3>(wq, v, 2 * n, n, acc, start); break;
        default: batch_sums_wide_group<4, 2>(wq, v, 2 * n, n, acc, start); break;
        }
    }
    return n_q;
}

// reference_dot's partial sums of q · k for one key row (kChunks vectors of 16 values, the
// head): lanes [l | 8 + l] of the result are (s0 + s2) and (s1 + s3) of lane l — accumulator
// j takes values 8j + l of each step of 32 by multiply-add from zero, then they fold in pairs.
template <int kChunks>
OCTO_AT_AVX512 inline __m512 dot_folds(const __m512 (&q)[kChunks], const float* k) {
    __m512 x = _mm512_setzero_ps(), y = _mm512_setzero_ps(); // accumulators 0 | 1, and 2 | 3
    for (int m = 0; m < kChunks; m += 2) {
        x = _mm512_fmadd_ps(q[m], _mm512_loadu_ps(k + 16 * m), x);
        y = _mm512_fmadd_ps(q[m + 1], _mm512_loadu_ps(k + 16 * m + 16), y);
    }
    return _mm512_add_ps(x, y);
}

// The folds of two positions a and b: [f(a) | f(b)], f_l = lane l + lane 8 + l.
OCTO_AT_AVX512 inline __m512 fold_halves(__m512 a, __m512 b) {
    return _mm512_add_ps(_mm512_shuffle_f32x4(a, b, 0x44), _mm512_shuffle_f32x4(a, b, 0xEE));
}

// Four positions' [f | f] pairs (ab, cd) as [t(a) | t(b) | t(c) | t(d)], t_l = f_l + f_(l+4).
OCTO_AT_AVX512 inline __m512 fold_quarters(__m512 ab, __m512 cd) {
    return _mm512_add_ps(_mm512_shuffle_f32x4(ab, cd, 0x88), _mm512_shuffle_f32x4(ab, cd, 0xDD));
}

// Per 128-bit lane: [x0 + x1, x2 + x3, y0 + y1, y2 + y3].
OCTO_AT_AVX512 inline __m512 add_pairs(__m512 x, __m512 y) {
    return _mm512_add_ps(_mm512_shuffle_ps(x, y, 0x88), _mm512_shuffle_ps(x, y, 0xDD));
}

// Scores of 16 key rows k[j] (floats) for one query q: reference_dot(q, k_j) · scale in lane j,
// each from its own partial sums in reference_dot's order — (0 + 2) + (1 + 3), t_l = s_l +
// s_(l+4), (t0 + t1) + (t2 + t3) — with no transposing: the rows' sums are folded sixteen at a
// time by shuffles.
template <int kChunks>
OCTO_AT_AVX512 inline __m512 scores16_rows(const __m512 (&q)[kChunks], const float* const* k, float scale) {
    __m512 t[4];
    for (int g = 0; g < 4; ++g) {
        const __m512 ab = fold_halves(dot_folds(q, k[4 * g]), dot_folds(q, k[4 * g + 1]));
        const __m512 cd = fold_halves(dot_folds(q, k[4 * g + 2]), dot_folds(q, k[4 * g + 3]));
        t[g] = fold_quarters(ab, cd); // rows 4g .. 4g + 3, one a 128-bit lane
    }
    // lane L of u: [t0 + t1, t2 + t3] of rows L and 4 + L, then of 8 + L and 12 + L in v
    const __m512 u = add_pairs(t[0], t[1]), v = add_pairs(t[2], t[3]);
    const __m512 r = add_pairs(u, v); // element 4L + x: row L + 4x
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm512_mul_ps(_mm512_permutexvar_ps(order, r), _mm512_set1_ps(scale));
}

// The scores of a few queries in reference_dot's order (a generated token: the heads of one
// group), the key rows read in place — F16 ones widened sixteen at a time into `widened`
// [16 · head_dim] — one query at a time over each sixteen. head_dim = 16 · kChunks.
template <int kChunks, class T>
OCTO_AT_AVX512 void scores_in_place_wide(std::span<const AttentionQuery> queries, std::span<const float* const> q,
                                         const Rows<T>& keys, float scale, int64_t origin, int64_t range, int64_t first,
                                         int64_t end, const T* zeros, float* widened, float* scores) {
    constexpr int64_t kHead = 16 * kChunks;
    constexpr int64_t kAhead = 64; // positions whose rows are fetched ahead of their use
    constexpr int64_t kRowBytes = kHead * static_cast<int64_t>(sizeof(T));
    for (int64_t g = first & ~int64_t{15}; g < end; g += 16) {
        for (int64_t p = g + kAhead; p < std::min(end, g + kAhead + 16); ++p) prefetch_bytes(keys.at(p), kRowBytes);
        const float* k[16];
        for (int j = 0; j < 16; ++j) {
            const int64_t p = g + j;
            const T* row = p >= first && p < end ? keys.at(p) : zeros;
            if constexpr (std::is_same_v<T, float>) {
                k[j] = row;
            } else {
                float* w = widened + j * kHead;
                for (int m = 0; m < kChunks; ++m) _mm512_storeu_ps(w + 16 * m, load16(row + 16 * m));
                k[j] = w;
            }
        }
        for (size_t b = 0; b < queries.size(); ++b) {
            const AttentionQuery& a = queries[b];
            const __mmask16 mask = positions_mask(g, a.first, a.n_seen);
            if (mask == 0) continue;
            __m512 qv[kChunks];
            for (int m = 0; m < kChunks; ++m) qv[m] = _mm512_loadu_ps(q[b] + 16 * m);
            _mm512_mask_storeu_ps(scores + static_cast<int64_t>(b) * range + (g - origin), mask, scores16_rows(qv, k, scale));
        }
    }
}

#pragma GCC diagnostic pop

#endif

} // namespace

bool attention_tiles_supported() {
#if defined(__x86_64__)
    return cpu_has_avx2();
#else
    return false;
#endif
}

#if defined(__x86_64__)
namespace {
OCTO_AT_AVX2 void round_f16_vector(float* x, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm256_storeu_ps(x + i, _mm256_cvtph_ps(h));
    }
    for (; i < n; ++i) x[i] = fp16_to_fp32(fp32_to_fp16(x[i]));
}

// The largest of `init` and x[0 .. n - 1] as std::max would leave it taking them in turn: a NaN
// among x is passed over; only a zero's sign may differ, which no difference from it sees.
OCTO_AT_AVX2 float running_max(const float* x, int64_t n, float init) {
    __m256 m = _mm256_set1_ps(init);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) m = _mm256_max_ps(_mm256_loadu_ps(x + i), m); // x[i] if greater, else m (and m if either is NaN)
    float lanes[8];
    _mm256_storeu_ps(lanes, m);
    float best = init;
    for (float l : lanes) best = std::max(best, l);
    for (; i < n; ++i) best = std::max(best, x[i]);
    return best;
}

OCTO_AT_AVX2 void widen_f16_vector(const uint16_t* from, float* to, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        _mm256_storeu_ps(to + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i))));
    }
    for (; i < n; ++i) to[i] = fp16_to_fp32(from[i]);
}
} // namespace
#endif

void widen_f16(const uint16_t* from, float* to, int64_t n) {
#if defined(__x86_64__)
    if (attention_tiles_supported()) return widen_f16_vector(from, to, n);
#endif
    for (int64_t i = 0; i < n; ++i) to[i] = fp16_to_fp32(from[i]);
}

bool attention_tiles_wide_supported() {
#if defined(__x86_64__)
    static const bool wide = attention_tiles_supported() && __builtin_cpu_supports("avx512f") &&
                             __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    return wide;
#else
    return false;
#endif
}

#if defined(__x86_64__)
namespace {

// Where the rows outside the tile's positions read: head_dim zeros of the rows' kind.
struct TileZeros {
    const float* f32;
    const uint16_t* f16;
    const float* of(const float*) const { return f32; }
    const uint16_t* of(const uint16_t*) const { return f16; }
};

// The tile's scores (queries as their scores use them in q).
template <class T>
OCTO_AT_AVX2 void score_tile(std::span<const AttentionQuery> queries, std::span<const float* const> q, const Rows<T>& keys,
                             const AttentionTileShape& shape, float scale, bool wide, int64_t origin, int64_t range,
                             int64_t first, int64_t end, const TileZeros& zeros, AttentionTileScratch& scratch) {
    const int64_t head_dim = shape.head_dim;
    // A generated token's few queries (reference_dot's order) read the key rows in place.
    bool in_place = wide && static_cast<int64_t>(queries.size()) <= kGroupQueries && head_dim <= 128;
    for (const AttentionQuery& a : queries) in_place = in_place && !lanes_order(a, shape.k_half, head_dim);
    if (in_place) {
        scratch.keys.resize(static_cast<size_t>(16 * head_dim));
        const auto run = [&]<int kChunks>() {
            scores_in_place_wide<kChunks>(queries, q, keys, scale, origin, range, first, end, zeros.of(keys.base),
                                          scratch.keys.data(), scratch.scores.data());
        };
        switch (head_dim) { // wide: a multiple of 32
        case 32: return run.template operator()<2>();
        case 64: return run.template operator()<4>();
        case 96: return run.template operator()<6>();
        default: return run.template operator()<8>();
        }
    }
    if (wide && static_cast<int64_t>(queries.size()) >= kFewQueries) {
        scratch.keys.resize(static_cast<size_t>(head_dim * kKeyBlock));
        tile_scores_wide(queries, q, shape.k_half, keys, head_dim, scale, origin, range, first, end, zeros.of(keys.base),
                         scratch.keys.data(), scratch.scores.data());
    } else {
        scratch.key.resize(static_cast<size_t>(head_dim));
        tile_scores(queries, q, shape.k_half, keys, head_dim, scale, origin, range, end, scratch.key.data(), scratch.whole,
                    scratch.scores.data());
    }
}

// The weighted values of every query, from the weights in scratch.scores.
template <class T>
OCTO_AT_AVX2 void sum_tile_values(std::span<const AttentionQuery> queries, const Rows<T>& values, int64_t head_dim,
                                  bool wide, int64_t origin, int64_t range, int64_t first, int64_t end,
                                  const TileZeros& zeros, AttentionTileScratch& scratch) {
    const auto n_queries = static_cast<int64_t>(queries.size());
    // A few queries summing in the one-token order read the rows in place.
    bool in_place = n_queries <= kGroupQueries;
    for (const AttentionQuery& a : queries) in_place = in_place && a.order == ValueSumOrder::Single;
    if (in_place) {
        scratch.rows.resize(static_cast<size_t>(range));
        const T** row = reinterpret_cast<const T**>(scratch.rows.data());
        for (int64_t j = 0; j < range; ++j) {
            const int64_t p = origin + j;
            row[j] = p >= first && p < end ? values.at(p) : zeros.of(values.base);
        }
        scratch.sums.resize(static_cast<size_t>(32 * head_dim * n_queries));
        const float* w[kGroupQueries];
        float* out[kGroupQueries];
        for (int64_t i = 0; i < n_queries; ++i) {
            w[i] = scratch.scores.data() + i * range;
            out[i] = queries[static_cast<size_t>(i)].out;
        }
        if (wide) {
            switch (n_queries) {
            case 4: group_values_in_place_wide<4>(w, row, range, head_dim, scratch.sums.data(), out); break;
            case 3: group_values_in_place_wide<3>(w, row, range, head_dim, scratch.sums.data(), out); break;
            case 2: group_values_in_place_wide<2>(w, row, range, head_dim, scratch.sums.data(), out); break;
            default: group_values_in_place_wide<1>(w, row, range, head_dim, scratch.sums.data(), out); break;
            }
            return;
        }
        switch (n_queries) {
        case 4: group_values_in_place<4, 2>(w, row, range, head_dim, scratch.sums.data(), out); break;
        case 3: group_values_in_place<3, 2>(w, row, range, head_dim, scratch.sums.data(), out); break;
        case 2: group_values_in_place<2, 4>(w, row, range, head_dim, scratch.sums.data(), out); break;
        default: group_values_in_place<1, 8>(w, row, range, head_dim, scratch.sums.data(), out); break;
        }
        return;
    }
    // Otherwise value rows are transposed a block at a time, every query's running sums carried
    // from block to block.
    std::vector<int64_t>& sums_at = scratch.sums_at;
    sums_at.resize(queries.size());
    int64_t n_sums = 0;
    for (size_t i = 0; i < queries.size(); ++i) {
        sums_at[i] = n_sums;
        n_sums += head_dim * lanes_of(queries[i].order);
    }
    scratch.sums.resize(static_cast<size_t>(n_sums));
    for (int64_t block = 0; block < range; block += kValueBlock) {
        const int64_t n = std::min(kValueBlock, range - block);
        float* vt = scratch.values.data();
        transpose_rows(values, origin + block, n, first, end, head_dim, zeros.of(values.base),
                       wide ? Layout::Pairs : Layout::Columns, vt);
        const bool start = block == 0;
        for (int64_t i = 0; i < n_queries;) {
            const AttentionQuery& a = queries[static_cast<size_t>(i)];
            const float* w = scratch.scores.data() + i * range + block;
            float* acc = scratch.sums.data() + sums_at[static_cast<size_t>(i)];
            if (wide) {
                i += values_wide_grouped(queries, i, scratch.scores.data() + block, range, vt, n, head_dim, scratch.sums.data(),
                                         sums_at.data(), start);
                continue;
            }
            if (a.order == ValueSumOrder::Batch && i + 1 < n_queries &&
                queries[static_cast<size_t>(i + 1)].order == ValueSumOrder::Batch) { // two queries at once
                const float* w2[2] = {w, w + range};
                float* acc2[2] = {acc, scratch.sums.data() + sums_at[static_cast<size_t>(i + 1)]};
                int64_t d = 0;
                for (; d + 4 <= head_dim; d += 4) {
                    float* at[2] = {acc2[0] + d * 8, acc2[1] + d * 8};
                    batch_sums_pair<4>(w2, vt + d * n, n, n, at, start);
                }
                for (; d < head_dim; ++d) {
                    float* at[2] = {acc2[0] + d * 8, acc2[1] + d * 8};
                    batch_sums_pair<1>(w2, vt + d * n, n, n, at, start);
                }
                i += 2;
                continue;
            }
            ++i;
            int64_t d = 0;
            if (a.order == ValueSumOrder::Batch) {
                for (; d + 8 <= head_dim; d += 8) batch_sums<8>(w, vt + d * n, n, n, acc + d * 8, start);
                for (; d < head_dim; ++d) batch_sums<1>(w, vt + d * n, n, n, acc + d * 8, start);
            } else {
                for (; d + 2 <= head_dim; d += 2) single_sums<2>(w, vt + d * n, n, n, acc + d * 32, start);
                for (; d < head_dim; ++d) single_sums<1>(w, vt + d * n, n, n, acc + d * 32, start);
            }
        }
    }
    for (int64_t i = 0; i < n_queries; ++i) {
        const AttentionQuery& a = queries[static_cast<size_t>(i)];
        finish_values(scratch.sums.data() + sums_at[static_cast<size_t>(i)], a.order, head_dim, a.out);
    }
}

} // namespace
#endif

void attend_tile(std::span<const AttentionQuery> queries, const AttentionRows& rows, const AttentionTileShape& shape,
                 AttentionTileScratch& scratch, AttentionTileWidth width) {
#if defined(__x86_64__)
    const int64_t head_dim = shape.head_dim;
    const auto n_queries = static_cast<int64_t>(queries.size());
    const bool wide = width == AttentionTileWidth::Wide && attention_tiles_wide_supported() && head_dim % 32 == 0;
    int64_t first = queries[0].first, end = queries[0].n_seen;
    for (const AttentionQuery& a : queries) {
        first = std::min(first, a.first);
        end = std::max(end, a.n_seen);
    }
    const bool k_half = shape.k_half, v_half = shape.v_half;
    const int64_t origin = first & ~int64_t{31};                // value sums come in whole steps of 32
    const int64_t range = ((end + 31) & ~int64_t{31}) - origin; // positions origin .. origin + range - 1
    const int64_t block_size = std::min(range, kValueBlock);
    scratch.values.resize(static_cast<size_t>(head_dim * block_size + head_dim));
    float* zeros = scratch.values.data() + head_dim * block_size; // [head_dim] the rows of positions outside the tile
    std::fill(zeros, zeros + head_dim, 0.0f);
    scratch.zeros_half.assign(static_cast<size_t>(head_dim), 0); // F16 +0
    const TileZeros tile_zeros{zeros, scratch.zeros_half.data()};

    // The queries, scaled first where the reference scales them, then rounded to F16 for F16 keys.
    float scale = shape.scale;
    std::vector<const float*>& q = scratch.queries;
    q.resize(queries.size());
    if (shape.scale_queries || k_half) {
        const float query_scale = shape.scale_queries ? shape.scale : 1.0f;
        scratch.query.resize(static_cast<size_t>(n_queries * head_dim));
        for (int64_t i = 0; i < n_queries; ++i) {
            float* prepared = scratch.query.data() + i * head_dim;
            const float* query = queries[static_cast<size_t>(i)].q;
            if (shape.scale_queries) {
                for (int64_t d = 0; d < head_dim; ++d) prepared[d] = query[d] * query_scale;
            } else {
                std::copy(query, query + head_dim, prepared);
            }
            if (k_half) round_f16_vector(prepared, head_dim);
            q[static_cast<size_t>(i)] = prepared;
        }
        if (shape.scale_queries) scale = 1.0f;
    } else {
        for (size_t i = 0; i < queries.size(); ++i) q[i] = queries[i].q;
    }

    scratch.scores.resize(static_cast<size_t>(n_queries * range));
    if (rows.k16) { // F16 keys read in place (or widened ones, with k_half's semantics, from rows.k)
        score_tile(queries, q, Rows<uint16_t>{rows.k16, rows.stride, rows.cell}, shape, scale, wide, origin, range, first, end,
                   tile_zeros, scratch);
    } else {
        score_tile(queries, q, Rows<float>{rows.k, rows.stride, rows.cell}, shape, scale, wide, origin, range, first, end,
                   tile_zeros, scratch);
    }

    // Each query's softmax, as attending it alone computes it; masked positions weigh 0.
    const float inv_cap = shape.softcap > 0.0f ? 1.0f / shape.softcap : 0.0f;
    for (int64_t i = 0; i < n_queries; ++i) {
        const AttentionQuery& a = queries[static_cast<size_t>(i)];
        float* s = scratch.scores.data() + i * range; // s[p - origin]
        if (shape.softcap > 0.0f) {
            for (int64_t p = a.first - origin; p < a.n_seen - origin; ++p) s[p] = std::tanh(s[p] * inv_cap) * shape.softcap;
        }
        const float max_score = running_max(s + (a.first - origin), a.n_seen - a.first, a.sink); // the sink (-inf without one) first
        double sum = reference_softmax_exp_from(s, origin, a.first, a.n_seen, max_score);
        sum += softmax_sink_term(a.sink, max_score); // the sink's share, last
        const auto inv_sum = static_cast<float>(1.0 / sum);
        for (int64_t p = a.first - origin; p < a.n_seen - origin; ++p) s[p] *= inv_sum;
        std::fill(s + (a.n_seen - origin), s + range, 0.0f);
        if (a.weights) {
            std::fill(a.weights, a.weights + origin, 0.0f);
            std::copy(s, s + (a.n_seen - origin), a.weights + origin);
            std::fill(a.weights + a.n_seen, a.weights + shape.weights_stride, 0.0f);
        }
        if (v_half) round_f16_vector(s + (a.first - origin), a.n_seen - a.first); // the reference's F16 weights
    }

    if (rows.v16) {
        sum_tile_values(queries, Rows<uint16_t>{rows.v16, rows.stride, rows.cell}, head_dim, wide, origin, range, first, end,
                        tile_zeros, scratch);
    } else {
        sum_tile_values(queries, Rows<float>{rows.v, rows.stride, rows.cell}, head_dim, wide, origin, range, first, end,
                        tile_zeros, scratch);
    }
#else
    (void)queries, (void)rows, (void)shape, (void)scratch, (void)width;
#endif
}

} // namespace octo
