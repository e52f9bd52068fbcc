// Reference integer kernels: one (row, token) dot product at a time, block by block, the
// integer products of each block summed exactly and the block's float terms added left to right.
#include <cmath>
#include <cstring>
#include <type_traits>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/backend/cpu/scalar_rows.h"
#include "engine/core/half.h"
#include "engine/gguf/quant_blocks.h"

namespace octo {

namespace {

using namespace qblock;


// The 32 values of a Q4_0/Q4_1 block as 0..15, in value order.
inline void nibbles32(const uint8_t* qs, int q[32]) {
    for (int j = 0; j < 16; ++j) {
        q[j] = qs[j] & 15;
        q[j + 16] = qs[j] >> 4;
    }
}

// The 32 values of a Q5_0/Q5_1 block as 0..31.
inline void five_bit32(const uint8_t* qh_bytes, const uint8_t* qs, int q[32]) {
    uint32_t qh;
    std::memcpy(&qh, qh_bytes, 4);
    nibbles32(qs, q);
    for (int j = 0; j < 32; ++j) q[j] |= static_cast<int>((qh >> j) & 1u) << 4;
}

inline int dot32(const int q[32], const int8_t* x) {
    int sum = 0;
    for (int j = 0; j < 32; ++j) sum += q[j] * x[j];
    return sum;
}

float dot_q8_0(const uint8_t* w, const ActQ8_0* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kQ8_0Bytes) {
        int sumi = 0;
        for (int j = 0; j < 32; ++j) sumi += static_cast<int8_t>(w[2 + j]) * x[b].qs[j];
        sum += half_at(w) * x[b].d * static_cast<float>(sumi);
    }
    return sum;
}

// Q4_0 / Q5_0 (value = q - offset, Q8_0 activations) and Q4_1 / Q5_1 (value = d·q + m, Q8_1
// activations: the block adds d·dx·Σ q·x + m·s).
template <bool kFifthBit, bool kMin>
float dot_q45(const uint8_t* w, const std::conditional_t<kMin, ActQ8_1, ActQ8_0>* x, int64_t nb) {
    constexpr int kBytes = kFifthBit ? (kMin ? kQ5_1Bytes : kQ5_0Bytes) : (kMin ? kQ4_1Bytes : kQ4_0Bytes);
    constexpr int kHead = kMin ? 4 : 2; // d (and m) before qh / qs
    float sum = 0.0f;
    int q[32];
    for (int64_t b = 0; b < nb; ++b, w += kBytes) {
        if constexpr (kFifthBit) {
            five_bit32(w + kHead, w + kHead + 4, q);
        } else {
            nibbles32(w + kHead, q);
        }
        if constexpr (kMin) {
            sum += half_at(w) * x[b].d * static_cast<float>(dot32(q, x[b].qs)) + half_at(w + 2) * x[b].s;
        } else {
            for (int& v : q) v -= kFifthBit ? 16 : 8;
            sum += half_at(w) * x[b].d * static_cast<float>(dot32(q, x[b].qs));
        }
    }
    return sum;
}

// Q4_0 as the reference's repacked kernels add it: one fused step per block.
float dot_q4_0_blockwise(const uint8_t* w, const ActQ8_0* x, int64_t nb) {
    float sum = 0.0f;
    int q[32];
    for (int64_t b = 0; b < nb; ++b, w += kQ4_0Bytes) {
        nibbles32(w + 2, q);
        for (int& v : q) v -= 8;
        sum = std::fma(static_cast<float>(dot32(q, x[b].qs)), half_at(w) * x[b].d, sum);
    }
    return sum;
}

// Q4_K / Q5_K: Σ_s sc[s] Σ q·x  and  Σ_s m[s] (bsums of sub-block s) per super-block.
template <bool kFifthBit>
float dot_q45_k(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    constexpr int kBytes = kFifthBit ? kQ5_KBytes : kQ4_KBytes;
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kBytes) {
        const uint8_t* qs = w + (kFifthBit ? 48 : 16);
        int sumi = 0;
        int summ = 0;
        for (int s = 0; s < 8; ++s) {
            int sc = 0, mn = 0;
            unpack_k_scale_min(w + 4, s, sc, mn);
            int q[32];
            for (int l = 0; l < 32; ++l) {
                q[l] = (qs[32 * (s / 2) + l] >> (4 * (s % 2))) & 15;
                if constexpr (kFifthBit) q[l] |= ((w[16 + l] >> s) & 1) << 4;
            }
            sumi += sc * dot32(q, x[b].qs + 32 * s);
            summ += mn * (x[b].bsums[2 * s] + x[b].bsums[2 * s + 1]);
        }
        sum += half_at(w) * x[b].d * static_cast<float>(sumi) - half_at(w + 2) * x[b].d * static_cast<float>(summ);
    }
    return sum;
}

float dot_q6_k(const uint8_t* w, const ActQ8_K* x, int64_t nb) {
    float sum = 0.0f;
    for (int64_t b = 0; b < nb; ++b, w += kQ6_KBytes) {
        const auto* scales = reinterpret_cast<const int8_t*>(w + 192);
        int sumi = 0;
        for (int h = 0; h < 2; ++h) {
            const uint8_t* ql = w + 64 * h;
            const uint8_t* qh = w + 128 + 32 * h;
            int q[128];
            for (int l = 0; l < 32; ++l) {
                q[l] = ((ql[l] & 15) | ((qh[l] >> 0) & 3) << 4) - 32;
                q[l + 32] = ((ql[l + 32] & 15) | ((qh[l] >> 2) & 3) << 4) - 32;
                q[l + 64] = ((ql[l] >> 4) | ((qh[l] >> 4) & 3) << 4) - 32;
                q[l + 96] = ((ql[l + 32] >> 4) | ((qh[l] >> 6) & 3) << 4) - 32;
            }
            for (int g = 0; g < 8; ++g) {
                int part = 0;
                for (int i = 0; i < 16; ++i) part += q[16 * g + i] * x[b].qs[128 * h + 16 * g + i];
                sumi += scales[8 * h + g] * part;
            }
        }
        sum += half_at(w + 208) * x[b].d * static_cast<float>(sumi);
    }
    return sum;
}

} // namespace

QuantKernel scalar_q4_0_blockwise_kernel() { return {scalar_rows<ActQ8_0, dot_q4_0_blockwise, 32>}; }

QuantKernel scalar_quant_matmul_kernel(TensorType type) {
    switch (type) {
    case TensorType::Q8_0: return {scalar_rows<ActQ8_0, dot_q8_0, 32>};
    case TensorType::Q4_0: return {scalar_rows<ActQ8_0, dot_q45<false, false>, 32>};
    case TensorType::Q5_0: return {scalar_rows<ActQ8_0, dot_q45<true, false>, 32>};
    case TensorType::Q4_1: return {scalar_rows<ActQ8_1, dot_q45<false, true>, 32>};
    case TensorType::Q5_1: return {scalar_rows<ActQ8_1, dot_q45<true, true>, 32>};
    case TensorType::Q4_K: return {scalar_rows<ActQ8_K, dot_q45_k<false>, 256>};
    case TensorType::Q5_K: return {scalar_rows<ActQ8_K, dot_q45_k<true>, 256>};
    case TensorType::Q6_K: return {scalar_rows<ActQ8_K, dot_q6_k, 256>};
    default: return low_bit_quant_matmul_kernel(type);
    }
}

} // namespace octo
