#include "engine/host/model_setup.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>

#include "engine/backend/backend_selection.h"
#include "engine/generation/prompt_builder.h"
#include "engine/model/architecture.h"
#include "engine/inference/llama_forward.h"
#include "engine/gguf/gguf_file.h"
#include "engine/instrumentation/head_map_source.h"
#include "engine/model/memory_estimate.h"
#include "engine/model/model_params.h"
#include "engine/tokenizer/vocab.h"

namespace octo {

namespace {

// An error about the file from a step that does not name it (GgufFile::open and Model::load do).
Error about_file(const std::string& path, Error e) {
    e.message = path + ": " + e.message;
    return e;
}

Result<ModelInfo> describe(const std::string& path, const Model& model, const Backend& backend, const std::string& backend_note,
                           const HeadMap& map, KvStore* kv, const KvPoolConfig& pool) {
    const ModelParams& p = model.params();
    auto description = describe_model(model);
    if (!description) return description.error();
    ModelInfo info;
    static_cast<ModelDescription&>(info) = std::move(description.value());
    info.path = path; // as the caller named it (the model keeps it absolute)
    if (info.file_name.empty()) info.file_name = std::filesystem::path(path).filename().string(); // an image's name
    if (info.name.empty()) info.name = info.file_name;
    info.weights_bytes = model.memory_estimate().weights_bytes;
    info.kv_bytes = kv ? static_cast<uint64_t>(kv->cache().bytes()) : 0;
    if (kv) info.kv_types = kv->types();
    if (p.latent_attention()) info.kv_latent = p.kv_head_dim();
    info.context_trained = p.context_length;
    info.context_shortened = model.context_shortened();
    info.has_router = model.weights().has_router();
    info.shared_expert = model.params().n_expert > 0 && model.weights().arch->shared_expert;
    info.default_metric = default_metric(model);
    info.default_precision = default_precision(p.architecture);
    info.backend = backend.name();
    info.backend_note = backend_note;
    info.head_map = map;
    info.kv_block_size = pool.block_size;
    info.kv_blocks = pool.n_blocks;
    info.features = architecture_features(*model.weights().arch, p, model.file());
    for (int64_t l = 0; l < p.n_layer; ++l) {
        const int64_t w = p.layer_window(l);
        info.layer_windows.push_back(w < model.n_ctx() ? w : 0); // no position is ever further back
    }
    return info;
}

// The model of `file`: the file at `path` as GgufFile::open parsed it, or `image` (a GGUF in memory,
// when there is one) as GgufFile::parse did.
Result<std::unique_ptr<Model>> load_model(GgufFile file, const std::string& path, const std::vector<uint8_t>* image,
                                          const LoadOptions& load) {
    if (!image) return Model::load(std::move(file), path, load);
    auto model = Model::from_gguf(std::move(file), load);
    if (!model && model.error().code != ErrorCode::Cancelled) return about_file(path, model.error());
    return model;
}

// Quantised KV types need heads of a multiple of 32 values: with kv_fallback such a model takes the
// default instead, `note` saying why.
KvTypeChoice kv_types_for_heads(KvTypeChoice asked, const ModelParams& p, bool fallback, std::string& note) {
    if (!fallback || p.kv_head_dim() % 32 == 0) return asked;
    for (std::optional<TensorType>* kind : {&asked.k, &asked.v}) {
        if (!*kind || !kv_type_is_quantised(**kind)) continue;
        note = std::string(kv_type_name(**kind)) + " needs heads of a multiple of 32 values; this model's have " +
               std::to_string(p.kv_head_dim()) + ", so its cache takes the default";
        kind->reset();
    }
    return asked;
}

// The backend the model runs on: the one chosen, or - when it lacks a step the model needs and the
// choice was auto - the CPU, `selected` saying why. An error when a named backend lacks one.
Result<Backend*> backend_for(const Model& model, const OpenOptions& options, BackendChoice choice, SelectedBackend& selected) {
    Backend* runs_on = options.on_backend ? options.on_backend : selected.backend.get();
    const std::string missing = runs_on->missing_features(forward_features(model, model.n_ctx()));
    if (missing.empty()) return runs_on;
    const std::string why = runs_on->name() + " lacks " + missing + " for " + model.params().architecture;
    if (options.on_backend || choice != BackendChoice::Auto) {
        return make_error(ErrorCode::Unsupported, "backend " + why + "; use --backend cpu (or auto)");
    }
    auto cpu = select_backend(BackendChoice::Cpu, options.threads, options.kernels);
    if (!cpu) return cpu.error();
    selected = std::move(cpu.value());
    selected.fallback_reason = why;
    return selected.backend.get();
}

// The KV pool of kv_sequences contexts (none for 0) in `types`, chosen again for the CPU after a
// fall back (it stores what CUDA did not); `pool` says its shape.
Result<std::unique_ptr<KvStore>> make_kv_pool(const Model& model, const OpenOptions& options, Backend& runs_on, const KvTypeChoice& asked,
                                              const KvTypes& types, bool fell_back, KvPoolConfig& pool) {
    pool = {};
    if (options.kv_sequences == 0) return std::unique_ptr<KvStore>();
    pool = kv_pool_for_context(model.n_ctx());
    if (static_cast<int64_t>(pool.n_blocks) * options.kv_sequences * pool.block_size > INT32_MAX) {
        return make_error(ErrorCode::InvalidArgument, "a KV pool of " + std::to_string(options.kv_sequences) + " contexts of " +
                                                          std::to_string(model.n_ctx()) + " positions is too large");
    }
    pool.n_blocks *= options.kv_sequences;
    const ModelParams& p = model.params();
    const KvTypes pool_types = fell_back ? resolve_kv_types(asked, resolve_precision(options.precision, p.architecture), runs_on) : types;
    return KvStore::create(runs_on, p, pool, pool_types);
}

// What the views read of the vocabulary and the chat format: each token's text, the chat family,
// how a conversation is rendered, and the router's bias (gpt-oss).
void describe_texts(OpenedModel& opened) {
    auto texts = std::make_shared<std::vector<std::string>>(static_cast<size_t>(std::max<int64_t>(0, opened.model->params().n_vocab)));
    for (size_t id = 0; id < texts->size(); ++id) {
        const std::string& bytes = opened.tokenizer->token_bytes(static_cast<int32_t>(id));
        (*texts)[id] = bytes.empty() ? opened.tokenizer->token_text(static_cast<int32_t>(id)) : bytes;
    }
    opened.info.token_texts = std::move(texts);
    if (auto tmpl = model_chat_template(opened.model->file())) opened.info.chat_family = std::string(chat_family_name(tmpl->family));
    const ConversationRendering rendering = conversation_rendering(opened.model->file());
    opened.info.conversation_rendering = rendering.label();
    opened.info.conversation_whole = rendering.whole();
    for (const LayerWeights& lw : opened.model->weights().layers) {
        if (!lw.ffn_gate_inp_bias) break;
        const auto* bias = reinterpret_cast<const float*>(lw.ffn_gate_inp_bias->data);
        opened.info.router_bias.insert(opened.info.router_bias.end(), bias, bias + lw.ffn_gate_inp_bias->ne[0]);
    }
}

Result<OpenedModel> open(const std::string& path, std::shared_ptr<const std::vector<uint8_t>> image, const OpenOptions& options) {
    if (options.kv_sequences < 0 || options.kv_sequences > 4096) {
        return make_error(ErrorCode::InvalidArgument, "the KV pool must hold 0 to 4096 sequences, not " +
                                                          std::to_string(options.kv_sequences));
    }
    const auto choice = parse_backend_choice(options.backend);
    if (!choice) return make_error(ErrorCode::InvalidArgument, "unknown backend '" + options.backend + "' (auto, cpu or cuda)");
    SelectedBackend selected;
    if (!options.on_backend) {
        auto chosen = select_backend(*choice, options.threads, options.kernels);
        if (!chosen) return chosen.error();
        selected = std::move(chosen.value());
    }

    // The context and the memory it needs, before the weights are paged in: the KV types decide
    // the pool's bytes, and the pool holds kv_sequences contexts. The header is parsed once, here.
    auto header = image ? GgufFile::parse(*image) : GgufFile::open(path);
    if (!header) return image ? about_file(path, header.error()) : header.error(); // a file's errors name it
    auto params = read_model_params(header.value());
    if (!params) return about_file(path, params.error());
    std::string kv_note;
    const KvTypeChoice asked = kv_types_for_heads(options.kv_types, params.value(), options.kv_fallback, kv_note);
    const KvTypes types = resolve_kv_types(asked, resolve_precision(options.precision, params->architecture),
                                           options.on_backend ? *options.on_backend : *selected.backend);
    auto plan = plan_context(header.value(), params.value(), options.n_ctx, options.n_batch, types,
                             available_memory_bytes(), std::max(1, options.kv_sequences));
    if (!plan) return about_file(path, plan.error());
    if (options.on_estimate) options.on_estimate(plan->estimate);
    LoadOptions load;
    load.n_ctx = plan->n_ctx;
    load.n_batch = options.n_batch;
    load.kv_types = types;
    load.progress = options.progress;
    auto model = load_model(std::move(header.value()), path, image.get(), load);
    if (!model) return model.error();
    auto runs_on = backend_for(*model.value(), options, *choice, selected);
    if (!runs_on) return runs_on.error();
    auto vocab = vocab_from_gguf(model.value()->file());
    if (!vocab) return about_file(path, vocab.error());
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    if (!tokenizer) return about_file(path, tokenizer.error());
    auto map = resolve_head_map(*model.value(), options.head_map_file);
    if (!map) return map.error();
    auto experts = resolve_expert_map(*model.value());
    if (!experts) return experts.error();
    KvPoolConfig pool{};
    auto kv = make_kv_pool(*model.value(), options, *runs_on.value(), asked, types, !selected.fallback_reason.empty(), pool);
    if (!kv) return kv.error();

    OpenedModel opened;
    auto info = describe(path, *model.value(), *runs_on.value(), selected.fallback_reason, map.value(), kv.value().get(), pool);
    if (!info) return info.error();
    info->kv_note = kv_note;
    opened.info = std::move(info.value());
    opened.image = std::move(image);
    opened.model = std::move(model.value());
    opened.tokenizer = std::make_unique<Tokenizer>(std::move(tokenizer.value()));
    describe_texts(opened);
    opened.backend = std::move(selected.backend);
    opened.info.expert_map = std::move(experts.value());
    opened.kv = std::move(kv.value());
    return opened;
}

} // namespace

Result<OpenedModel> open_model(const std::string& path, const OpenOptions& options) { return open(path, nullptr, options); }

Result<OpenedModel> open_model_image(std::shared_ptr<const std::vector<uint8_t>> image, const std::string& name,
                                     const OpenOptions& options) {
    if (!image) return make_error(ErrorCode::InvalidArgument, name + ": no model image");
    return open(name, std::move(image), options);
}

} // namespace octo
