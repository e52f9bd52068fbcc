// Reference integer kernels of the low-bit weight types (quant_blocks.h), one (row, token) dot
// product at a time: each block's values unpacked (block_values.h), their integer products with
// the quantised activations summed exactly, and the block's float terms taken in the reference's
// steps (the scale products, then per-block sums added left to right, then the type's constant
// factor). Activations: Q8_0 blocks for IQ4_NL and MXFP4, Q8_K for the others (activation_quant.h).

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/backend/cpu/scalar_rows.h"
#include "engine/core/half.h"
#include "engine/gguf/block_values.h"
#include "engine/gguf/quant_blocks.h"

namespace octo {

namespace {

using namespace qblock;

inline int dot(const int8_t* q, const int8_t* x, int n) {
    int sum = 0;
    for (int j = 0; j < n; ++j) sum += q[j] * x[j];
    return sum;
}

// Σ over groups g of scale(g) · (q · x over the group's kLen values), exactly.
template <int kLen, int kGroups, class Scale>
inline int scaled_sum(const int8_t* q, const int8_t* x, Scale scale) {
    int sum = 0;
    for (int g = 0; g < kGroups; ++g) sum += scale(g) * dot(q + kLen * g, x + kLen * g, kLen);
    return sum;
}

float dot_q2_k(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kQ2_KBytes) {
        int8_t q[256];
        q2_k_values(w, q);
        int mins = 0;
        for (int s = 0; s < 16; ++s) mins += x[b].bsums[s] * (w[s] >> 4);
        const int isum = scaled_sum<16, 16>(q, x[b].qs, [w](int s) { return w[s] & 15; });
        const float dall = x[b].d * half_at(w + 80);
        const float dmin = x[b].d * half_at(w + 82);
        sum += dall * static_cast<float>(isum) - dmin * static_cast<float>(mins);
    }
    return sum;
}

float dot_q3_k(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kQ3_KBytes) {
        int8_t q[256];
        q3_k_values(w, q);
        const int isum = scaled_sum<16, 16>(q, x[b].qs, [w](int s) { return unpack_q3_k_scale(w + 96, s) - 32; });
        sum += half_at(w + 108) * x[b].d * static_cast<float>(isum);
    }
    return sum;
}

template <void (*Values)(const uint8_t*, int8_t*), int kBytes, int kScaleAt>
float dot_ternary(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kBytes) {
        int8_t q[256];
        Values(w, q);
        sum += static_cast<float>(dot(q, x[b].qs, 256)) * (half_at(w + kScaleAt) * x[b].d);
    }
    return sum;
}

float dot_iq4_nl(const uint8_t* w, const ActQ8_0* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kIQ4_NLBytes) {
        int8_t q[32];
        iq4_values(w + 2, q);
        sum += x[b].d * half_at(w) * static_cast<float>(dot(q, x[b].qs, 32));
    }
    return sum;
}

float dot_mxfp4(const uint8_t* w, const ActQ8_0* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kMXFP4Bytes) {
        int8_t q[32];
        mxfp4_values(w + 1, q);
        const float d = x[b].d * e8m0_half(w[0]);
        sum += d * static_cast<float>(dot(q, x[b].qs, 32));
    }
    return sum;
}

float dot_iq4_xs(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kIQ4_XSBytes) {
        const float d = half_at(w) * x[b].d;
        for (int s = 0; s < 8; ++s) {
            int8_t q[32];
            iq4_values(w + 8 + 16 * s, q);
            sum += d * static_cast<float>(iq4_xs_scale(w, s) - 32) * static_cast<float>(dot(q, x[b].qs + 32 * s, 32));
        }
    }
    return sum;
}

