#include "engine/router/model_embedding.h"

#include <cmath>

#include "engine/generation/prompt_builder.h"
#include "engine/model/user_data.h"

namespace octo {

Result<std::unique_ptr<ModelEmbedding>> ModelEmbedding::create(const Model& model, Backend& backend,
                                                               const Tokenizer& tokenizer, int64_t layer,
                                                               bool cache_centroids,
                                                               std::optional<Precision> precision) {
    const int64_t n_layer = model.params().n_layer;
    if (layer < 0) layer = n_layer / 2;
    if (layer >= n_layer) {
        return make_error(ErrorCode::InvalidArgument, "embedding layer " + std::to_string(layer) + " is past the model's " +
                                                          std::to_string(n_layer) + " layers");
    }
    SessionOptions o;
    o.instrument.hidden_layer = layer;
    o.precision = precision;
    auto session = Session::create(model, backend, o);
    if (!session) return session.error();
    std::string cache_id;
    if (cache_centroids && !model.path().empty()) {
        // A file that cannot be hashed or an index that cannot be written: no cache, not an error.
        if (auto sha = model_sha256(model)) {
            cache_id = "model-v" + std::to_string(kVersion) + "-" + sha.value() + "-layer" + std::to_string(layer) +
                       "-" + std::string(precision_name(session.value()->precision()));
        }
    }
    return std::unique_ptr<ModelEmbedding>(
        new ModelEmbedding(model, tokenizer, std::move(session.value()), layer, std::move(cache_id)));
}

std::vector<float> ModelEmbedding::embed(std::string_view text) const {
    std::lock_guard lock(mutex_);
    const auto n_embd = static_cast<size_t>(model_.params().n_embd);
    std::vector<float> out(n_embd, 0.0f);
    PromptSpec spec;
    spec.prompt = std::string(text);
    auto prompt = build_prompt(model_.file(), tokenizer_, spec);
    if (!prompt || prompt->ids.empty()) return out;
    std::vector<int32_t> ids = prompt->ids;
    if (static_cast<int64_t>(ids.size()) > session_->n_ctx()) ids.resize(static_cast<size_t>(session_->n_ctx()));
    session_->reset();
    if (!session_->eval(ids)) return out;
    const std::span<const TokenProbe> probes = session_->probes();
    const size_t first = probes.size() > 1 ? 1 : 0; // without BOS
    std::vector<double> sum(n_embd, 0.0);
    for (size_t t = first; t < probes.size(); ++t) {
        for (size_t i = 0; i < n_embd; ++i) sum[i] += probes[t].hidden[i];
    }
    double norm = 0.0;
    for (double v : sum) norm += v * v;
    if (norm == 0.0) return out;
    const double inv = 1.0 / std::sqrt(norm);
    for (size_t i = 0; i < n_embd; ++i) out[i] = static_cast<float>(sum[i] * inv);
    return out;
}

} // namespace octo
