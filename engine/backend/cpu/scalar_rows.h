// The row loop and the fp16 field reader of the scalar integer kernels (quant_matmul_scalar.cpp,
// quant_matmul_low_bit.cpp): y[t, r] = Dot(weight row r, activation row t) for each row and
// token, one at a time. Internal to engine/backend/cpu.
#pragma once

#include <cstdint>
#include <cstring>

#include "engine/backend/cpu/quant_matmul.h"
#include "engine/core/half.h"

namespace octo {

// The fp16 field at p, widened.
inline float half_at(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return fp16_to_fp32(h);
}

template <class Act, float (*Dot)(const uint8_t*, const Act*, int64_t), int kBlock>
void scalar_rows(const QuantMatmulArgs& a, int64_t row_begin, int64_t row_end) {
    const WeightMatrix& w = *a.w;
    const int64_t nb = w.n_in / kBlock;
    for (int64_t r = row_begin; r < row_end; ++r) {
        const uint8_t* row = w.data + static_cast<uint64_t>(r) * w.row_bytes;
        for (int64_t t = 0; t < a.n_tokens; ++t) {
            const auto* x = reinterpret_cast<const Act*>(a.xq + t * a.xq_row_bytes);
            a.y[t * w.n_out + r] = Dot(row, x, nb);
        }
    }
}

} // namespace octo
