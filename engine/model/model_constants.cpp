// Model::head_grams() and Model::output_projections(): per-layer constants of the
// instrumentation, computed once per model the first time a session asks for them.
#include <algorithm>
#include <string>

#include "engine/gguf/dequantize.h"
#include "engine/instrumentation/head_grams.h"
#include "engine/model/model.h"

namespace octo {

namespace {

template <typename PerLayer>
void compute_once(const ModelWeights& w, std::once_flag& once, std::vector<std::vector<float>>& values,
                  std::optional<Error>& error, PerLayer per_layer) {
    std::call_once(once, [&] {
        for (const LayerWeights& lw : w.layers) {
            auto v = per_layer(lw);
            if (!v) {
                error = v.error();
                values.clear();
                return;
            }
            values.push_back(std::move(v.value()));
        }
    });
}

} // namespace

Result<const std::vector<std::vector<float>>*> Model::head_grams() const {
    const ModelParams& p = params_;
    compute_once(weights_, head_grams_.once, head_grams_.values, head_grams_.error,
                 [&](const LayerWeights& lw) {
                     const auto* post = lw.attn_post_norm ? reinterpret_cast<const float*>(lw.attn_post_norm->data) : nullptr;
                     return octo::head_grams(*lw.attn_output, p.n_head, p.head_dim_v(), post);
                 });
    if (head_grams_.error) return *head_grams_.error;
    return &head_grams_.values;
}

Result<const std::vector<std::vector<float>>*> Model::output_projections() const {
    compute_once(weights_, output_projections_.once, output_projections_.values, output_projections_.error,
                 [](const LayerWeights& lw) -> Result<std::vector<float>> {
                     const GgufTensorInfo& t = *lw.attn_output;
                     auto w = dequantize_rows(t, 0, t.ne[1]); // [n_out][n_in]
                     if (!w) return w.error();
                     const int64_t n_in = t.ne[0], n_out = t.ne[1];
                     std::vector<float> transposed(w->size()); // [n_in][n_out]
                     for (int64_t r = 0; r < n_out; ++r) {
                         for (int64_t i = 0; i < n_in; ++i) transposed[i * n_out + r] = (*w)[r * n_in + i];
                     }
                     return transposed;
                 });
    if (output_projections_.error) return *output_projections_.error;
    return &output_projections_.values;
}

Result<const std::vector<std::vector<float>>*> Model::latent_projections() const {
    const ModelParams& p = params_;
    compute_once(weights_, latent_projections_.once, latent_projections_.values, latent_projections_.error,
                 [&](const LayerWeights& lw) -> Result<std::vector<float>> {
                     const int64_t r = p.n_lora_kv, nope = p.head_dim() - p.n_rot, dv = p.head_dim_v();
                     // the key rows as they multiply the latent, [n_head][nope][r]: the expanded form's
                     const auto append_expanding_keys = [&](std::vector<float>& out) {
                         const float* keys = out.data();
                         std::vector<float> rows(static_cast<size_t>(p.n_head * nope * r));
                         for (int64_t h = 0; h < p.n_head; ++h) {
                             for (int64_t j = 0; j < r; ++j) {
                                 for (int64_t i = 0; i < nope; ++i) rows[static_cast<size_t>((h * nope + i) * r + j)] = keys[(h * r + j) * nope + i];
                             }
                         }
                         out.insert(out.end(), rows.begin(), rows.end());
                     };
                     if (!lw.attn_kv_b) { // stored split: already [n_head][r][nope] and [n_head][dv][r]
                         auto keys = dequantize_rows(*lw.attn_k_b, 0, lw.attn_k_b->ne[1] * lw.attn_k_b->ne[2]);
                         if (!keys) return keys.error();
                         auto values = dequantize_rows(*lw.attn_v_b, 0, lw.attn_v_b->ne[1] * lw.attn_v_b->ne[2]);
                         if (!values) return values.error();
                         keys->insert(keys->end(), values->begin(), values->end());
                         append_expanding_keys(keys.value());
                         return std::move(keys.value());
                     }
                     const GgufTensorInfo& t = *lw.attn_kv_b;
                     auto w = dequantize_rows(t, 0, t.ne[1]); // [n_head (nope + dv)][n_lora_kv]
                     if (!w) return w.error();
                     std::vector<float> out(static_cast<size_t>(p.n_head * r * (nope + dv)));
                     float* keys = out.data();                       // [n_head][r][nope]
                     float* values = out.data() + p.n_head * r * nope; // [n_head][dv][r]
                     for (int64_t h = 0; h < p.n_head; ++h) {
                         const float* head = w->data() + h * (nope + dv) * r; // its key rows, then its value rows
                         for (int64_t i = 0; i < nope; ++i) {
                             for (int64_t j = 0; j < r; ++j) keys[(h * r + j) * nope + i] = head[i * r + j];
                         }
                         std::copy_n(head + nope * r, dv * r, values + h * dv * r);
                     }
                     append_expanding_keys(out);
                     return out;
                 });
    if (latent_projections_.error) return *latent_projections_.error;
    return &latent_projections_.values;
}

} // namespace octo
