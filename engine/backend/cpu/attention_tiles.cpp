#include "engine/backend/cpu/attention_tiles.h"

#include <algorithm>
#include <cmath>

#include "engine/backend/cpu/cpu_features.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define OCTO_AT_AVX2 __attribute__((target("avx2,fma")))
#endif

namespace octo {

namespace {

constexpr int64_t kKeyBlock = 64;    // key positions every query of the tile passes while they stay in L1
constexpr int64_t kValueBlock = 256; // value positions transposed at a time (a multiple of 32)

inline int64_t lanes_of(ValueSumOrder order) { return order == ValueSumOrder::Batch ? 8 : 32; }

#if defined(__x86_64__)

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

// The dot product's four accumulators over whole steps of 32 (head_dim a multiple of 32),
// folded (0 + 2) + (1 + 3).
OCTO_AT_AVX2 inline __m256 folded_dot(const float* q, const float* k, int64_t head_dim) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
    for (int64_t i = 0; i < head_dim; i += 32) {
        a0 = _mm256_fmadd_ps(_mm256_loadu_ps(q + i), _mm256_loadu_ps(k + i), a0);
        a1 = _mm256_fmadd_ps(_mm256_loadu_ps(q + i + 8), _mm256_loadu_ps(k + i + 8), a1);
        a2 = _mm256_fmadd_ps(_mm256_loadu_ps(q + i + 16), _mm256_loadu_ps(k + i + 16), a2);
        a3 = _mm256_fmadd_ps(_mm256_loadu_ps(q + i + 24), _mm256_loadu_ps(k + i + 24), a3);
    }
    return _mm256_add_ps(_mm256_add_ps(a0, a2), _mm256_add_ps(a1, a3));
}

// Scores of positions p .. p + 7 for one query: reference_dot(q, k_p) · scale each.
OCTO_AT_AVX2 inline void scores8(const float* q, const AttentionRows& rows, int64_t p, int64_t head_dim, float scale,
                                 float* out) {
    __m256 s[8];
    for (int j = 0; j < 8; ++j) s[j] = folded_dot(q, rows.k + rows.cell[p + j] * rows.stride, head_dim);
    _mm256_storeu_ps(out, _mm256_mul_ps(dot_sums8(s), _mm256_set1_ps(scale)));
}

// Eight rows of eight floats (r[j] + d0) written as eight columns: out[d * ld + j] = r[j][d0 + d].
OCTO_AT_AVX2 inline void transpose8(const float* const (&r)[8], int64_t d0, float* out, int64_t ld) {
    __m256 x[8];
    for (int j = 0; j < 8; ++j) x[j] = _mm256_loadu_ps(r[j] + d0);
    const __m256 t0 = _mm256_unpacklo_ps(x[0], x[1]), t1 = _mm256_unpackhi_ps(x[0], x[1]);
    const __m256 t2 = _mm256_unpacklo_ps(x[2], x[3]), t3 = _mm256_unpackhi_ps(x[2], x[3]);
    const __m256 t4 = _mm256_unpacklo_ps(x[4], x[5]), t5 = _mm256_unpackhi_ps(x[4], x[5]);
    const __m256 t6 = _mm256_unpacklo_ps(x[6], x[7]), t7 = _mm256_unpackhi_ps(x[6], x[7]);
    const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
    const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
    const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    _mm256_storeu_ps(out + 0 * ld, _mm256_permute2f128_ps(u0, u4, 0x20));
    _mm256_storeu_ps(out + 1 * ld, _mm256_permute2f128_ps(u1, u5, 0x20));
    _mm256_storeu_ps(out + 2 * ld, _mm256_permute2f128_ps(u2, u6, 0x20));
    _mm256_storeu_ps(out + 3 * ld, _mm256_permute2f128_ps(u3, u7, 0x20));
    _mm256_storeu_ps(out + 4 * ld, _mm256_permute2f128_ps(u0, u4, 0x31));
    _mm256_storeu_ps(out + 5 * ld, _mm256_permute2f128_ps(u1, u5, 0x31));
    _mm256_storeu_ps(out + 6 * ld, _mm256_permute2f128_ps(u2, u6, 0x31));
    _mm256_storeu_ps(out + 7 * ld, _mm256_permute2f128_ps(u3, u7, 0x31));
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

// Value rows of positions p0 .. p0 + n - 1 transposed into vt[head_dim][n]; positions outside
// [valid_begin, valid_end) as zeros (`zeros`: head_dim of them).
OCTO_AT_AVX2 void transpose_values(const AttentionRows& rows, int64_t p0, int64_t n, int64_t valid_begin, int64_t valid_end,
                                   int64_t head_dim, const float* zeros, float* vt) {
    const int64_t whole = head_dim & ~int64_t{7};
    for (int64_t j = 0; j < n; j += 8) {
        const float* r[8];
        for (int l = 0; l < 8; ++l) {
            const int64_t p = p0 + j + l;
            r[l] = p >= valid_begin && p < valid_end ? rows.v + rows.cell[p] * rows.stride : zeros;
        }
        for (int64_t d = 0; d < whole; d += 8) transpose8(r, d, vt + d * n + j, n);
        for (int64_t d = whole; d < head_dim; ++d) {
            for (int l = 0; l < 8; ++l) vt[d * n + j + l] = r[l][d];
        }
    }
}

// Scores of every query over [first, n_seen), keys a block at a time; s_i[p - origin].
OCTO_AT_AVX2 void tile_scores(std::span<const AttentionQuery> queries, std::span<const float* const> q,
                              const AttentionRows& rows, const AttentionTileShape& shape, float scale, int64_t origin,
                              int64_t range, int64_t end, float* scores) {
    const int64_t head_dim = shape.head_dim;
    const bool vector_dots = head_dim % 32 == 0;
    for (int64_t block = origin; block < end; block += kKeyBlock) {
        for (size_t i = 0; i < queries.size(); ++i) {
            const AttentionQuery& a = queries[i];
            float* s = scores + static_cast<int64_t>(i) * range; // s[p - origin]: position p
            const int64_t hi = std::min(block + kKeyBlock, a.n_seen);
            for (int64_t g = std::max(block, a.first & ~int64_t{7}); g < hi; g += 8) {
                if (vector_dots && g >= a.first && g + 8 <= hi) {
                    scores8(q[i], rows, g, head_dim, scale, s + (g - origin));
                    continue;
                }
                for (int64_t p = std::max(g, a.first); p < std::min(g + 8, hi); ++p) {
                    s[p - origin] = reference_dot(q[i], rows.k + rows.cell[p] * rows.stride, head_dim) * scale;
                }
            }
        }
    }
}

#endif

} // namespace

bool attention_tiles_supported() {
#if defined(__x86_64__)
    return cpu_has_avx2();
#else
    return false;
#endif
}

void attend_tile(std::span<const AttentionQuery> queries, const AttentionRows& rows, const AttentionTileShape& shape,
                 AttentionTileScratch& scratch) {
#if defined(__x86_64__)
    const int64_t head_dim = shape.head_dim;
    const auto n_queries = static_cast<int64_t>(queries.size());
    int64_t first = queries[0].first, end = queries[0].n_seen;
    for (const AttentionQuery& a : queries) {
        first = std::min(first, a.first);
        end = std::max(end, a.n_seen);
    }
    const int64_t origin = first & ~int64_t{31};             // value sums come in whole steps of 32
    const int64_t range = ((end + 31) & ~int64_t{31}) - origin; // positions origin .. origin + range - 1

    // The queries, scaled first where the reference scales them.
    float scale = shape.scale;
    std::vector<const float*> q(queries.size());
    if (shape.scale_queries) {
        scratch.query.resize(static_cast<size_t>(n_queries * head_dim));
        for (int64_t i = 0; i < n_queries; ++i) {
            float* scaled = scratch.query.data() + i * head_dim;
            for (int64_t d = 0; d < head_dim; ++d) scaled[d] = queries[static_cast<size_t>(i)].q[d] * shape.scale;
            q[static_cast<size_t>(i)] = scaled;
        }
        scale = 1.0f;
    } else {
        for (size_t i = 0; i < queries.size(); ++i) q[i] = queries[i].q;
    }

    scratch.scores.resize(static_cast<size_t>(n_queries * range));
    tile_scores(queries, q, rows, shape, scale, origin, range, end, scratch.scores.data());

    // Each query's softmax, as attending it alone computes it; masked positions weigh 0.
    const float inv_cap = shape.softcap > 0.0f ? 1.0f / shape.softcap : 0.0f;
    for (int64_t i = 0; i < n_queries; ++i) {
        const AttentionQuery& a = queries[static_cast<size_t>(i)];
        float* s = scratch.scores.data() + i * range; // s[p - origin]
        float max_score = -INFINITY;
        for (int64_t p = a.first - origin; p < a.n_seen - origin; ++p) {
            if (shape.softcap > 0.0f) s[p] = std::tanh(s[p] * inv_cap) * shape.softcap;
            max_score = std::max(max_score, s[p]);
        }
        const double sum = reference_softmax_exp_from(s, origin, a.first, a.n_seen, max_score);
        const auto inv_sum = static_cast<float>(1.0 / sum);
        for (int64_t p = a.first - origin; p < a.n_seen - origin; ++p) s[p] *= inv_sum;
        std::fill(s + (a.n_seen - origin), s + range, 0.0f);
        if (a.weights) {
            std::fill(a.weights, a.weights + origin, 0.0f);
            std::copy(s, s + (a.n_seen - origin), a.weights + origin);
            std::fill(a.weights + a.n_seen, a.weights + shape.weights_stride, 0.0f);
        }
    }

    // The weighted values: value rows transposed a block at a time, every query's running sums
    // carried from block to block.
    std::vector<int64_t> sums_at(queries.size());
    int64_t n_sums = 0;
    for (size_t i = 0; i < queries.size(); ++i) {
        sums_at[i] = n_sums;
        n_sums += head_dim * lanes_of(queries[i].order);
    }
    scratch.sums.resize(static_cast<size_t>(n_sums));
    scratch.values.resize(static_cast<size_t>(head_dim * std::min(range, kValueBlock) + head_dim));
    float* zeros = scratch.values.data() + head_dim * std::min(range, kValueBlock);
    std::fill(zeros, zeros + head_dim, 0.0f);
    for (int64_t block = 0; block < range; block += kValueBlock) {
        const int64_t n = std::min(kValueBlock, range - block);
        float* vt = scratch.values.data();
        transpose_values(rows, origin + block, n, first, end, head_dim, zeros, vt);
        const bool start = block == 0;
        for (int64_t i = 0; i < n_queries; ++i) {
            const AttentionQuery& a = queries[static_cast<size_t>(i)];
            const float* w = scratch.scores.data() + i * range + block;
            float* acc = scratch.sums.data() + sums_at[static_cast<size_t>(i)];
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
#else
    (void)queries, (void)rows, (void)shape, (void)scratch;
#endif
}

} // namespace octo
