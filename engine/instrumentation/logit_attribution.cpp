#include "engine/instrumentation/logit_attribution.h"

#include <string>

#include "engine/gguf/dequantize.h"

namespace octo {

Result<LogitAttribution> LogitAttribution::create(const Model& model) {
    auto w_o_t = model.output_projections();
    if (!w_o_t) return w_o_t.error();
    return LogitAttribution(model, *w_o_t.value());
}

Status LogitAttribution::attribute(Backend& backend, std::span<TokenProbe* const> probes,
                                   std::span<const int32_t> targets) const {
    const ModelParams& p = model_->params();
    const int64_t n_embd = p.n_embd;
    const int64_t n_q = p.n_embd_out(); // the attention output's width (n_head x head_dim_v)
    const int64_t head_dim = p.head_dim_v();
    const auto n = static_cast<int64_t>(probes.size());
    if (n == 0) return Ok{};
    if (targets.size() != probes.size()) {
        return make_error(ErrorCode::InvalidArgument, "attribution needs one target per position");
    }
    for (int64_t t = 0; t < n; ++t) {
        if (static_cast<int64_t>(probes[static_cast<size_t>(t)]->head_outputs.size()) != p.n_layer * n_q) {
            return make_error(ErrorCode::InvalidArgument, "attribution needs the position's head outputs");
        }
        const int32_t target = targets[static_cast<size_t>(t)];
        if (target < 0 || target >= p.n_vocab) {
            return make_error(ErrorCode::InvalidArgument, "attribution target " + std::to_string(target) +
                                                              " is outside the vocabulary");
        }
    }
    const ModelWeights& w = model_->weights();
    const auto* g = reinterpret_cast<const float*>(w.output_norm->data); // [n_embd]
    std::vector<float> a(static_cast<size_t>(n * n_embd));             // [n, n_embd]: g ⊙ u_t · r
    for (int64_t t = 0; t < n; ++t) {
        auto u = dequantize_rows(*w.output, targets[static_cast<size_t>(t)], 1); // [n_embd]
        if (!u) return u.error();
        const float r = probes[static_cast<size_t>(t)]->final_inv_rms;
        for (int64_t i = 0; i < n_embd; ++i) a[static_cast<size_t>(t * n_embd + i)] = g[i] * (*u)[static_cast<size_t>(i)] * r;
    }
    const bool post_norms = !w.layers.empty() && w.layers[0].attn_post_norm != nullptr;
    for (int64_t t = 0; post_norms && t < n; ++t) {
        if (static_cast<int64_t>(probes[static_cast<size_t>(t)]->post_attn_inv_rms.size()) != p.n_layer) {
            return make_error(ErrorCode::InvalidArgument, "attribution needs the post-attention norm's scales");
        }
    }
    auto a_dev = backend.allocate(n * n_embd);
    auto b_dev = backend.allocate(n * n_q);
    backend.write(a, a_dev->data());
    std::vector<float> a_layer(post_norms ? a.size() : 0); // post-norm models: a ⊙ post_w · s_l
    std::vector<float> b(static_cast<size_t>(n * n_q)); // [n, n_q]: W_Oᵀ a of each position
    for (TokenProbe* probe : probes) probe->dla.assign(static_cast<size_t>(p.n_layer * p.n_head), 0.0f);
    for (int64_t l = 0; l < p.n_layer; ++l) {
        const std::vector<float>& m = (*w_o_t_)[static_cast<size_t>(l)]; // [n_q in][n_embd out]
        const WeightMatrix w_o_t{TensorType::F32, reinterpret_cast<const uint8_t*>(m.data()), n_embd, n_q,
                                 static_cast<uint64_t>(n_embd) * sizeof(float)};
        if (post_norms) { // the head's W_h z_h reaches the residual as post_w ⊙ W_h z_h · s_l
            const auto* post = reinterpret_cast<const float*>(w.layers[static_cast<size_t>(l)].attn_post_norm->data);
            for (int64_t t = 0; t < n; ++t) {
                const float s = probes[static_cast<size_t>(t)]->post_attn_inv_rms[static_cast<size_t>(l)];
                for (int64_t i = 0; i < n_embd; ++i) {
                    a_layer[static_cast<size_t>(t * n_embd + i)] = a[static_cast<size_t>(t * n_embd + i)] * post[i] * s;
                }
            }
            backend.write(a_layer, a_dev->data());
        }
        backend.matmul(w_o_t, a_dev->data(), b_dev->data(), n, Precision::Exact);
        backend.read(b_dev->data(), b);
        for (int64_t t = 0; t < n; ++t) {
            const float* z = probes[static_cast<size_t>(t)]->head_outputs.data() + l * n_q; // [n_head][head_dim]
            const float* bt = b.data() + t * n_q;
            std::vector<float>& dla = probes[static_cast<size_t>(t)]->dla;
            for (int64_t h = 0; h < p.n_head; ++h) {
                double acc = 0.0;
                for (int64_t d = 0; d < head_dim; ++d) acc += static_cast<double>(z[h * head_dim + d]) * bt[h * head_dim + d];
                dla[static_cast<size_t>(l * p.n_head + h)] = static_cast<float>(acc);
            }
        }
    }
    if (auto s = backend.status(); !s) return s;
    return Ok{};
}

} // namespace octo
