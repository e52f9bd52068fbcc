// Chunk decoders for the x86 SIMD kernels (AVX2 + F16C), shared by the AVX2 and AVX-512 matrix
// products. A weight row is walked in chunks of 32 values; a decoder turns one chunk (a
// Q*_0/Q*_1 block, a 32-value sub-block of a K-quant super-block, or 32 plain values) into four
// vectors of 8 floats, bit-identical to dequantize_row(). Internal to engine/backend/cpu.
#pragma once

#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "engine/core/half.h"
#include "engine/backend/cpu/matmul_kernels.h"
#include "engine/gguf/quant_blocks.h"

#define OCTO_AVX2 __attribute__((target("avx2,fma,f16c")))


namespace octo::avx2 {

using namespace qblock;

constexpr int64_t kChunk = 32; // weight values per decoded chunk

inline OCTO_AVX2 float load_half(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return _cvtsh_ss(h);
}

inline OCTO_AVX2 __m128i load16(const uint8_t* p) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}

inline OCTO_AVX2 __m256i load32(const uint8_t* p) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

// 8 signed / unsigned bytes -> 8 floats.
inline OCTO_AVX2 __m256 i8_to_ps(__m128i v) { return _mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(v)); }
inline OCTO_AVX2 __m256 u8_to_ps(__m128i v) { return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(v)); }

// The four 8-byte groups of 32 bytes held as two 16-byte halves.
inline OCTO_AVX2 void split_groups(__m128i lo, __m128i hi, __m128i g[4]) {
    g[0] = lo;
    g[1] = _mm_srli_si128(lo, 8);
    g[2] = hi;
    g[3] = _mm_srli_si128(hi, 8);
}

// Low and high nibbles of 16 bytes (values 0..15 and 16..31 of a Q4/Q5 block).
inline OCTO_AVX2 void nibbles(const uint8_t* qs, __m128i& lo, __m128i& hi) {
    const __m128i b = load16(qs);
    const __m128i mask = _mm_set1_epi8(15);
    lo = _mm_and_si128(b, mask);
    hi = _mm_and_si128(_mm_srli_epi16(b, 4), mask);
}

// Bit (8k + lane) of qh for lane 0..7, as 0 or 16 in each int32 lane.
inline OCTO_AVX2 __m256i fifth_bits(uint32_t qh, int k) {
    const __m256i shifts = _mm256_add_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32(8 * k));
    const __m256i bits = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(static_cast<int>(qh)), shifts),
                                          _mm256_set1_epi32(1));
    return _mm256_slli_epi32(bits, 4);
}

struct DecodeF32 {
    static constexpr bool kPlain = true;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const float* p = reinterpret_cast<const float*>(row) + c * kChunk;
        for (int k = 0; k < 4; ++k) w[k] = _mm256_loadu_ps(p + 8 * k);
    }
    OCTO_AVX2 static __m256 vector(const uint8_t* row, int64_t c, int k) { // w[k] of chunk c alone
        return _mm256_loadu_ps(reinterpret_cast<const float*>(row) + c * kChunk + 8 * k);
    }
    OCTO_AVX2 static float value(const uint8_t* row, int64_t i) {
        float v;
        std::memcpy(&v, row + 4 * i, 4);
        return v;
    }
};

struct DecodeF16 {
    static constexpr bool kPlain = true;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const uint8_t* p = row + 2 * c * kChunk;
        for (int k = 0; k < 4; ++k) w[k] = _mm256_cvtph_ps(load16(p + 16 * k));
    }
    OCTO_AVX2 static __m256 vector(const uint8_t* row, int64_t c, int k) {
        return _mm256_cvtph_ps(load16(row + 2 * c * kChunk + 16 * k));
    }
    OCTO_AVX2 static float value(const uint8_t* row, int64_t i) { return load_half(row + 2 * i); }
};

