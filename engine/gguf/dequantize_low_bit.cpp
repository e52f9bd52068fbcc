// Dequantisation of the low-bit weight types (quant_blocks.h), bit-exact with ggml's reference
// dequantisers: each scale and value is rounded to float32 in the same steps. Compiled with
// -ffp-contract=off, as dequantize.cpp (engine/CMakeLists.txt).
#include "engine/core/half.h"
#include "engine/core/le_bytes.h"
#include "engine/gguf/block_values.h"
#include "engine/gguf/dequantize.h"
#include "engine/gguf/quant_blocks.h"

namespace octo {

namespace {

using namespace qblock;

float load_half(const uint8_t* p) { return fp16_to_fp32(load_le16(p)); }

void dequant_q2_k(const uint8_t* b, float* y) {
    int8_t q[256];
    q2_k_values(b, q);
    const float d = load_half(b + 80);
    const float dmin = load_half(b + 82);
    for (int s = 0; s < 16; ++s) {
        const float dl = d * static_cast<float>(b[s] & 15);
        const float ml = dmin * static_cast<float>(b[s] >> 4);
        for (int i = 16 * s; i < 16 * s + 16; ++i) y[i] = dl * static_cast<float>(q[i]) - ml;
    }
}

void dequant_q3_k(const uint8_t* b, float* y) {
    int8_t q[256];
    q3_k_values(b, q);
    const float d = load_half(b + 108);
    for (int s = 0; s < 16; ++s) {
        const float dl = d * static_cast<float>(unpack_q3_k_scale(b + 96, s) - 32);
        for (int i = 16 * s; i < 16 * s + 16; ++i) y[i] = dl * static_cast<float>(q[i]);
    }
}

// TQ1_0 / TQ2_0: y = t * d.
template <void (*Values)(const uint8_t*, int8_t*), int kScaleAt>
void dequant_ternary(const uint8_t* b, float* y) {
    int8_t q[256];
    Values(b, q);
    const float d = load_half(b + kScaleAt);
    for (int i = 0; i < 256; ++i) y[i] = static_cast<float>(q[i]) * d;
}

void dequant_iq4_nl(const uint8_t* b, float* y) {
    int8_t q[32];
    iq4_values(b + 2, q);
    const float d = load_half(b);
    for (int i = 0; i < 32; ++i) y[i] = d * static_cast<float>(q[i]);
}

void dequant_iq4_xs(const uint8_t* b, float* y) {
    const float d = load_half(b);
    for (int s = 0; s < 8; ++s) {
        int8_t q[32];
        iq4_values(b + 8 + 16 * s, q);
        const float dl = d * static_cast<float>(iq4_xs_scale(b, s) - 32);
        for (int i = 0; i < 32; ++i) y[32 * s + i] = dl * static_cast<float>(q[i]);
    }
}

void dequant_mxfp4(const uint8_t* b, float* y) {
    int8_t q[32];
    mxfp4_values(b + 1, q);
    const float d = e8m0_half(b[0]);
    for (int i = 0; i < 32; ++i) y[i] = static_cast<float>(q[i]) * d;
}

// IQ2 / IQ3_XXS: y = (d * (0.5 + l4) * kFactor) * value, one scale per kGroup values.
template <int kGroup, int kScales>
void scaled_half_steps(const int8_t* q, const uint8_t* l4, float d, float factor, float* y) {
    for (int s = 0; s < kScales; ++s) {
        const float db = d * (0.5f + static_cast<float>(l4[s])) * factor;
        for (int i = kGroup * s; i < kGroup * (s + 1); ++i) y[i] = db * static_cast<float>(q[i]);
    }
}

template <void (*Values)(const uint8_t*, int8_t*, uint8_t*), int kScales>
void dequant_iq2(const uint8_t* b, float* y) {
    int8_t q[256];
    uint8_t l4[kScales];
    Values(b, q, l4);
    scaled_half_steps<256 / kScales, kScales>(q, l4, load_half(b), 0.25f, y);
}

void dequant_iq3_xxs(const uint8_t* b, float* y) {
    int8_t q[256];
    uint8_t l4[8];
    iq3_xxs_values(b, q, l4);
    scaled_half_steps<32, 8>(q, l4, load_half(b), 0.5f, y);
}

void dequant_iq3_s(const uint8_t* b, float* y) {
    int8_t q[256];
    uint8_t l4[8];
    iq3_s_values(b, q, l4);
    const float d = load_half(b);
    for (int s = 0; s < 8; ++s) {
        const float db = d * static_cast<float>(1 + 2 * l4[s]);
        for (int i = 32 * s; i < 32 * s + 32; ++i) y[i] = db * static_cast<float>(q[i]);
    }
}

// IQ1: y = (d * (2 * l3 + 1)) * (value ± 0.125), one scale per 256 / kScales values.
template <int kScales>
void iq1_steps(const int8_t* q, const uint8_t* l3, const int8_t* delta, float d, float* y) {
    constexpr int kPerScale = 256 / kScales;
    for (int i = 0; i < 256; ++i) {
        const float dl = d * static_cast<float>(2 * l3[i / kPerScale] + 1);
        const float shift = delta[i / 8] < 0 ? -0.125f : 0.125f;
        y[i] = dl * (static_cast<float>(q[i]) + shift);
    }
}

void dequant_iq1_s(const uint8_t* b, float* y) {
    int8_t q[256];
    uint8_t l3[8];
    int8_t delta[32];
    iq1_s_values(b, q, l3, delta);
    iq1_steps<8>(q, l3, delta, load_half(b), y);
}

void dequant_iq1_m(const uint8_t* b, float* y) {
    int8_t q[256];
    uint8_t l3[16];
    int8_t delta[32];
    iq1_m_values(b, q, l3, delta);
    iq1_steps<16>(q, l3, delta, fp16_to_fp32(iq1_m_scale_bits(b)), y);
}

template <class Fn>
void for_blocks(const uint8_t* src, float* dst, int64_t n, int values, int bytes, Fn fn) {
    for (int64_t b = 0; b < n / values; ++b) fn(src + b * bytes, dst + b * values);
}

} // namespace

bool dequantize_low_bit_row(TensorType type, const uint8_t* src, float* dst, int64_t n) {
    switch (type) {
    case TensorType::Q2_K: for_blocks(src, dst, n, kQK_K, kQ2_KBytes, dequant_q2_k); return true;
    case TensorType::Q3_K: for_blocks(src, dst, n, kQK_K, kQ3_KBytes, dequant_q3_k); return true;
    case TensorType::TQ1_0: for_blocks(src, dst, n, kQK_K, kTQ1_0Bytes, dequant_ternary<tq1_0_values, 52>); return true;
    case TensorType::TQ2_0: for_blocks(src, dst, n, kQK_K, kTQ2_0Bytes, dequant_ternary<tq2_0_values, 64>); return true;
    case TensorType::IQ4_NL: for_blocks(src, dst, n, kQK, kIQ4_NLBytes, dequant_iq4_nl); return true;
    case TensorType::IQ4_XS: for_blocks(src, dst, n, kQK_K, kIQ4_XSBytes, dequant_iq4_xs); return true;
    case TensorType::MXFP4: for_blocks(src, dst, n, kQK, kMXFP4Bytes, dequant_mxfp4); return true;
    case TensorType::IQ2_XXS: for_blocks(src, dst, n, kQK_K, kIQ2_XXSBytes, dequant_iq2<iq2_xxs_values, 8>); return true;
    case TensorType::IQ2_XS: for_blocks(src, dst, n, kQK_K, kIQ2_XSBytes, dequant_iq2<iq2_xs_values, 16>); return true;
    case TensorType::IQ2_S: for_blocks(src, dst, n, kQK_K, kIQ2_SBytes, dequant_iq2<iq2_s_values, 16>); return true;
    case TensorType::IQ3_XXS: for_blocks(src, dst, n, kQK_K, kIQ3_XXSBytes, dequant_iq3_xxs); return true;
    case TensorType::IQ3_S: for_blocks(src, dst, n, kQK_K, kIQ3_SBytes, dequant_iq3_s); return true;
    case TensorType::IQ1_S: for_blocks(src, dst, n, kQK_K, kIQ1_SBytes, dequant_iq1_s); return true;
    case TensorType::IQ1_M: for_blocks(src, dst, n, kQK_K, kIQ1_MBytes, dequant_iq1_m); return true;
    default: return false;
    }
}

} // namespace octo
