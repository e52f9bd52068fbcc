#include "engine/backend/cpu/reference_float.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "engine/backend/cpu/cpu_features.h"
#include "engine/backend/cpu/matmul_kernels.h"
#include "engine/core/half.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define OCTO_RF_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

namespace octo {

namespace {

// The exp's constants: the shift that rounds to an integer (1.5 · 2^23), log2 e, ln 2 in a high
// and a low part, and the polynomial's coefficients (degree 1 to 5).
constexpr float kShift = 0x1.8p23f;
constexpr float kLog2e = 0x1.715476p+0f;
constexpr float kLn2Hi = 0x1.62e4p-1f;
constexpr float kLn2Lo = 0x1.7f7d1cp-20f;
constexpr float kP1 = 0x1.ffffecp-1f;
constexpr float kP2 = 0x1.fffdb6p-2f;
constexpr float kP3 = 0x1.555e66p-3f;
constexpr float kP4 = 0x1.573e2ep-5f;
constexpr float kP5 = 0x1.0e4020p-7f;
constexpr uint32_t kOneBits = 0x3f800000u;   // 1.0f
constexpr uint32_t kBigScale = 0x7f000000u;  // 2^127
constexpr uint32_t kSmallBias = 0x82000000u; // added to kBigScale: 2^-125

// Eight position lanes l, l + 4 added, then (0 + 2) + (1 + 3): the reference's horizontal sum.
inline float lanes_sum(const float* a) {
    const float h0 = a[0] + a[4], h1 = a[1] + a[5], h2 = a[2] + a[6], h3 = a[3] + a[7];
    return (h0 + h2) + (h1 + h3);
}

// Four accumulators of eight lanes (acc[8 j + l]) added lane by lane, (0 + 2) + (1 + 3).
inline void fold_accumulators(const float* acc, float (&s)[8]) {
    for (int l = 0; l < 8; ++l) s[l] = (acc[l] + acc[16 + l]) + (acc[8 + l] + acc[24 + l]);
}

// Four accumulators of eight lanes, as the reference's dot product reduces them.
inline float accumulators_sum(const float* acc) {
    float s[8];
    fold_accumulators(acc, s);
    const float t0 = s[0] + s[4], t1 = s[1] + s[5], t2 = s[2] + s[6], t3 = s[3] + s[7];
    return (t0 + t1) + (t2 + t3);
}

// The values of a float dot product past its last whole step of 32, added to sum as the
// reference's build compiles that loop: GCC vectorises it, so each group of eight values and then
// one group of four have their products rounded and added one by one in order; only the last one
// to three values are multiply-added (fused).
float dot_rest(const float* a, const float* b, int64_t i, int64_t n, float sum) {
    for (; i + 8 <= n; i += 8) {
        for (int l = 0; l < 8; ++l) sum += a[i + l] * b[i + l];
    }
    if (i + 4 <= n) {
        for (int l = 0; l < 4; ++l) sum += a[i + l] * b[i + l];
        i += 4;
    }
    for (; i < n; ++i) sum = std::fma(a[i], b[i], sum);
    return sum;
}

float dot_scalar(const float* a, const float* b, int64_t n) {
    float acc[32] = {};
    const int64_t whole = n & ~int64_t{31};
    for (int64_t i = 0; i < whole; ++i) acc[i % 32] = std::fma(a[i], b[i], acc[i % 32]);
    return dot_rest(a, b, whole, n, accumulators_sum(acc));
}

void silu_mul_scalar(const float* gate, const float* up, float* out, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
        const float g = gate[i];
        out[i] = g / (1.0f + reference_expf(0.0f - g)) * up[i];
    }
}

// One group of eight positions from g: exps in place (0 before first), their float sum.
float softmax_group_scalar(float* s, int64_t g, int64_t first, int64_t n, float max) {
    float e[8] = {};
    for (int l = 0; l < 8 && g + l < n; ++l) {
        const int64_t p = g + l;
        e[l] = p < first ? 0.0f : reference_expf(s[p] - max);
        s[p] = e[l];
    }
    return lanes_sum(e);
}

// The groups from `from` (a multiple of 8) on.
double softmax_exp_scalar(float* s, int64_t from, int64_t first, int64_t n, float max) {
    double sum = 0.0;
    for (int64_t g = from; g < n; g += 8) sum += static_cast<double>(softmax_group_scalar(s, g, first, n, max));
    return sum;
}

void weighted_values_scalar(const float* w, int64_t first, int64_t n, const ValueRows& v, int64_t head_dim,
                            ValueSumOrder order, float* out) {
    const int n_lanes = order == ValueSumOrder::Batch ? 8 : 32;
    for (int64_t d = 0; d < head_dim; ++d) {
        float acc[32] = {};
        for (int64_t p = first; p < n; ++p) acc[p % n_lanes] = std::fma(w[p], v(p)[d], acc[p % n_lanes]);
        out[d] = order == ValueSumOrder::Batch ? lanes_sum(acc) : accumulators_sum(acc);
    }
}

// --- the float matrix products (reference_float_kernel) ------------------------------------------

constexpr int64_t kRowBlockBytes = 64 << 10; // weight rows walked per tile of tokens (they stay in L2)

float row_value(TensorType type, const uint8_t* row, int64_t i) {
    if (type == TensorType::F32) {
        float v;
        std::memcpy(&v, row + 4 * i, 4);
        return v;
    }
    uint16_t h;
    std::memcpy(&h, row + 2 * i, 2);
    return type == TensorType::F16 ? fp16_to_fp32(h) : bf16_to_fp32(h);
}

// The dot product's sum for F16 / BF16 rows from its reduced whole steps: the rest in double,
// each product rounded to float (its build neither vectorises nor fuses that loop).
float single_rest(TensorType type, const uint8_t* row, const float* x, int64_t i, int64_t n, double sum) {
    for (; i < n; ++i) sum += static_cast<double>(row_value(type, row, i) * x[i]);
    return static_cast<float>(sum);
}

// One row's product with one token in the reference's tiled order (rows a multiple of 8 long).
float batch_dot_scalar(TensorType type, const uint8_t* row, const float* x, int64_t n) {
    float acc[8] = {};
    for (int64_t i = 0; i < n; ++i) acc[i % 8] = std::fma(row_value(type, row, i), x[i], acc[i % 8]);
    return lanes_sum(acc);
}

// ... and in its dot product's order.
float single_dot_scalar(TensorType type, const uint8_t* row, const float* x, int64_t n) {
    if (type == TensorType::F32) return dot_scalar(reinterpret_cast<const float*>(row), x, n);
    float acc[32] = {};
    const int64_t whole = n & ~int64_t{31};
    for (int64_t i = 0; i < whole; ++i) acc[i % 32] = std::fma(row_value(type, row, i), x[i], acc[i % 32]);
    if (type == TensorType::F16) return single_rest(type, row, x, whole, n, accumulators_sum(acc));
    float s[8]; // BF16: the four accumulators as F16's, then its own horizontal sum, added to 0.0
    fold_accumulators(acc, s);
    double sum = 0.0;
    sum += static_cast<double>(lanes_sum(s));
    return single_rest(type, row, x, whole, n, sum);
}

bool batched_token(const MatmulArgs& a, int64_t t) { return a.batched && a.w->reference_tiled && a.batched[t]; }

void float_rows_scalar(const MatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    for (int64_t t = 0; t < a.n_tokens; ++t) {
        const float* x = a.x + t * w.n_in;
        const bool batched = batched_token(a, t);
        for (int64_t r = row_begin; r < row_end; ++r) {
            const uint8_t* row = w.data + static_cast<uint64_t>(r) * w.row_bytes;
            a.y[t * w.n_out + r] = batched ? batch_dot_scalar(w.type, row, x, w.n_in) : single_dot_scalar(w.type, row, x, w.n_in);
        }
    }
}

#if defined(__x86_64__)
namespace simd {

OCTO_RF_AVX2 inline __m256 exp8(__m256 x) {
    const __m256 shift = _mm256_set1_ps(kShift);
    const __m256 z = _mm256_fmadd_ps(x, _mm256_set1_ps(kLog2e), shift);
    const __m256 n = _mm256_sub_ps(z, shift);
    const __m256 b = _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Lo), _mm256_fnmadd_ps(n, _mm256_set1_ps(kLn2Hi), x));
    const __m256i e = _mm256_slli_epi32(_mm256_castps_si256(z), 23);
    const __m256 k = _mm256_castsi256_ps(_mm256_add_epi32(e, _mm256_set1_epi32(static_cast<int>(kOneBits))));
    const __m256 abs_n = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), n);
    const __m256 scaled_twice = _mm256_cmp_ps(abs_n, _mm256_set1_ps(126.0f), _CMP_GT_OQ);
    const __m256 u = _mm256_mul_ps(b, b);
    const __m256 high = _mm256_fmadd_ps(_mm256_fmadd_ps(_mm256_set1_ps(kP5), b, _mm256_set1_ps(kP4)), u,
                                        _mm256_fmadd_ps(_mm256_set1_ps(kP3), b, _mm256_set1_ps(kP2)));
    const __m256 j = _mm256_fmadd_ps(high, u, _mm256_mul_ps(_mm256_set1_ps(kP1), b));
    const __m256 normal = _mm256_fmadd_ps(k, j, k);
    if (_mm256_movemask_ps(scaled_twice) == 0) return normal;
    const __m256i bias = _mm256_and_si256(_mm256_castps_si256(_mm256_cmp_ps(n, _mm256_setzero_ps(), _CMP_LE_OQ)),
                                          _mm256_set1_epi32(static_cast<int>(kSmallBias)));
    const __m256 s1 = _mm256_castsi256_ps(_mm256_add_epi32(bias, _mm256_set1_epi32(static_cast<int>(kBigScale))));
    const __m256 s2 = _mm256_castsi256_ps(_mm256_sub_epi32(e, bias));
    const __m256 out_of_range = _mm256_cmp_ps(abs_n, _mm256_set1_ps(192.0f), _CMP_GT_OQ);
    const __m256 two_steps = _mm256_mul_ps(_mm256_fmadd_ps(s2, j, s2), s1);
    const __m256 in_range = _mm256_blendv_ps(normal, two_steps, scaled_twice);
    return _mm256_blendv_ps(in_range, _mm256_mul_ps(s1, s1), out_of_range);
}

