#include "app/cli/router_embedding.h"

#include "app/cli/precision_option.h"
#include "app/common/builtin_model.h"
#include "engine/router/model_embedding.h"

namespace octo::cli {

void add_router_embedding_options(CLI::App& cmd, RouterEmbeddingOptions& o) {
    cmd.add_option("--embedding", o.embedding, "Stage-1 embedding: lexical (no model) or model (hidden states)")
        ->check(CLI::IsMember({"lexical", "model"}))
        ->capture_default_str();
    cmd.add_option("--model,-m", o.model, "Model for --embedding model (default: the built-in octet model)");
    cmd.add_option("--layer", o.layer, "Layer whose output is pooled (default: the middle one)");
    cmd.add_flag("--no-cache", o.no_cache,
                 "Compute the model embedding's centroids without reading or writing the on-disk cache");
    add_precision_option(cmd, o.precision, "--precision", " of --embedding model");
}

Result<RouterEmbedding> make_router_embedding(const RouterEmbeddingOptions& o) {
    RouterEmbedding r;
    if (o.embedding != "model") return r;
    OpenOptions options;
    options.backend = "cpu";
    auto opened = open_model_or_builtin(o.model, options);
    if (!opened) return opened.error();
    r.opened = std::move(opened.value());
    auto e = ModelEmbedding::create(*r.opened.model, *r.opened.backend, *r.opened.tokenizer, o.layer, !o.no_cache, o.precision);
    if (!e) return e.error();
    r.precision = e.value()->precision();
    r.embedding = std::move(e.value());
    return r;
}

} // namespace octo::cli
