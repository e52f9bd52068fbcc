// Steps shared by the quantisers (quantize.cpp, quantize_low_bit.cpp). Internal to engine/gguf.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "engine/core/half.h"
#include "engine/core/le_bytes.h"

namespace octo::qstep {

// Stores a scale as fp16 and returns the value the decoder will see.
inline float store_half(uint8_t* p, float v) {
    const uint16_t h = fp32_to_fp16(v);
    store_le16(p, h);
    return fp16_to_fp32(h);
}

inline int round_clamp(float v, int lo, int hi) { return std::clamp(static_cast<int>(std::lround(v)), lo, hi); }

// The value of largest magnitude (sign kept) among x[0..n).
inline float signed_absmax(const float* x, int n) {
    float best = 0.0f;
    for (int i = 0; i < n; ++i) {
        if (std::fabs(x[i]) > std::fabs(best)) best = x[i];
    }
    return best;
}

} // namespace octo::qstep
