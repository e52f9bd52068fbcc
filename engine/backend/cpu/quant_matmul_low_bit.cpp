// Reference integer kernels of the low-bit weight types (quant_blocks.h), one (row, token) dot
// product at a time, in the float order of llama.cpp c392e50's x86 kernels for these types (the
// AVX2 code, which its AVX-512 builds run too). Activations: Q8_0 blocks for IQ4_NL and MXFP4,
// Q8_K for the others (activation_quant.h).
//
// Those kernels form eight integer lanes per block: lane i holds the products of values 4i..4i+3
// of every 32-value chunk, each chunk weighted by its (16- or 32-value) scale; the lanes are
// exact. The float steps are then, per block b,
//   acc[i] = fma(d_b, float(lane_i), acc[i])        d_b = the two scales' product
// and at the end ((a0 + a4) + (a2 + a6)) + ((a1 + a5) + (a3 + a7)), times the type's constant.
// The exceptions are written at each type: Q2_K's min term (its own lanes, added first), IQ1's
// delta terms, TQ1_0 / TQ2_0's lanes, IQ4_NL / MXFP4's two accumulators (even and odd
// blocks) with a lone last block added after the reduction, and IQ4_NL's tiled product for a
// batch of tokens (one accumulator).

#include <cmath>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/backend/cpu/scalar_rows.h"
#include "engine/core/half.h"
#include "engine/gguf/block_values.h"
#include "engine/gguf/quant_blocks.h"

namespace octo {

namespace {

using namespace qblock;

// Eight int32 lanes and eight float lanes.
struct IntLanes {
    int32_t v[8] = {};
};

struct FloatLanes {
    float v[8] = {};
    void fma(float d, const IntLanes& lanes) {
        for (int i = 0; i < 8; ++i) v[i] = std::fma(d, static_cast<float>(lanes.v[i]), v[i]);
    }
    float sum() const { return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7])); }
};

// lanes[(v % 32) / 4] += scale(v / 16) · q[v]·x[v] for the n values (a multiple of 32), the
// products of each group of four summed first (they are exact either way).
template <class Scale16>
inline void add_lanes(const int8_t* q, const int8_t* x, int n, Scale16 scale16, IntLanes& lanes) {
    for (int v = 0; v < n; v += 4) {
        const int four = q[v] * x[v] + q[v + 1] * x[v + 1] + q[v + 2] * x[v + 2] + q[v + 3] * x[v + 3];
        lanes.v[(v % 32) / 4] += scale16(v / 16) * four;
    }
}

inline IntLanes plain_lanes(const int8_t* q, const int8_t* x, int n) {
    IntLanes lanes;
    add_lanes(q, x, n, [](int) { return 1; }, lanes);
    return lanes;
}

float dot_q2_k(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    FloatLanes acc;
    for (int64_t b = 0; b < nb; ++b, w += kQ2_KBytes) {
        const float d = x[b].d * half_at(w + 80);
        const float dmin = -x[b].d * half_at(w + 82);
        IntLanes mins; // lane i: the minimums of 16-value groups 2i and 2i + 1 times their sums
        for (int i = 0; i < 8; ++i) {
            mins.v[i] = (w[2 * i] >> 4) * x[b].bsums[2 * i] + (w[2 * i + 1] >> 4) * x[b].bsums[2 * i + 1];
        }
        acc.fma(dmin, mins);
        int8_t q[256];
        q2_k_values(w, q);
        IntLanes lanes;
        add_lanes(q, x[b].qs, 256, [w](int g) { return w[g] & 15; }, lanes);
        acc.fma(d, lanes);
    }
    return acc.sum();
}

float dot_q3_k(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    FloatLanes acc;
    for (int64_t b = 0; b < nb; ++b, w += kQ3_KBytes) {
        int8_t q[256];
        q3_k_values(w, q);
        IntLanes lanes;
        add_lanes(q, x[b].qs, 256, [w](int g) { return unpack_q3_k_scale(w + 96, g) - 32; }, lanes);
        acc.fma(x[b].d * half_at(w + 108), lanes);
    }
    return acc.sum();
}

// TQ1_0 / TQ2_0: the lanes of the unsigned digits (value + 1) less, in lane i, the activations'
// sum over values 32i..32i + 31. (The reference writes a product, then an add; its build fuses
// them.)
template <void (*Values)(const uint8_t*, int8_t*), int kBytes, int kScaleAt>
float dot_ternary(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    FloatLanes acc;
    for (int64_t b = 0; b < nb; ++b, w += kBytes) {
        int8_t q[256];
        Values(w, q);
        IntLanes lanes = plain_lanes(q, x[b].qs, 256);
        for (int v = 0; v < 256; ++v) lanes.v[(v % 32) / 4] += x[b].qs[v];
        for (int i = 0; i < 8; ++i) lanes.v[i] -= x[b].bsums[2 * i] + x[b].bsums[2 * i + 1];
        acc.fma(x[b].d * half_at(w + kScaleAt), lanes);
    }
    return acc.sum();
}

