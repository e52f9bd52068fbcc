#include "engine/instrumentation/logit_attribution.h"

#include <string>

#include "engine/gguf/dequantize.h"

namespace octo {

namespace {

// y[n] += a * x[n]: the inner loop of W_Oᵀ a, vectorised for AVX2 + FMA where the CPU has them
// (one clone per target, picked at load time).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void axpy(float* y, const float* x, float a, int64_t n) {
    for (int64_t i = 0; i < n; ++i) y[i] += a * x[i];
}

} // namespace

Result<LogitAttribution> LogitAttribution::create(const Model& model) {
    auto w_o = model.output_projections();
    if (!w_o) return w_o.error();
    return LogitAttribution(model, *w_o.value());
}

Result<std::vector<float>> LogitAttribution::attribute(const TokenProbe& probe, int32_t target) const {
    const ModelParams& p = model_->params();
    const int64_t n_embd = p.n_embd;
    const int64_t head_dim = p.head_dim();
    if (static_cast<int64_t>(probe.head_outputs.size()) != p.n_layer * n_embd) {
        return make_error(ErrorCode::InvalidArgument, "attribution needs the position's head outputs");
    }
    if (target < 0 || target >= p.n_vocab) {
        return make_error(ErrorCode::InvalidArgument, "attribution target " + std::to_string(target) +
                                                          " is outside the vocabulary");
    }
    const ModelWeights& w = model_->weights();
    auto u = dequantize_rows(*w.output, target, 1); // [n_embd]
    if (!u) return u.error();
    const auto* g = reinterpret_cast<const float*>(w.output_norm->data); // [n_embd]
    std::vector<float> a(static_cast<size_t>(n_embd));                  // g ⊙ u_t · r
    for (int64_t i = 0; i < n_embd; ++i) a[static_cast<size_t>(i)] = g[i] * (*u)[static_cast<size_t>(i)] * probe.final_inv_rms;
    std::vector<float> dla(static_cast<size_t>(p.n_layer * p.n_head));
    std::vector<float> b(static_cast<size_t>(n_embd)); // W_Oᵀ a, accumulated row by row (vectorises)
    for (int64_t l = 0; l < p.n_layer; ++l) {
        const std::vector<float>& wo = (*w_o_)[static_cast<size_t>(l)]; // [n_embd out][n_embd in]
        std::fill(b.begin(), b.end(), 0.0f);
        float* bp = b.data();
        for (int64_t r = 0; r < n_embd; ++r) axpy(bp, wo.data() + r * n_embd, a[static_cast<size_t>(r)], n_embd);
        const float* z = probe.head_outputs.data() + l * n_embd; // [n_head][head_dim]
        for (int64_t h = 0; h < p.n_head; ++h) {
            double acc = 0.0;
            for (int64_t d = 0; d < head_dim; ++d) acc += static_cast<double>(z[h * head_dim + d]) * bp[h * head_dim + d];
            dla[static_cast<size_t>(l * p.n_head + h)] = static_cast<float>(acc);
        }
    }
    return dla;
}

} // namespace octo
