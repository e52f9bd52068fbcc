#include "engine/backend/cpu/activation_quant.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/backend/cpu/cpu_features.h"
#include "engine/core/half.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define OCTO_AQ_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

namespace octo {

namespace {

// Round to nearest, ties to even (the reference's vector rounding and its nearest_int()).
inline int round_even(float v) { return static_cast<int>(std::nearbyint(v)); }

inline float fp16_round(float v) { return fp16_to_fp32(fp32_to_fp16(v)); }

// Block of 32 shared by Q8_0 and Q8_1: returns the unrounded scale amax / 127.
float quantize_block32(const float* x, int8_t* qs) {
    float amax = 0.0f;
    for (int i = 0; i < 32; ++i) amax = std::max(amax, std::fabs(x[i]));
    const float d = amax / 127.0f;
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    for (int i = 0; i < 32; ++i) qs[i] = static_cast<int8_t>(round_even(x[i] * id));
    return d;
}

void quantize_q8_0(const float* x, ActQ8_0* y, int64_t n) {
    for (int64_t b = 0; b < n / 32; ++b, x += 32) {
        y[b].d = fp16_round(quantize_block32(x, y[b].qs));
        int32_t sum = 0;
        for (int i = 0; i < 32; ++i) sum += y[b].qs[i];
        y[b].sum = sum;
    }
}

void quantize_q8_1(const float* x, ActQ8_1* y, int64_t n) {
    for (int64_t b = 0; b < n / 32; ++b, x += 32) {
        const float d = quantize_block32(x, y[b].qs);
        int32_t sum = 0;
        for (int i = 0; i < 32; ++i) sum += y[b].qs[i];
        y[b].d = fp16_round(d);
        y[b].s = fp16_round(d * static_cast<float>(sum));
    }
}

void quantize_q8_k(const float* x, ActQ8_K* y, int64_t n) {
    for (int64_t b = 0; b < n / 256; ++b, x += 256) {
        ActQ8_K& out = y[b];
        float max = 0.0f;
        float amax = 0.0f;
        for (int i = 0; i < 256; ++i) {
            const float ax = std::fabs(x[i]);
            if (ax > amax) {
                amax = ax;
                max = x[i];
            }
        }
        if (amax == 0.0f) {
            out = ActQ8_K{};
            continue;
        }
        const float iscale = -127.0f / max;
        for (int i = 0; i < 256; ++i) out.qs[i] = static_cast<int8_t>(std::min(127, round_even(iscale * x[i])));
        for (int j = 0; j < 16; ++j) {
            int sum = 0;
            for (int i = 0; i < 16; ++i) sum += out.qs[16 * j + i];
            out.bsums[j] = static_cast<int16_t>(sum);
        }
        out.d = 1.0f / iscale;
    }
}

// fp32 -> bf16, to nearest with ties to even (NaN stays a quiet NaN).
inline float bf16_round(float v) {
    uint32_t u = std::bit_cast<uint32_t>(v);
    if ((u & 0x7fffffffu) > 0x7f800000u) return std::bit_cast<float>((u | 0x00400000u) & 0xffff0000u);
    u = (u + (0x7fffu + ((u >> 16) & 1u))) & 0xffff0000u;
    return std::bit_cast<float>(u);
}

#if defined(__x86_64__)
// The same blocks with AVX2, bit-identical to the loops above: max |x| does not depend on the
// order, the products x·(127/amax) are the same single float multiplications, and vroundps with
// "nearest" rounds ties to even as nearbyint does.
namespace simd {

OCTO_AQ_AVX2 inline float max_abs(const float* x, int n) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    __m256 m = _mm256_setzero_ps();
    for (int i = 0; i < n; i += 8) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, _mm256_loadu_ps(x + i)));
    __m128 v = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
    v = _mm_max_ps(v, _mm_movehl_ps(v, v));
    v = _mm_max_ss(v, _mm_movehdup_ps(v));
    return _mm_cvtss_f32(v);
}