// IQ4_NL / MXFP4 (32-value blocks, Q8_0 activations): the reference's dot product keeps two
// accumulators, even and odd blocks, reduces their sum, then adds a lone last block by one fused
// step; its tiled product (IQ4_NL, a batch of tokens) keeps one accumulator for every block.
template <bool kMxfp4>
inline void block4_lanes(const uint8_t* w, const ActQ8_0& x, float& d, IntLanes& lanes) {
    int8_t q[32];
    if constexpr (kMxfp4) {
        mxfp4_values(w + 1, q);
        d = x.d * e8m0_half(w[0]);
    } else {
        iq4_values(w + 2, q);
        d = x.d * half_at(w);
    }
    lanes = plain_lanes(q, x.qs, 32);
}

template <bool kMxfp4>
float dot_block4(const uint8_t* w, const ActQ8_0* x, int64_t nb) {
    constexpr int kBytes = kMxfp4 ? kMXFP4Bytes : kIQ4_NLBytes;
    FloatLanes even, odd;
    float d = 0.0f;
    IntLanes lanes;
    int64_t b = 0;
    for (; b + 1 < nb; b += 2) {
        block4_lanes<kMxfp4>(w + b * kBytes, x[b], d, lanes);
        even.fma(d, lanes);
        block4_lanes<kMxfp4>(w + (b + 1) * kBytes, x[b + 1], d, lanes);
        odd.fma(d, lanes);
    }
    FloatLanes both;
    for (int i = 0; i < 8; ++i) both.v[i] = even.v[i] + odd.v[i];
    float sum = both.sum();
    if (b < nb) { // a lone last block
        block4_lanes<kMxfp4>(w + b * kBytes, x[b], d, lanes);
        int sumi = 0;
        for (int i = 0; i < 8; ++i) sumi += lanes.v[i];
        sum = std::fma(d, static_cast<float>(sumi), sum);
    }
    return sum;
}

float dot_iq4_nl_tiled(const uint8_t* w, const ActQ8_0* x, int64_t nb) {
    FloatLanes acc;
    float d = 0.0f;
    IntLanes lanes;
    for (int64_t b = 0; b < nb; ++b, w += kIQ4_NLBytes) {
        block4_lanes<false>(w, x[b], d, lanes);
        acc.fma(d, lanes);
    }
    return acc.sum();
}

float dot_iq4_xs(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    FloatLanes acc;
    for (int64_t b = 0; b < nb; ++b, w += kIQ4_XSBytes) {
        int8_t q[256];
        for (int s = 0; s < 8; ++s) iq4_values(w + 8 + 16 * s, q + 32 * s);
        IntLanes lanes;
        add_lanes(q, x[b].qs, 256, [w](int g) { return iq4_xs_scale(w, g / 2) - 32; }, lanes);
        acc.fma(half_at(w) * x[b].d, lanes);
    }
    return acc.sum();
}

// IQ2_* / IQ3_*: scales 2·l4 + 1 (per 32 or 16 values), the sum times kEighths/8 at the end. (An
// integer parameter: clang 14, which builds the fuzz targets, takes no float template parameters.)
template <void (*Values)(const uint8_t*, int8_t*, uint8_t*), int kBytes, int kScales, int kEighths>
float dot_lattice(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    constexpr int kGroupsPerScale = 16 / kScales; // 16-value groups per scale
    FloatLanes acc;
    for (int64_t b = 0; b < nb; ++b, w += kBytes) {
        int8_t q[256];
        uint8_t l4[kScales];
        Values(w, q, l4);
        IntLanes lanes;
        add_lanes(q, x[b].qs, 256, [&l4](int g) { return 2 * l4[g / kGroupsPerScale] + 1; }, lanes);
        acc.fma(half_at(w) * x[b].d, lanes);
    }
    constexpr float kFactor = 0.125f * static_cast<float>(kEighths); // exact: 1/8, 1/4 or 1
    return kFactor * acc.sum();
}