// ((l + (l + 4)) then (0 + 2) + (1 + 3)) of one vector
OCTO_RF_AVX2 inline float lanes_sum8(__m256 a) {
    __m128 v = _mm_add_ps(_mm256_extractf128_ps(a, 1), _mm256_castps256_ps128(a));
    v = _mm_add_ps(v, _mm_movehl_ps(v, v));
    v = _mm_add_ss(v, _mm_movehdup_ps(v));
    return _mm_cvtss_f32(v);
}

OCTO_RF_AVX2 void silu_mul(const float* gate, const float* up, float* out, int64_t n) {
    const __m256 one = _mm256_set1_ps(1.0f);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 g = _mm256_loadu_ps(gate + i);
        const __m256 e = exp8(_mm256_sub_ps(_mm256_setzero_ps(), g));
        const __m256 silu = _mm256_div_ps(g, _mm256_add_ps(one, e));
        _mm256_storeu_ps(out + i, _mm256_mul_ps(silu, _mm256_loadu_ps(up + i)));
    }
    silu_mul_scalar(gate + i, up + i, out + i, n - i);
}

// Eight values of a float weight row from value i.
template <TensorType kType>
OCTO_RF_AVX2 inline __m256 load8(const uint8_t* row, int64_t i) {
    if constexpr (kType == TensorType::F32) return _mm256_loadu_ps(reinterpret_cast<const float*>(row) + i);
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 2 * i));
    if constexpr (kType == TensorType::F16) return _mm256_cvtph_ps(h);
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(h), 16));
}