// q[i] = round_even(x[i] * scale) for 32 values, optionally capped at 127; returns Σ q.
OCTO_AQ_AVX2 inline int32_t round32(const float* x, float scale, bool cap, int8_t* q) {
    const __m256 s = _mm256_set1_ps(scale);
    __m256i i[4];
    for (int k = 0; k < 4; ++k) {
        const __m256 r = _mm256_round_ps(_mm256_mul_ps(_mm256_loadu_ps(x + 8 * k), s), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        i[k] = _mm256_cvtps_epi32(r);
        if (cap) i[k] = _mm256_min_epi32(i[k], _mm256_set1_epi32(127));
    }
    const __m256i sum = _mm256_add_epi32(_mm256_add_epi32(i[0], i[1]), _mm256_add_epi32(i[2], i[3]));
    // the two packs interleave the 128-bit lanes: the permutation puts the values back in order
    const __m256i a = _mm256_packs_epi32(i[0], i[1]); // [i0 0-3, i1 0-3, i0 4-7, i1 4-7]
    const __m256i b = _mm256_packs_epi32(i[2], i[3]);
    const __m256i bytes = _mm256_packs_epi16(a, b);   // dwords: [i0a i1a i2a i3a | i0b i1b i2b i3b]
    const __m256i ordered = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q), ordered);
    __m128i t = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0x4e));
    t = _mm_add_epi32(t, _mm_shuffle_epi32(t, 0xb1));
    return _mm_cvtsi128_si32(t);
}

OCTO_AQ_AVX2 void quantize_q8_0(const float* x, ActQ8_0* y, int64_t n) {
    for (int64_t b = 0; b < n / 32; ++b, x += 32) {
        const float amax = max_abs(x, 32);
        y[b].sum = round32(x, amax != 0.0f ? 127.0f / amax : 0.0f, false, y[b].qs);
        y[b].d = fp16_round(amax / 127.0f);
    }
}

OCTO_AQ_AVX2 void quantize_q8_1(const float* x, ActQ8_1* y, int64_t n) {
    for (int64_t b = 0; b < n / 32; ++b, x += 32) {
        const float amax = max_abs(x, 32);
        const float d = amax / 127.0f;
        const int32_t sum = round32(x, amax != 0.0f ? 127.0f / amax : 0.0f, false, y[b].qs);
        y[b].d = fp16_round(d);
        y[b].s = fp16_round(d * static_cast<float>(sum));
    }
}

OCTO_AQ_AVX2 void quantize_q8_k(const float* x, ActQ8_K* y, int64_t n) {
    for (int64_t b = 0; b < n / 256; ++b, x += 256) {
        ActQ8_K& out = y[b];
        const float amax = max_abs(x, 256);
        if (amax == 0.0f) {
            out = ActQ8_K{};
            continue;
        }
        int first = 0; // the first value of largest magnitude sets the sign
        while (std::fabs(x[first]) != amax) ++first;
        const float iscale = -127.0f / x[first];
        for (int k = 0; k < 8; ++k) (void)round32(x + 32 * k, iscale, true, out.qs + 32 * k);
        for (int j = 0; j < 16; ++j) {
            int sum = 0;
            for (int i = 0; i < 16; ++i) sum += out.qs[16 * j + i];
            out.bsums[j] = static_cast<int16_t>(sum);
        }
        out.d = 1.0f / iscale;
    }
}

// F16: vcvtps2ph rounds to nearest even like fp32_to_fp16 (subnormals, overflow to infinity and
// NaN's quiet bit and top payload bits included), and vcvtph2ps widens exactly.
OCTO_AQ_AVX2 int64_t round_f16(const float* x, float* dst, int64_t n) {
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    }
    return i;
}

// BF16: bf16_round's integer steps, eight at a time.
OCTO_AQ_AVX2 int64_t round_bf16(const float* x, float* dst, int64_t n) {
    const __m256i abs_mask = _mm256_set1_epi32(0x7fffffff);
    const __m256i inf = _mm256_set1_epi32(0x7f800000);
    const __m256i high = _mm256_set1_epi32(static_cast<int>(0xffff0000u));
    const __m256i quiet = _mm256_set1_epi32(0x00400000);
    const __m256i bias = _mm256_set1_epi32(0x7fff);
    const __m256i one = _mm256_set1_epi32(1);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i u = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i));
        const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(u, abs_mask), inf);
        const __m256i odd = _mm256_and_si256(_mm256_srli_epi32(u, 16), one);
        const __m256i rounded = _mm256_and_si256(_mm256_add_epi32(u, _mm256_add_epi32(bias, odd)), high);
        const __m256i quieted = _mm256_and_si256(_mm256_or_si256(u, quiet), high);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm256_blendv_epi8(rounded, quieted, nan));
    }
    return i;
}

} // namespace simd
#endif


} // namespace