// IQ1_S: the points' lanes; the deltas (±1 per 32 values) as one integer per super-block,
// Σ_g ls·delta·(Σ x over g), added to a float by one fused step; sum + 0.125 · that float.
float dot_iq1_s(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    FloatLanes acc;
    float delta_acc = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kIQ1_SBytes) {
        int8_t q[256];
        uint8_t l3[8];
        int8_t delta[32];
        iq1_s_values(w, q, l3, delta);
        IntLanes lanes;
        add_lanes(q, x[b].qs, 256, [&l3](int g) { return 2 * l3[g / 2] + 1; }, lanes);
        int sumi_delta = 0;
        for (int s = 0; s < 8; ++s) {
            sumi_delta += (x[b].bsums[2 * s] + x[b].bsums[2 * s + 1]) * delta[4 * s] * (2 * l3[s] + 1);
        }
        const float d = x[b].d * half_at(w);
        acc.fma(d, lanes);
        delta_acc = std::fma(d, static_cast<float>(sumi_delta), delta_acc);
    }
    return acc.sum() + 0.125f * delta_acc;
}

// IQ1_M: the points' lanes and the deltas' lanes (±1 per 8 values, scaled per 16) in two
// accumulators; sum + 0.125 · delta sum.
float dot_iq1_m(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    FloatLanes acc;
    FloatLanes delta_acc;
    for (int64_t b = 0; b < nb; ++b, w += kIQ1_MBytes) {
        int8_t q[256];
        uint8_t l3[16];
        int8_t delta[32];
        iq1_m_values(w, q, l3, delta);
        int8_t deltas[256];
        for (int v = 0; v < 256; ++v) deltas[v] = delta[v / 8];
        const auto scale = [&l3](int g) { return 2 * l3[g] + 1; };
        IntLanes lanes;
        IntLanes delta_lanes;
        add_lanes(q, x[b].qs, 256, scale, lanes);
        add_lanes(deltas, x[b].qs, 256, scale, delta_lanes);
        const float d = x[b].d * fp16_to_fp32(iq1_m_scale_bits(w));
        acc.fma(d, lanes);
        delta_acc.fma(d, delta_lanes);
    }
    return acc.sum() + 0.125f * delta_acc.sum();
}

// IQ4_NL's rows: the tiled order for the tokens the reference multiplies in a batch (the
// matrix is reference_tiled and batched[t] is set), the dot product's order otherwise.
void iq4_nl_rows(const QuantMatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    const int64_t nb = w.n_in / 32;
    for (int64_t r = row_begin; r < row_end; ++r) {
        const uint8_t* row = w.data + static_cast<uint64_t>(r) * w.row_bytes;
        for (int64_t t = 0; t < a.n_tokens; ++t) {
            const auto* x = reinterpret_cast<const ActQ8_0*>(a.xq + t * a.xq_row_bytes);
            const bool tiled = w.reference_tiled && a.batched != nullptr && a.batched[t] != 0;
            a.y[t * w.n_out + r] = tiled ? dot_iq4_nl_tiled(row, x, nb) : dot_block4<false>(row, x, nb);
        }
    }
}

} // namespace

QuantKernel low_bit_quant_matmul_kernel(TensorType type) {
    switch (type) {
    case TensorType::Q2_K: return {scalar_rows<ActQ8_K, dot_q2_k, 256>};
    case TensorType::Q3_K: return {scalar_rows<ActQ8_K, dot_q3_k, 256>};
    case TensorType::TQ1_0: return {scalar_rows<ActQ8_K, dot_ternary<tq1_0_values, kTQ1_0Bytes, 52>, 256>};
    case TensorType::TQ2_0: return {scalar_rows<ActQ8_K, dot_ternary<tq2_0_values, kTQ2_0Bytes, 64>, 256>};
    case TensorType::IQ4_NL: return {iq4_nl_rows};
    case TensorType::MXFP4: return {scalar_rows<ActQ8_0, dot_block4<true>, 32>};
    case TensorType::IQ4_XS: return {scalar_rows<ActQ8_K, dot_iq4_xs, 256>};
    case TensorType::IQ2_XXS: return {scalar_rows<ActQ8_K, dot_lattice<iq2_xxs_values, kIQ2_XXSBytes, 8, 1>, 256>};
    case TensorType::IQ2_XS: return {scalar_rows<ActQ8_K, dot_lattice<iq2_xs_values, kIQ2_XSBytes, 16, 1>, 256>};
    case TensorType::IQ2_S: return {scalar_rows<ActQ8_K, dot_lattice<iq2_s_values, kIQ2_SBytes, 16, 1>, 256>};
    case TensorType::IQ3_XXS: return {scalar_rows<ActQ8_K, dot_lattice<iq3_xxs_values, kIQ3_XXSBytes, 8, 2>, 256>};
    case TensorType::IQ3_S: return {scalar_rows<ActQ8_K, dot_lattice<iq3_s_values, kIQ3_SBytes, 8, 8>, 256>};
    case TensorType::IQ1_S: return {scalar_rows<ActQ8_K, dot_iq1_s, 256>};
    case TensorType::IQ1_M: return {scalar_rows<ActQ8_K, dot_iq1_m, 256>};
    default: return {};
    }
}

} // namespace octo