// The float dot product's whole steps of 32 (`whole` values): four accumulators by multiply-add,
// folded (0 + 2) + (1 + 3).
template <TensorType kType>
OCTO_RF_AVX2 inline __m256 whole_steps(const uint8_t* row, const float* x, int64_t whole) {
    __m256 acc[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int64_t i = 0; i < whole; i += 32) {
        for (int j = 0; j < 4; ++j) acc[j] = _mm256_fmadd_ps(load8<kType>(row, i + 8 * j), _mm256_loadu_ps(x + i + 8 * j), acc[j]);
    }
    return _mm256_add_ps(_mm256_add_ps(acc[0], acc[2]), _mm256_add_ps(acc[1], acc[3]));
}

// ... then its horizontal sum: the two halves added, two horizontal adds.
OCTO_RF_AVX2 inline float horizontal_adds(__m256 s) {
    const __m128 t0 = _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
    const __m128 t1 = _mm_hadd_ps(t0, t0);
    return _mm_cvtss_f32(_mm_hadd_ps(t1, t1));
}

OCTO_RF_AVX2 float dot(const float* a, const float* b, int64_t n) {
    const int64_t whole = n & ~int64_t{31};
    return dot_rest(a, b, whole, n, horizontal_adds(whole_steps<TensorType::F32>(reinterpret_cast<const uint8_t*>(a), b, whole)));
}

