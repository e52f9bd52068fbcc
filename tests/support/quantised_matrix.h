// A random weight matrix W[n_out, n_in] with values uniform in [-1, 1], quantised to a weight type
// with the engine's quantiser, kept with its dequantised values: the operand of the matrix-product
// kernel tests.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/backend/backend.h"

namespace octo::test {

struct QuantisedMatrix {
    std::vector<uint8_t> bytes; // [n_out][row_bytes]
    std::vector<float> dequant; // [n_out, n_in]
    WeightMatrix w;             // points into bytes
};

QuantisedMatrix make_quantised_matrix(TensorType type, int64_t n_in, int64_t n_out, uint32_t seed);

} // namespace octo::test
