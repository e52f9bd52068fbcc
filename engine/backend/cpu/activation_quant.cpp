#include "engine/backend/cpu/activation_quant.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/core/half.h"

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

} // namespace

ActivationFormat activation_format(TensorType weight) {
    switch (weight) {
    case TensorType::F16: return ActivationFormat::F16;
    case TensorType::BF16: return ActivationFormat::BF16;
    case TensorType::Q4_0:
    case TensorType::Q5_0:
    case TensorType::Q8_0: return ActivationFormat::Q8_0;
    case TensorType::Q4_1:
    case TensorType::Q5_1: return ActivationFormat::Q8_1;
    case TensorType::Q4_K:
    case TensorType::Q5_K:
    case TensorType::Q6_K: return ActivationFormat::Q8_K;
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
    switch (format) {
    case ActivationFormat::Q8_0: quantize_q8_0(x, static_cast<ActQ8_0*>(dst), n); break;
    case ActivationFormat::Q8_1: quantize_q8_1(x, static_cast<ActQ8_1*>(dst), n); break;
    case ActivationFormat::Q8_K: quantize_q8_k(x, static_cast<ActQ8_K*>(dst), n); break;
    default: break;
    }
}

void round_activation_row(ActivationFormat format, const float* x, float* dst, int64_t n) {
    if (format == ActivationFormat::F16) {
        for (int64_t i = 0; i < n; ++i) dst[i] = fp16_round(x[i]);
    } else if (format == ActivationFormat::BF16) {
        for (int64_t i = 0; i < n; ++i) dst[i] = bf16_round(x[i]);
    } else if (dst != x) {
        std::copy_n(x, n, dst);
    }
}

} // namespace octo