OCTO_RF_AVX2 double softmax_exp(float* s, int64_t from, int64_t first, int64_t n, float max) {
    const __m256 m = _mm256_set1_ps(max);
    double sum = 0.0;
    for (int64_t g = from; g < n; g += 8) {
        if (g >= first && g + 8 <= n) {
            const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(s + g), m));
            _mm256_storeu_ps(s + g, e);
            sum += static_cast<double>(lanes_sum8(e));
        } else { // a group the window cuts, or the last one
            sum += static_cast<double>(softmax_group_scalar(s, g, first, n, max));
        }
    }
    return sum;
}

OCTO_RF_AVX2 void weighted_values(const float* w, int64_t first, int64_t n, const ValueRows& v, int64_t head_dim,
                                  ValueSumOrder order, float* out) {
    const int64_t whole = head_dim & ~int64_t{7};
    for (int64_t d = 0; d < whole; d += 8) {
        if (order == ValueSumOrder::Batch) {
            __m256 acc[8];
            for (auto& a : acc) a = _mm256_setzero_ps();
            for (int64_t p = first; p < n; ++p) {
                acc[p % 8] = _mm256_fmadd_ps(_mm256_set1_ps(w[p]), _mm256_loadu_ps(v(p) + d), acc[p % 8]);
            }
            const __m256 h0 = _mm256_add_ps(acc[0], acc[4]), h1 = _mm256_add_ps(acc[1], acc[5]);
            const __m256 h2 = _mm256_add_ps(acc[2], acc[6]), h3 = _mm256_add_ps(acc[3], acc[7]);
            _mm256_storeu_ps(out + d, _mm256_add_ps(_mm256_add_ps(h0, h2), _mm256_add_ps(h1, h3)));
        } else {
            __m256 acc[32];
            for (auto& a : acc) a = _mm256_setzero_ps();
            for (int64_t p = first; p < n; ++p) {
                acc[p % 32] = _mm256_fmadd_ps(_mm256_set1_ps(w[p]), _mm256_loadu_ps(v(p) + d), acc[p % 32]);
            }
            __m256 t[4];
            for (int l = 0; l < 4; ++l) {
                const __m256 s_lo = _mm256_add_ps(_mm256_add_ps(acc[l], acc[16 + l]), _mm256_add_ps(acc[8 + l], acc[24 + l]));
                const __m256 s_hi = _mm256_add_ps(_mm256_add_ps(acc[l + 4], acc[20 + l]), _mm256_add_ps(acc[12 + l], acc[28 + l]));
                t[l] = _mm256_add_ps(s_lo, s_hi);
            }
            _mm256_storeu_ps(out + d, _mm256_add_ps(_mm256_add_ps(t[0], t[1]), _mm256_add_ps(t[2], t[3])));
        }
    }
    if (whole < head_dim) {
        // the last few values of the head: the scalar loop, shifted
        const ValueRows shifted{v.base + whole, v.stride, v.cell};
        weighted_values_scalar(w, first, n, shifted, head_dim - whole, order, out + whole);
    }
}

// One row's product with one token in the dot product's order (single_dot_scalar's).
template <TensorType kType>
OCTO_RF_AVX2 float single_dot(const uint8_t* row, const float* x, int64_t n) {
    if constexpr (kType == TensorType::F32) return dot(reinterpret_cast<const float*>(row), x, n);
    const int64_t whole = n & ~int64_t{31};
    const __m256 s = whole_steps<kType>(row, x, whole);
    if constexpr (kType == TensorType::F16) return single_rest(kType, row, x, whole, n, horizontal_adds(s));
    double sum = 0.0;
    sum += static_cast<double>(lanes_sum8(s));
    return single_rest(kType, row, x, whole, n, sum);
}

