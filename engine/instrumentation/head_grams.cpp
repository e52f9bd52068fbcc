#include "engine/instrumentation/head_grams.h"

#include <string>

#include "engine/gguf/dequantize.h"

namespace octo {

Result<std::vector<float>> head_grams(const GgufTensorInfo& attn_output, int64_t n_head, int64_t head_dim,
                                      const float* row_scale) {
    const int64_t n_in = n_head * head_dim;
    if (attn_output.n_dims != 2 || attn_output.ne[0] != n_in) {
        return make_error(ErrorCode::InvalidArgument, "head_grams: " + attn_output.name + " is not a [" +
                                                          std::to_string(n_in) + ", n_out] matrix");
    }
    const int64_t n_out = attn_output.ne[1];
    const auto hd = static_cast<size_t>(head_dim);
    std::vector<double> sum(static_cast<size_t>(n_head) * hd * hd, 0.0); // [n_head][head_dim][head_dim]
    for (int64_t r = 0; r < n_out; ++r) {
        auto row = dequantize_rows(attn_output, r, 1); // [n_in]
        if (!row) return row.error();
        const double weight = row_scale ? static_cast<double>(row_scale[r]) * row_scale[r] : 1.0;
        for (int64_t h = 0; h < n_head; ++h) {
            const float* w = row->data() + h * head_dim; // W_h's entries in row r
            double* g = sum.data() + static_cast<size_t>(h) * hd * hd;
            for (size_t i = 0; i < hd; ++i) {
                for (size_t j = i; j < hd; ++j) g[i * hd + j] += weight * static_cast<double>(w[i]) * w[j];
            }
        }
    }
    std::vector<float> grams(sum.size());
    for (int64_t h = 0; h < n_head; ++h) {
        const size_t base = static_cast<size_t>(h) * hd * hd;
        for (size_t i = 0; i < hd; ++i) {
            for (size_t j = i; j < hd; ++j) {
                const auto v = static_cast<float>(sum[base + i * hd + j]);
                grams[base + i * hd + j] = v;
                grams[base + j * hd + i] = v;
            }
        }
    }
    return grams;
}

std::vector<double> head_contributions(std::span<const float> w_o, std::span<const float> z, int64_t n_head,
                                       int64_t head_dim) {
    const int64_t n_in = n_head * head_dim;
    const auto n_out = static_cast<int64_t>(w_o.size()) / n_in;
    std::vector<double> out(static_cast<size_t>(n_head * n_out), 0.0); // [n_head][n_out]
    for (int64_t h = 0; h < n_head; ++h) {
        for (int64_t r = 0; r < n_out; ++r) {
            double acc = 0.0;
            for (int64_t d = 0; d < head_dim; ++d) {
                const int64_t c = h * head_dim + d;
                acc += static_cast<double>(w_o[static_cast<size_t>(r * n_in + c)]) * z[static_cast<size_t>(c)];
            }
            out[static_cast<size_t>(h * n_out + r)] = acc;
        }
    }
    return out;
}

} // namespace octo