// IQ2_* / IQ3_*: kEighths/8 · Σ over blocks of d_w·d_x · Σ_g (2·l4[g] + 1)·(q·x). (An integer
// parameter: clang 14, which builds the fuzz targets, takes no float template parameters.)
template <void (*Values)(const uint8_t*, int8_t*, uint8_t*), int kBytes, int kScales, int kEighths>
float dot_lattice(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kBytes) {
        int8_t q[256];
        uint8_t l4[kScales];
        Values(w, q, l4);
        const int isum = scaled_sum<256 / kScales, kScales>(q, x[b].qs, [&l4](int g) { return 2 * l4[g] + 1; });
        sum += half_at(w) * x[b].d * static_cast<float>(isum);
    }
    constexpr float kFactor = 0.125f * static_cast<float>(kEighths); // exact: 1/8, 1/4 or 1
    return kFactor * sum; // the reference's last step
}

// IQ1: d · d_x · (Σ_g ls·(q·x) + 0.125 · Σ_g ls·delta·(Σ x)), ls = 2·l3 + 1.
template <void (*Values)(const uint8_t*, int8_t*, uint8_t*, int8_t*), int kBytes, int kScales>
float dot_iq1(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    constexpr int kPerScale = 256 / kScales;
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kBytes) {
        int8_t q[256];
        uint8_t l3[kScales];
        int8_t delta[32];
        Values(w, q, l3, delta);
        int sumi = 0;
        int sumi_delta = 0;
        for (int g = 0; g < 32; ++g) {
            const int ls = 2 * l3[8 * g / kPerScale] + 1;
            int xsum = 0;
            for (int j = 0; j < 8; ++j) xsum += x[b].qs[8 * g + j];
            sumi += ls * dot(q + 8 * g, x[b].qs + 8 * g, 8);
            sumi_delta += ls * delta[g] * xsum;
        }
        const float d = kScales == 8 ? half_at(w) : fp16_to_fp32(iq1_m_scale_bits(w));
        sum += d * x[b].d * (static_cast<float>(sumi) + 0.125f * static_cast<float>(sumi_delta));
    }
    return sum;
}

} // namespace

QuantKernel low_bit_quant_matmul_kernel(TensorType type) {
    switch (type) {
    case TensorType::Q2_K: return {scalar_rows<ActQ8_K, dot_q2_k, 256>};
    case TensorType::Q3_K: return {scalar_rows<ActQ8_K, dot_q3_k, 256>};
    case TensorType::TQ1_0: return {scalar_rows<ActQ8_K, dot_ternary<tq1_0_values, kTQ1_0Bytes, 52>, 256>};
    case TensorType::TQ2_0: return {scalar_rows<ActQ8_K, dot_ternary<tq2_0_values, kTQ2_0Bytes, 64>, 256>};
    case TensorType::IQ4_NL: return {scalar_rows<ActQ8_0, dot_iq4_nl, 32>};
    case TensorType::MXFP4: return {scalar_rows<ActQ8_0, dot_mxfp4, 32>};
    case TensorType::IQ4_XS: return {scalar_rows<ActQ8_K, dot_iq4_xs, 256>};
    case TensorType::IQ2_XXS: return {scalar_rows<ActQ8_K, dot_lattice<iq2_xxs_values, kIQ2_XXSBytes, 8, 1>, 256>};
    case TensorType::IQ2_XS: return {scalar_rows<ActQ8_K, dot_lattice<iq2_xs_values, kIQ2_XSBytes, 16, 1>, 256>};
    case TensorType::IQ2_S: return {scalar_rows<ActQ8_K, dot_lattice<iq2_s_values, kIQ2_SBytes, 16, 1>, 256>};
    case TensorType::IQ3_XXS: return {scalar_rows<ActQ8_K, dot_lattice<iq3_xxs_values, kIQ3_XXSBytes, 8, 2>, 256>};
    case TensorType::IQ3_S: return {scalar_rows<ActQ8_K, dot_lattice<iq3_s_values, kIQ3_SBytes, 8, 8>, 256>};
    case TensorType::IQ1_S: return {scalar_rows<ActQ8_K, dot_iq1<iq1_s_values, kIQ1_SBytes, 8>, 256>};
    case TensorType::IQ1_M: return {scalar_rows<ActQ8_K, dot_iq1<iq1_m_values, kIQ1_MBytes, 16>, 256>};
    default: return {};
    }
}

} // namespace octo