ActivationFormat activation_format(TensorType weight) {
    switch (weight) {
    case TensorType::F16: return ActivationFormat::F16;
    case TensorType::BF16: return ActivationFormat::BF16;
    case TensorType::Q4_0:
    case TensorType::Q5_0:
    case TensorType::Q8_0:
    case TensorType::IQ4_NL:
    case TensorType::MXFP4: return ActivationFormat::Q8_0;
    case TensorType::Q4_1:
    case TensorType::Q5_1: return ActivationFormat::Q8_1;
    case TensorType::Q2_K:
    case TensorType::Q3_K:
    case TensorType::Q4_K:
    case TensorType::Q5_K:
    case TensorType::Q6_K:
    case TensorType::IQ4_XS:
    case TensorType::IQ2_XXS:
    case TensorType::IQ2_XS:
    case TensorType::IQ2_S:
    case TensorType::IQ3_XXS:
    case TensorType::IQ3_S:
    case TensorType::IQ1_S:
    case TensorType::IQ1_M:
    case TensorType::TQ1_0:
    case TensorType::TQ2_0: return ActivationFormat::Q8_K;
    default: return ActivationFormat::F32;
    }
}

int64_t activation_row_bytes(ActivationFormat format, int64_t n) {
    switch (format) {
    case ActivationFormat::Q8_0: return n / 32 * static_cast<int64_t>(sizeof(ActQ8_0));
    case ActivationFormat::Q8_1: return n / 32 * static_cast<int64_t>(sizeof(ActQ8_1));
    case ActivationFormat::Q8_K: return n / 256 * static_cast<int64_t>(sizeof(ActQ8_K));
    default: return n * static_cast<int64_t>(sizeof(float));
    }
}

void quantize_activation_row(ActivationFormat format, const float* x, void* dst, int64_t n) {
#if defined(__x86_64__)
    if (cpu_has_avx2()) {
        switch (format) {
        case ActivationFormat::Q8_0: simd::quantize_q8_0(x, static_cast<ActQ8_0*>(dst), n); return;
        case ActivationFormat::Q8_1: simd::quantize_q8_1(x, static_cast<ActQ8_1*>(dst), n); return;
        case ActivationFormat::Q8_K: simd::quantize_q8_k(x, static_cast<ActQ8_K*>(dst), n); return;
        default: break;
        }
    }
#endif
    quantize_activation_row_scalar(format, x, dst, n);
}

void quantize_activation_row_scalar(ActivationFormat format, const float* x, void* dst, int64_t n) {
    switch (format) {
    case ActivationFormat::Q8_0: quantize_q8_0(x, static_cast<ActQ8_0*>(dst), n); break;
    case ActivationFormat::Q8_1: quantize_q8_1(x, static_cast<ActQ8_1*>(dst), n); break;
    case ActivationFormat::Q8_K: quantize_q8_k(x, static_cast<ActQ8_K*>(dst), n); break;
    default: break;
    }
}

void round_activation_row(ActivationFormat format, const float* x, float* dst, int64_t n) {
    int64_t done = 0;
#if defined(__x86_64__)
    if (cpu_has_avx2()) {
        if (format == ActivationFormat::F16) done = simd::round_f16(x, dst, n);
        if (format == ActivationFormat::BF16) done = simd::round_bf16(x, dst, n);
    }
#endif
    round_activation_row_scalar(format, x + done, dst + done, n - done);
}

void round_activation_row_scalar(ActivationFormat format, const float* x, float* dst, int64_t n) {
    if (format == ActivationFormat::F16) {
        for (int64_t i = 0; i < n; ++i) dst[i] = fp16_round(x[i]);
    } else if (format == ActivationFormat::BF16) {
        for (int64_t i = 0; i < n; ++i) dst[i] = bf16_round(x[i]);
    } else if (dst != x) {
        std::copy_n(x, n, dst);
    }
}

} // namespace octo
