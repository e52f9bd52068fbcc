#include "tests/support/quantised_matrix.h"

#include <random>

#include "engine/gguf/dequantize.h"
#include "engine/gguf/quantize.h"

namespace octo::test {

QuantisedMatrix make_quantised_matrix(TensorType type, int64_t n_in, int64_t n_out, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> values(static_cast<size_t>(n_in * n_out));
    for (float& v : values) v = dist(rng);
    QuantisedMatrix m;
    const uint64_t row_bytes = *tensor_row_bytes(*tensor_type_info(static_cast<uint32_t>(type)), n_in);
    m.bytes.resize(row_bytes * static_cast<uint64_t>(n_out));
    m.dequant.resize(values.size());
    for (int64_t r = 0; r < n_out; ++r) {
        quantize_row(type, values.data() + r * n_in, m.bytes.data() + r * row_bytes, n_in);
        dequantize_row(type, m.bytes.data() + r * row_bytes, m.dequant.data() + r * n_in, n_in);
    }
    m.w = WeightMatrix{type, m.bytes.data(), n_in, n_out, row_bytes};
    return m;
}

} // namespace octo::test
