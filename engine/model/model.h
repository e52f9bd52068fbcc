// A loaded model: the memory-mapped GGUF file, its hyperparameters and its bound weights.
// Loading validates the file, estimates memory (weights + KV cache for the chosen context +
// activations) and refuses with ErrorCode::OutOfMemory when the machine lacks it, then pages
// the weights in tensor by tensor, reporting progress; the callback can cancel.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/model/memory_estimate.h"
#include "engine/model/model_params.h"
#include "engine/model/model_weights.h"

namespace octo {

constexpr int64_t kDefaultBatch = 64;

struct LoadOptions {
    // Positions the sessions will hold; 0: the model's whole context, as far as memory allows
    // (plan_context in memory_estimate.h).
    int64_t n_ctx = 0;
    KvTypes kv_types = {}; // how the KV pool will store keys and values (the estimate counts them)
    int64_t n_batch = kDefaultBatch; // tokens per forward batch (activation memory)
    // Called with the fraction loaded, 0..1; returning false cancels (ErrorCode::Cancelled).
    std::function<bool(double fraction)> progress;
    std::optional<uint64_t> available_bytes; // replaces the machine's available memory (tests)
};

class Model {
public:
    static Result<std::unique_ptr<Model>> load(const std::string& path, const LoadOptions& options = {});
    // The same from the file GgufFile::open(path) gave (its header parsed once, by the caller).
    static Result<std::unique_ptr<Model>> load(GgufFile file, const std::string& path, const LoadOptions& options = {});
    // From an already opened file (e.g. GgufFile::parse over bytes the caller keeps alive).
    static Result<std::unique_ptr<Model>> from_gguf(GgufFile file, const LoadOptions& options = {});

    Model(const Model&) = delete;
    Model& operator=(const Model&) = delete;

    const GgufFile& file() const { return file_; }
    int64_t n_params() const; // elements of every tensor in the file
    const ModelParams& params() const { return params_; }
    const ModelWeights& weights() const { return weights_; }
    const MemoryEstimate& memory_estimate() const { return estimate_; }
    int64_t n_ctx() const { return n_ctx_; }     // the context the estimate was made for
    // Whether n_ctx is below the model's default because the whole context would not fit in memory.
    bool context_shortened() const { return context_shortened_; }
    int64_t n_batch() const { return n_batch_; }
    // Identifies the weights for KV prefix reuse: "file:<path>:<size>:<mtime>", or "memory:<n>"
    // (unique in the process) for a model parsed from bytes.
    const std::string& identity() const { return identity_; }
    // The file it was loaded from (absolute); empty for a model parsed from bytes.
    const std::string& path() const { return path_; }

    // Constants of the instrumentation, computed once per model on first use (thread-safe;
    // model_constants.cpp), per layer ([n_layer] of):
    // the heads' Gram matrices G_h = W_hᵀ W_h (head_grams.h), [n_head][head_dim][head_dim];
    Result<const std::vector<std::vector<float>>*> head_grams() const;
    // attn_output dequantised and transposed, [n_q][n_embd] (row i: how input i of the
    // projection reaches every output), for direct logit attribution as one matrix product.
    Result<const std::vector<std::vector<float>>*> output_projections() const;
    // Latent attention's per-head matrices from attn_kv_b (or attn_k_b and attn_v_b), dequantised (the values as stored),
    // for the absorbed form (LlamaForward): [n_head][n_lora_kv][nope] — head h's key rows
    // transposed, which turn its query's nope part into latent space — then [n_head][head_dim_v]
    // [n_lora_kv] — its value rows, which expand an attention-weighted latent into its output —
    // then [n_head][nope][n_lora_kv], its key rows, which expand a cached latent into its keys
    // (the expanded form).
    Result<const std::vector<std::vector<float>>*> latent_projections() const;

private:
    // Per-layer constants computed once (head_grams(), output_projections()).
    struct LazyLayers {
        std::once_flag once;
        std::vector<std::vector<float>> values;
        std::optional<Error> error;
    };

    explicit Model(GgufFile file) : file_(std::move(file)) {}

    GgufFile file_;
    ModelParams params_;
    ModelWeights weights_; // points into file_'s tensor table
    MemoryEstimate estimate_;
    int64_t n_ctx_ = 0;
    bool context_shortened_ = false;
    int64_t n_batch_ = 0;
    std::string identity_;
    std::string path_;
    mutable LazyLayers head_grams_;
    mutable LazyLayers output_projections_;
    mutable LazyLayers latent_projections_;
};

} // namespace octo