struct DecodeBF16 {
    static constexpr bool kPlain = true;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        for (int k = 0; k < 4; ++k) w[k] = vector(row, c, k);
    }
    OCTO_AVX2 static __m256 vector(const uint8_t* row, int64_t c, int k) {
        const __m128i b = load16(row + 2 * c * kChunk + 16 * k);
        return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(b), 16));
    }
    OCTO_AVX2 static float value(const uint8_t* row, int64_t i) {
        uint16_t b;
        std::memcpy(&b, row + 2 * i, 2);
        return bf16_to_fp32(b);
    }
};

struct DecodeQ8_0 {
    static constexpr bool kPlain = false;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const uint8_t* b = row + c * kQ8_0Bytes;
        const __m256 d = _mm256_set1_ps(load_half(b));
        for (int k = 0; k < 4; ++k) {
            const __m128i q = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(b + 2 + 8 * k));
            w[k] = _mm256_mul_ps(i8_to_ps(q), d);
        }
    }
};

struct DecodeQ4_0 {
    static constexpr bool kPlain = false;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const uint8_t* b = row + c * kQ4_0Bytes;
        const __m256 d = _mm256_set1_ps(load_half(b));
        __m128i lo, hi, g[4];
        nibbles(b + 2, lo, hi);
        const __m128i eight = _mm_set1_epi8(8);
        split_groups(_mm_sub_epi8(lo, eight), _mm_sub_epi8(hi, eight), g);
        for (int k = 0; k < 4; ++k) w[k] = _mm256_mul_ps(i8_to_ps(g[k]), d);
    }
};

struct DecodeQ4_1 {
    static constexpr bool kPlain = false;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const uint8_t* b = row + c * kQ4_1Bytes;
        const __m256 d = _mm256_set1_ps(load_half(b));
        const __m256 m = _mm256_set1_ps(load_half(b + 2));
        __m128i lo, hi, g[4];
        nibbles(b + 4, lo, hi);
        split_groups(lo, hi, g);
        for (int k = 0; k < 4; ++k) w[k] = _mm256_add_ps(_mm256_mul_ps(u8_to_ps(g[k]), d), m);
    }
};

// The 5-bit values of a Q5_0/Q5_1 block, group k (values 8k..8k+7) as int32 lanes.
inline OCTO_AVX2 void q5_groups(uint32_t qh, const uint8_t* qs, __m256i q[4]) {
    __m128i lo, hi, g[4];
    nibbles(qs, lo, hi);
    split_groups(lo, hi, g);
    for (int k = 0; k < 4; ++k) q[k] = _mm256_or_si256(_mm256_cvtepu8_epi32(g[k]), fifth_bits(qh, k));
}

struct DecodeQ5_0 {
    static constexpr bool kPlain = false;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const uint8_t* b = row + c * kQ5_0Bytes;
        const __m256 d = _mm256_set1_ps(load_half(b));
        uint32_t qh;
        std::memcpy(&qh, b + 2, 4);
        __m256i q[4];
        q5_groups(qh, b + 6, q);
        const __m256i sixteen = _mm256_set1_epi32(16);
        for (int k = 0; k < 4; ++k) w[k] = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(q[k], sixteen)), d);
    }
};

struct DecodeQ5_1 {
    static constexpr bool kPlain = false;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const uint8_t* b = row + c * kQ5_1Bytes;
        const __m256 d = _mm256_set1_ps(load_half(b));
        const __m256 m = _mm256_set1_ps(load_half(b + 2));
        uint32_t qh;
        std::memcpy(&qh, b + 4, 4);
        __m256i q[4];
        q5_groups(qh, b + 8, q);
        for (int k = 0; k < 4; ++k) w[k] = _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(q[k]), d), m);
    }
};

// Splits 32 bytes into the four 8-byte groups of values 0..7, 8..15, 16..23, 24..31.
inline OCTO_AVX2 void split_groups(__m256i v, __m128i g[4]) {
    split_groups(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1), g);
}

