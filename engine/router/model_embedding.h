// Router stage 1 with the loaded model's own representation: the residual stream after layer
// `layer` (default: the middle one), mean-pooled over the prompt's positions without BOS and
// L2-normalised. Evaluated with the engine, one prompt at a time.
#pragma once

#include <memory>
#include <mutex>
#include <optional>

#include "engine/backend/backend.h"
#include "engine/core/result.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/router/text_embedding.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

class ModelEmbedding final : public TextEmbedding {
public:
    // Bump when embed() changes, so that centroids cached with the old one are recomputed.
    static constexpr int kVersion = 1;

    // layer < 0: n_layer / 2. The model, backend and tokenizer must outlive the embedding.
    // cache_centroids: for a model loaded from a file, the router's centroids are cached on disk
    // under "model-v<kVersion>-<sha256 of the file>-layer<L>-<precision>" (hashing the file once;
    // the model index remembers it); false, or a model parsed from bytes: computed on every build.
    // precision: of the evaluations (backend/precision.h); nullopt: the model's default.
    static Result<std::unique_ptr<ModelEmbedding>> create(const Model& model, Backend& backend,
                                                          const Tokenizer& tokenizer, int64_t layer = -1,
                                                          bool cache_centroids = true,
                                                          std::optional<Precision> precision = std::nullopt);

    const char* name() const override { return "model"; }
    void fit(std::span<const std::string>) override {}
    // All zero when the text cannot be evaluated (e.g. a character the vocabulary lacks).
    std::vector<float> embed(std::string_view text) const override;
    int64_t layer() const { return layer_; }
    Precision precision() const { return session_->precision(); }
    std::string cache_id() const override { return cache_id_; }

private:
    ModelEmbedding(const Model& model, const Tokenizer& tokenizer, std::unique_ptr<Session> session, int64_t layer,
                   std::string cache_id)
        : model_(model), tokenizer_(tokenizer), session_(std::move(session)), layer_(layer),
          cache_id_(std::move(cache_id)) {}

    const Model& model_;
    const Tokenizer& tokenizer_;
    std::unique_ptr<Session> session_;
    mutable std::mutex mutex_; // one evaluation at a time
    int64_t layer_;
    std::string cache_id_;
};

} // namespace octo