// kRows weight rows × kTokens consecutive tokens in the tiled product's order: one 8-lane
// accumulator each, so each weight vector loaded serves every token and each activation vector
// every row (4 × 3: 12 accumulators, 3 activation vectors and a weight vector in 16 registers).
template <TensorType kType, int kRows, int kTokens>
OCTO_RF_AVX2 void batch_tile(const uint8_t* rows, uint64_t row_bytes, const float* x, int64_t n_in, float* y, int64_t n_out) {
    __m256 acc[kRows][kTokens];
    for (int r = 0; r < kRows; ++r) {
        for (int t = 0; t < kTokens; ++t) acc[r][t] = _mm256_setzero_ps();
    }
    for (int64_t i = 0; i < n_in; i += 8) {
        __m256 xv[kTokens];
        for (int t = 0; t < kTokens; ++t) xv[t] = _mm256_loadu_ps(x + t * n_in + i);
        for (int r = 0; r < kRows; ++r) {
            const __m256 wv = load8<kType>(rows + r * row_bytes, i);
            for (int t = 0; t < kTokens; ++t) acc[r][t] = _mm256_fmadd_ps(wv, xv[t], acc[r][t]);
        }
    }
    for (int r = 0; r < kRows; ++r) {
        for (int t = 0; t < kTokens; ++t) y[t * n_out + r] = lanes_sum8(acc[r][t]);
    }
}

template <TensorType kType, int kTokens>
OCTO_RF_AVX2 void batch_rows(const WeightMatrix& w, int64_t r0, int64_t r1, const float* x, float* y) {
    int64_t r = r0;
    for (; r + 4 <= r1; r += 4) {
        batch_tile<kType, 4, kTokens>(w.data + static_cast<uint64_t>(r) * w.row_bytes, w.row_bytes, x, w.n_in, y + r, w.n_out);
    }
    for (; r < r1; ++r) {
        batch_tile<kType, 1, kTokens>(w.data + static_cast<uint64_t>(r) * w.row_bytes, w.row_bytes, x, w.n_in, y + r, w.n_out);
    }
}

// Rows in blocks that stay in L2 while every token passes them: the batched tokens in tiles of
// up to three consecutive ones, the others one row at a time.
template <TensorType kType>
OCTO_RF_AVX2 void float_rows(const MatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    const int64_t block = std::max<int64_t>(4, kRowBlockBytes / static_cast<int64_t>(w.row_bytes) / 4 * 4);
    for (int64_t r0 = row_begin; r0 < row_end; r0 += block) {
        const int64_t r1 = std::min(row_end, r0 + block);
        for (int64_t t = 0; t < a.n_tokens;) {
            const float* x = a.x + t * w.n_in;
            float* y = a.y + t * w.n_out;
            if (!batched_token(a, t)) {
                for (int64_t r = r0; r < r1; ++r) y[r] = single_dot<kType>(w.data + static_cast<uint64_t>(r) * w.row_bytes, x, w.n_in);
                ++t;
                continue;
            }
            int k = 1;
            while (k < 3 && t + k < a.n_tokens && batched_token(a, t + k)) ++k;
            if (k == 3) batch_rows<kType, 3>(w, r0, r1, x, y);
            else if (k == 2) batch_rows<kType, 2>(w, r0, r1, x, y);
            else batch_rows<kType, 1>(w, r0, r1, x, y);
            t += k;
        }
    }
}

OCTO_RF_AVX2 void float_rows_any(const MatmulArgs& a, int64_t row_begin, int64_t row_end) {
    switch (a.w->type) {
    case TensorType::F32: return float_rows<TensorType::F32>(a, row_begin, row_end);
    case TensorType::F16: return float_rows<TensorType::F16>(a, row_begin, row_end);
    default: return float_rows<TensorType::BF16>(a, row_begin, row_end);
    }
}

} // namespace simd
#endif

// silu(gate) · up with the reference's vector exp throughout (its vector loop's values).
void silu_mul_vector_exp(const float* gate, const float* up, float* out, int64_t n) {
#if defined(__x86_64__)
    if (cpu_has_avx2()) return simd::silu_mul(gate, up, out, n);
#endif
    silu_mul_scalar(gate, up, out, n);
}

} // namespace

