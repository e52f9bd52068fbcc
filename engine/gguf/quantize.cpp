#include "engine/gguf/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/core/half.h"
#include "engine/core/le_bytes.h"
#include "engine/gguf/quant_blocks.h"
#include "engine/gguf/quantize_steps.h"

namespace octo {

namespace {

using namespace qblock;
using namespace qstep;

// Symmetric blocks (Q4_0, Q5_0): the extreme value maps to -2^(bits-1); q in [0, 2^bits).
void quant_symmetric(const float* x, int levels, uint8_t* b, int q[32]) {
    const float d = store_half(b, signed_absmax(x, 32) / static_cast<float>(-levels / 2));
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    for (int i = 0; i < 32; ++i) q[i] = round_clamp(x[i] * id, -levels / 2, levels / 2 - 1) + levels / 2;
}

// Affine blocks (Q4_1, Q5_1): y = q * d + m with m the block minimum; q in [0, levels).
void quant_affine(const float* x, int levels, uint8_t* b, int q[32]) {
    const float lo = *std::min_element(x, x + 32);
    const float hi = *std::max_element(x, x + 32);
    const float d = store_half(b, (hi - lo) / static_cast<float>(levels - 1));
    const float m = store_half(b + 2, lo);
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    for (int i = 0; i < 32; ++i) q[i] = round_clamp((x[i] - m) * id, 0, levels - 1);
}

void pack_nibbles(const int q[32], uint8_t* qs) {
    for (int j = 0; j < 16; ++j) qs[j] = static_cast<uint8_t>((q[j] & 15) | ((q[j + 16] & 15) << 4));
}

uint32_t pack_fifth_bits(const int q[32]) {
    uint32_t qh = 0;
    for (int i = 0; i < 32; ++i) qh |= static_cast<uint32_t>((q[i] >> 4) & 1) << i;
    return qh;
}

void quant_q4_0(const float* x, uint8_t* b) {
    int q[32];
    quant_symmetric(x, 16, b, q);
    pack_nibbles(q, b + 2);
}

void quant_q4_1(const float* x, uint8_t* b) {
    int q[32];
    quant_affine(x, 16, b, q);
    pack_nibbles(q, b + 4);
}

void quant_q5_0(const float* x, uint8_t* b) {
    int q[32];
    quant_symmetric(x, 32, b, q);
    store_le32(b + 2, pack_fifth_bits(q));
    pack_nibbles(q, b + 6);
}

void quant_q5_1(const float* x, uint8_t* b) {
    int q[32];
    quant_affine(x, 32, b, q);
    store_le32(b + 4, pack_fifth_bits(q));
    pack_nibbles(q, b + 8);
}

void quant_q8_0(const float* x, uint8_t* b) {
    float amax = 0.0f;
    for (int i = 0; i < 32; ++i) amax = std::max(amax, std::fabs(x[i]));
    const float d = store_half(b, amax / 127.0f);
    const float id = d != 0.0f ? 1.0f / d : 0.0f;
    for (int i = 0; i < 32; ++i) {
        b[2 + i] = static_cast<uint8_t>(static_cast<int8_t>(round_clamp(x[i] * id, -127, 127)));
    }
}

// Q4_K (levels 16, qh null) and Q5_K (levels 32): per sub-block of 32, scale = range / (levels-1)
// and min = -min(0, smallest value); both quantised to 6 bits against fp16 super-scales.
// q receives the 256 values' codes, 0..levels-1.
void quant_k_4or5(const float* x, int levels, uint8_t* b, int q[256]) {
    float scale[8];
    float min[8];
    for (int s = 0; s < 8; ++s) {
        const float* xs = x + 32 * s;
        const float lo = std::min(0.0f, *std::min_element(xs, xs + 32));
        const float hi = std::max(lo, *std::max_element(xs, xs + 32));
        scale[s] = (hi - lo) / static_cast<float>(levels - 1);
        min[s] = -lo;
    }
    const float d = store_half(b, *std::max_element(scale, scale + 8) / 63.0f);
    const float dmin = store_half(b + 2, *std::max_element(min, min + 8) / 63.0f);
    uint8_t sc[8];
    uint8_t m[8];
    for (int s = 0; s < 8; ++s) {
        sc[s] = static_cast<uint8_t>(d > 0.0f ? round_clamp(scale[s] / d, 0, 63) : 0);
        m[s] = static_cast<uint8_t>(dmin > 0.0f ? round_clamp(min[s] / dmin, 0, 63) : 0);
        const float ds = d * static_cast<float>(sc[s]);
        const float ms = dmin * static_cast<float>(m[s]);
        for (int l = 0; l < 32; ++l) {
            const int i = 32 * s + l;
            q[i] = ds > 0.0f ? round_clamp((x[i] + ms) / ds, 0, levels - 1) : 0;
        }
    }
    pack_k_scales_mins(sc, m, b + 4);
}

// Low nibbles of sub-block 2c and high nibbles of sub-block 2c+1 share qs[32c .. 32c+31].
void pack_k_nibbles(const int q[256], uint8_t* qs) {
    for (int c = 0; c < 4; ++c) {
        for (int l = 0; l < 32; ++l) {
            qs[32 * c + l] = static_cast<uint8_t>((q[64 * c + l] & 15) | ((q[64 * c + 32 + l] & 15) << 4));
        }
    }
}

void quant_q4_k(const float* x, uint8_t* b) {
    int q[256];
    quant_k_4or5(x, 16, b, q);
    pack_k_nibbles(q, b + 16);
}

void quant_q5_k(const float* x, uint8_t* b) {
    int q[256];
    quant_k_4or5(x, 32, b, q);
    uint8_t* qh = b + 16;
    std::memset(qh, 0, 32);
    for (int i = 0; i < 256; ++i) qh[i % 32] = static_cast<uint8_t>(qh[i % 32] | (((q[i] >> 4) & 1) << (i / 32)));
    pack_k_nibbles(q, b + 48);
}

// Q6_K: per sub-block of 16 a signed scale mapping the extreme value to -32, quantised to int8
// against one fp16 super-scale; codes q + 32 in 0..63.
void quant_q6_k(const float* x, uint8_t* b) {
    float scale[16];
    float max_abs_scale = 0.0f;
    for (int s = 0; s < 16; ++s) {
        scale[s] = signed_absmax(x + 16 * s, 16) / -32.0f;
        max_abs_scale = std::max(max_abs_scale, std::fabs(scale[s]));
    }
    const float d = store_half(b + 208, max_abs_scale / 127.0f);
    int q[256];
    for (int s = 0; s < 16; ++s) {
        const int sc = d > 0.0f ? round_clamp(scale[s] / d, -127, 127) : 0;
        b[192 + s] = static_cast<uint8_t>(static_cast<int8_t>(sc));
        const float ds = d * static_cast<float>(sc);
        for (int l = 0; l < 16; ++l) {
            const int i = 16 * s + l;
            q[i] = (ds != 0.0f ? round_clamp(x[i] / ds, -32, 31) : 0) + 32;
        }
    }
    for (int h = 0; h < 2; ++h) {
        const int* qq = q + 128 * h;
        uint8_t* ql = b + 64 * h;
        uint8_t* qh = b + 128 + 32 * h;
        for (int l = 0; l < 32; ++l) {
            ql[l] = static_cast<uint8_t>((qq[l] & 15) | ((qq[l + 64] & 15) << 4));
            ql[l + 32] = static_cast<uint8_t>((qq[l + 32] & 15) | ((qq[l + 96] & 15) << 4));
            qh[l] = static_cast<uint8_t>((qq[l] >> 4) | ((qq[l + 32] >> 4) << 2) |
                                         ((qq[l + 64] >> 4) << 4) | ((qq[l + 96] >> 4) << 6));
        }
    }
}

template <class Fn>
void for_blocks(const float* src, uint8_t* dst, int64_t n, int values, int bytes, Fn fn) {
    for (int64_t b = 0; b < n / values; ++b) fn(src + b * values, dst + b * bytes);
}

} // namespace

void quantize_row(TensorType type, const float* src, uint8_t* dst, int64_t n) {
    switch (type) {
    case TensorType::F32:
        for (int64_t i = 0; i < n; ++i) store_le_f32(dst + 4 * i, src[i]);
        return;
    case TensorType::F16:
        for (int64_t i = 0; i < n; ++i) store_le16(dst + 2 * i, fp32_to_fp16(src[i]));
        return;
    case TensorType::BF16:
        for (int64_t i = 0; i < n; ++i) store_le16(dst + 2 * i, fp32_to_bf16(src[i]));
        return;
    case TensorType::Q4_0: return for_blocks(src, dst, n, kQK, kQ4_0Bytes, quant_q4_0);
    case TensorType::Q4_1: return for_blocks(src, dst, n, kQK, kQ4_1Bytes, quant_q4_1);
    case TensorType::Q5_0: return for_blocks(src, dst, n, kQK, kQ5_0Bytes, quant_q5_0);
    case TensorType::Q5_1: return for_blocks(src, dst, n, kQK, kQ5_1Bytes, quant_q5_1);
    case TensorType::Q8_0: return for_blocks(src, dst, n, kQK, kQ8_0Bytes, quant_q8_0);
    case TensorType::Q4_K: return for_blocks(src, dst, n, kQK_K, kQ4_KBytes, quant_q4_k);
    case TensorType::Q5_K: return for_blocks(src, dst, n, kQK_K, kQ5_KBytes, quant_q5_k);
    case TensorType::Q6_K: return for_blocks(src, dst, n, kQK_K, kQ6_KBytes, quant_q6_k);
    default: quantize_low_bit_row(type, src, dst, n); return; // or unsupported: the caller checks
    }
}

} // namespace octo