// Q4_K / Q5_K: chunk c is sub-block s = c % 8 of super-block c / 8.
template <bool kFifthBit>
struct DecodeQ45_K {
    static constexpr bool kPlain = false;
    static constexpr int kBytes = kFifthBit ? kQ5_KBytes : kQ4_KBytes;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const uint8_t* b = row + (c / 8) * kBytes;
        const int s = static_cast<int>(c % 8);
        int sc = 0;
        int mn = 0;
        unpack_k_scale_min(b + 4, s, sc, mn);
        const __m256 ds = _mm256_set1_ps(load_half(b) * static_cast<float>(sc));
        const __m256 ms = _mm256_set1_ps(load_half(b + 2) * static_cast<float>(mn));
        const uint8_t* qs = b + (kFifthBit ? 48 : 16) + 32 * (s / 2);
        const __m128i shift = _mm_cvtsi32_si128(4 * (s % 2));
        __m256i q = _mm256_and_si256(_mm256_srl_epi16(load32(qs), shift), _mm256_set1_epi8(15));
        if constexpr (kFifthBit) {
            const __m256i bit = _mm256_and_si256(_mm256_srl_epi16(load32(b + 16), _mm_cvtsi32_si128(s)),
                                                 _mm256_set1_epi8(1));
            q = _mm256_or_si256(q, _mm256_slli_epi16(bit, 4));
        }
        __m128i g[4];
        split_groups(q, g);
        for (int k = 0; k < 4; ++k) w[k] = _mm256_sub_ps(_mm256_mul_ps(ds, u8_to_ps(g[k])), ms);
    }
};

// Q6_K: chunk c is part j = c % 4 of half h = (c % 8) / 4 of super-block c / 8.
struct DecodeQ6_K {
    static constexpr bool kPlain = false;
    OCTO_AVX2 static void chunk(const uint8_t* row, int64_t c, __m256 w[4]) {
        const uint8_t* b = row + (c / 8) * kQ6_KBytes;
        const int h = static_cast<int>((c % 8) / 4);
        const int j = static_cast<int>(c % 4);
        const float d = load_half(b + 208);
        const __m256i low = _mm256_and_si256(
            _mm256_srl_epi16(load32(b + 64 * h + 32 * (j & 1)), _mm_cvtsi32_si128(4 * (j >> 1))),
            _mm256_set1_epi8(15));
        const __m256i high = _mm256_and_si256(
            _mm256_srl_epi16(load32(b + 128 + 32 * h), _mm_cvtsi32_si128(2 * j)), _mm256_set1_epi8(3));
        const __m256i q = _mm256_sub_epi8(_mm256_or_si256(low, _mm256_slli_epi16(high, 4)), _mm256_set1_epi8(32));
        const int8_t* scales = reinterpret_cast<const int8_t*>(b + 192 + 8 * h + 2 * j);
        __m128i g[4];
        split_groups(q, g);
        for (int k = 0; k < 4; ++k) {
            const __m256 ds = _mm256_set1_ps(d * static_cast<float>(scales[k / 2]));
            w[k] = _mm256_mul_ps(ds, i8_to_ps(g[k]));
        }
    }
};

// The row kernel Rows<Decoder> for each weight type, or nullptr.
template <template <class> class Rows>
void (*kernel_for_type(TensorType type))(const MatmulArgs&, int64_t, int64_t) {
    switch (type) {
    case TensorType::F32: return Rows<DecodeF32>::run;
    case TensorType::F16: return Rows<DecodeF16>::run;
    case TensorType::BF16: return Rows<DecodeBF16>::run;
    case TensorType::Q4_0: return Rows<DecodeQ4_0>::run;
    case TensorType::Q4_1: return Rows<DecodeQ4_1>::run;
    case TensorType::Q5_0: return Rows<DecodeQ5_0>::run;
    case TensorType::Q5_1: return Rows<DecodeQ5_1>::run;
    case TensorType::Q8_0: return Rows<DecodeQ8_0>::run;
    case TensorType::Q4_K: return Rows<DecodeQ45_K<false>>::run;
    case TensorType::Q5_K: return Rows<DecodeQ45_K<true>>::run;
    case TensorType::Q6_K: return Rows<DecodeQ6_K>::run;
    default: return nullptr;
    }
}

} // namespace octo::avx2