bool reference_float_type(TensorType type) {
    return type == TensorType::F32 || type == TensorType::F16 || type == TensorType::BF16;
}

MatmulRowsKernel reference_float_kernel(CpuPath path) {
#if defined(__x86_64__)
    if (path != CpuPath::Scalar && cpu_has_avx2()) return simd::float_rows_any;
#endif
    (void)path;
    return float_rows_scalar;
}

float reference_expf(float x) {
    const float z = std::fma(x, kLog2e, kShift);
    const float n = z - kShift;
    const float b = std::fma(-n, kLn2Lo, std::fma(-n, kLn2Hi, x));
    const uint32_t e = std::bit_cast<uint32_t>(z) << 23;
    const float k = std::bit_cast<float>(e + kOneBits);
    const float u = b * b;
    const float j = std::fma(std::fma(std::fma(kP5, b, kP4), u, std::fma(kP3, b, kP2)), u, kP1 * b);
    const float abs_n = std::fabs(n);
    if (!(abs_n > 126.0f)) return std::fma(k, j, k);
    const uint32_t bias = n <= 0.0f ? kSmallBias : 0u;
    const float s1 = std::bit_cast<float>(bias + kBigScale);
    if (abs_n > 192.0f) return s1 * s1;
    const float s2 = std::bit_cast<float>(e - bias);
    return std::fma(s2, j, s2) * s1;
}

void reference_silu_mul(const float* gate, const float* up, float* out, int64_t n, int64_t column, int64_t row) {
    const int64_t whole = row & ~int64_t{7}; // the columns of a row its vector loop takes
    for (int64_t i = 0; i < n;) {
        const int64_t c = (column + i) % row;
        if (c < whole) {
            const int64_t m = std::min(n - i, whole - c);
            silu_mul_vector_exp(gate + i, up + i, out + i, m);
            i += m;
        } else { // the row's last values: its scalar loop, with the C library's expf
            const int64_t end = i + std::min(n - i, row - c);
            for (; i < end; ++i) out[i] = gate[i] / (1.0f + std::exp(-gate[i])) * up[i];
        }
    }
}

float reference_dot(const float* a, const float* b, int64_t n) {
#if defined(__x86_64__)
    if (cpu_has_avx2()) return simd::dot(a, b, n);
#endif
    return dot_scalar(a, b, n);
}

float reference_dot_f16(const float* a, const float* b, int64_t n) {
    const int64_t whole = n & ~int64_t{31};
    double sum = 0.0;
    sum += static_cast<double>(reference_dot(a, b, whole));
    for (int64_t i = whole; i < n; ++i) sum += static_cast<double>(a[i] * b[i]);
    return static_cast<float>(sum);
}

float reference_lanes_dot(const float* a, const float* b, int64_t n) {
    float acc[8] = {};
    for (int64_t i = 0; i < n; ++i) acc[i % 8] = std::fma(a[i], b[i], acc[i % 8]);
    return lanes_sum(acc);
}

double reference_softmax_exp(float* s, int64_t first, int64_t n, float max) {
#if defined(__x86_64__)
    if (cpu_has_avx2()) return simd::softmax_exp(s, 0, first, n, max);
#endif
    return softmax_exp_scalar(s, 0, first, n, max);
}

double reference_softmax_exp_from(float* s, int64_t origin, int64_t first, int64_t n, float max) {
    // Groups are aligned alike counted from origin (a multiple of 8); the ones before first's
    // group hold only masked positions.
    const int64_t from = (first & ~int64_t{7}) - origin;
    std::fill(s, s + from, 0.0f);
#if defined(__x86_64__)
    if (cpu_has_avx2()) return simd::softmax_exp(s, from, first - origin, n - origin, max);
#endif
    return softmax_exp_scalar(s, from, first - origin, n - origin, max);
}

void reference_weighted_values(const float* w, int64_t first, int64_t n, const ValueRows& v, int64_t head_dim,
                               ValueSumOrder order, float* out) {
#if defined(__x86_64__)
    if (cpu_has_avx2()) return simd::weighted_values(w, first, n, v, head_dim, order, out);
#endif
    weighted_values_scalar(w, first, n, v, head_dim, order, out);
}

} // namespace octo
