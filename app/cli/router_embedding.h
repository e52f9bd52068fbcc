// The stage-1 embedding options that route and eval-router share (--embedding, --model,
// --layer, --no-cache, --precision) and what they build: nothing for the lexical embedding, else the model,
// its tokenizer, a CPU backend and the model embedding, kept alive while the router uses it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "engine/host/model_setup.h"
#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/router/text_embedding.h"

namespace octo::cli {

struct RouterEmbeddingOptions {
    std::string embedding = "lexical";
    std::string model;
    int64_t layer = -1;
    bool no_cache = false;
    std::optional<Precision> precision = std::nullopt; // --embedding model; nullopt: the model's default
};

void add_router_embedding_options(CLI::App& cmd, RouterEmbeddingOptions& o);

// Declare it before the Router that uses `embedding`, so that it outlives the router.
struct RouterEmbedding {
    OpenedModel opened; // the model, its tokenizer and a CPU backend
    std::shared_ptr<TextEmbedding> embedding; // null: the router's default, lexical
    std::optional<Precision> precision = std::nullopt;        // the model embedding's; nullopt: lexical
};

Result<RouterEmbedding> make_router_embedding(const RouterEmbeddingOptions& o);

// The JSON "centroids" field: "cached" (read from the on-disk cache) or "computed".
inline const char* centroids_source(bool cached) { return cached ? "cached" : "computed"; }

} // namespace octo::cli
