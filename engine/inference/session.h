// One sequence being evaluated: its place in the paged KV pool (kv/kv_store.h), the position
// reached, the logits and measurements of the last eval. Tokens go in as ids; a prompt given to
// start() may be split into any number of eval calls (and is split into batches of n_batch
// internally) without changing the logits. Which positions are the prompt matters at reference
// precision (KvBatchCells::prompt_batch_end): the prompt is what start() was given, or else the
// tokens of the first eval.
//
// Prefix reuse: start(prompt) takes the cached K/V — and the cached measurements — of the
// longest block-aligned prefix of `prompt` computed before under the same context (the model,
// the ablation and which measurements are taken; kv_context_key). The last prompt token is always
// recomputed. Runs that record head outputs, attention weights or hidden states neither reuse nor
// publish blocks (those measurements are not cached), unless attention is asked for with
// reuse_with_attention: the reused positions then come without their weights.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/core/result.h"
#include "engine/inference/llama_forward.h"
#include "engine/instrumentation/logit_attribution.h"
#include "engine/kv/kv_store.h"
#include "engine/model/model.h"

namespace octo {

// Bits of KvContext::measurements.
enum KvMeasurement : uint8_t {
    kKvNorms = 1,   // head_norms cached with the blocks
    kKvDla = 2,     // dla cached with the blocks
    kKvRouterProbs = 4, // router_probs cached with the blocks (the routing itself always is)
};

struct SessionOptions {
    int64_t n_ctx = 0;       // positions the sequence may reach; 0: the model's n_ctx()
    int64_t n_batch = 0;     // tokens per forward batch; 0: the model's n_batch()
    bool all_logits = false; // eval returns the logits of every token, not only the last
    const std::atomic<bool>* cancel = nullptr; // set to stop an eval (checked between layers)
    InstrumentOptions instrument = {}; // per-token measurements (probes()); off by default
    HeadAblation ablation = {};        // heads replaced before the output projection; none by default
    ExpertAblation experts = {};       // experts left out of the routers' choice; none by default
    // How matrix products treat activations (backend/precision.h); nullopt: the model's
    // default (default_precision of its architecture).
    std::optional<Precision> precision = std::nullopt;
    // A shared pool (must outlive the session and fit the model); null: the session allocates
    // its own of ceil(n_ctx / kv_block_size) blocks.
    KvStore* kv = nullptr;
    // With instrument.attention: look blocks up and publish them anyway; the positions start()
    // reuses then have no attention weights (reused_probes() never holds any).
    bool reuse_with_attention = false;
    // With instrument.layer_hidden, the same: the reused positions have no hidden states (the
    // logit lens asks for the positions after them).
    bool reuse_with_hidden = false;
    int32_t kv_block_size = kDefaultKvBlockSize; // for the session's own pool
    KvTypeChoice kv_types = {};                  // ... and how it stores keys and values (nullopt: the
                                                 // default for the session's precision, resolve_kv_types)
};

class Session {
public:
    // The model and backend must outlive the session.
    static Result<std::unique_ptr<Session>> create(const Model& model, Backend& backend,
                                                   const SessionOptions& options = {});
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Starts a new sequence for `prompt` (the current one is released; its full blocks stay
    // cached) and returns the number of prompt tokens reused from the cache; position() is that
    // number (always < prompt.size() when the prompt is not empty). Evaluate prompt[position():]
    // next. reused_probes() holds the reused positions' measurements.
    int64_t start(std::span<const int32_t> prompt);

    // Appends tokens at the current position and returns the logits: [n_vocab] of the last
    // token, or [tokens.size(), n_vocab] with all_logits. The span stays valid until the next
    // eval or reset. Errors: InvalidArgument (empty, id out of range, context full),
    // OutOfMemory (the pool has no free or evictable blocks left), Cancelled (the position then
    // counts only the batches that completed).
    Result<std::span<const float>> eval(std::span<const int32_t> tokens);

    // Evaluates tokens[i] at the current position of sessions[i], for every i, in one forward pass
    // per n_batch sessions (a server decoding many requests together: continuous batching). Each
    // session then holds the logits() and probes() that sessions[i]->eval(tokens[i]) would have
    // given, bit for bit. The sessions must be distinct, share one KV store, model, backend and
    // options (the same context key and measurements), record neither attention weights nor hidden
    // states, and not be cancelled through SessionOptions::cancel (a batch runs to its end).
    // Errors, with every session as it was: InvalidArgument (the above, a full context, an id
    // outside the vocabulary), OutOfMemory (the pool), or the backend's.
    static Status eval_batch(std::span<Session* const> sessions, std::span<const int32_t> tokens);

    // Whether eval_batch may evaluate this session together with `other`.
    bool batches_with(const Session& other) const;

    // The logits of the last eval or eval_batch, as eval returned them.
    std::span<const float> logits() const { return logits_; }

    // With instrument.dla: attributes the last evaluated position to `target` (the token chosen
    // from its logits), filling probes().back().dla. eval() does this itself for every position
    // whose next token it is given. InvalidArgument for a target outside the vocabulary.
    Status attribute(int32_t target);
    // With instrument.dla, before attribute(): the last position's DLA toward another token,
    // [n_layer][n_head], recording nothing (the lens on a grammar's mask asks which heads pushed
    // toward a token the mask removed). Empty without DLA or once attribute() has run.
    Result<std::vector<float>> attribution_toward(int32_t target);

    int64_t position() const { return position_; }
    int64_t n_ctx() const { return n_ctx_; }
    int64_t n_vocab() const { return n_vocab_; }
    // How this session's matrix products treat activations (the option, or the model's default).
    Precision precision() const { return forward_.precision(); }
    // One probe per token of the last eval (empty unless SessionOptions::instrument asks for
    // something or the model has a router or experts); valid until the next eval.
    std::span<const TokenProbe> probes() const { return probes_; }
    // The measurements of the positions start() reused, [reused tokens].
    std::span<const TokenProbe> reused_probes() const { return reused_probes_; }
    // Back to position 0 with an empty sequence (the pool keeps the released blocks cached).
    void reset() { start({}); }
    // Keeps the first `position` tokens and forgets the rest; evaluating after it gives the same
    // logits as a fresh session fed the same tokens. InvalidArgument beyond the current position.
    Status rewind(int64_t position);

    // The pool this session's sequence lives in, and the context key its blocks are cached under.
    const KvStore& kv_store() const { return *store_; }
    KvSeqId kv_sequence() const { return seq_; }
    uint64_t kv_context_key() const { return context_key_; }

private:
    Session(const Model& model, Backend& backend, const SessionOptions& options, int64_t n_ctx, int64_t n_batch,
            std::unique_ptr<KvStore> own_store, KvStore* store, std::optional<LogitAttribution> dla);
    bool measuring() const;
    Status check_tokens(std::span<const int32_t> tokens) const;
    bool caches_measurements() const;
    int32_t publish_end() const; // KvPool::commit's end
    Status record_probes(std::span<const int32_t> tokens, int64_t first_position);
    Status attribute_probes(std::span<TokenProbe* const> probes, std::span<const int32_t> targets); // DLA

    const Model& model_;
    Backend& backend_;
    SessionOptions options_;
    int64_t n_ctx_;
    int64_t n_batch_;
    int64_t n_vocab_;
    int64_t position_ = 0;
    int64_t prompt_batch_end_ = 0; // KvBatchCells::prompt_batch_end of this sequence
    std::unique_ptr<KvStore> own_store_; // when no shared store was given
    KvStore* store_;
    KvSeqId seq_ = -1;
    uint64_t context_key_ = 0;
    bool reuse_ = true; // whether blocks are looked up and published
    std::optional<LogitAttribution> dla_;
    bool dla_pending_ = false;             // probes_.back() awaits its target
    LlamaForward forward_;
    std::vector<int32_t> positions_;       // [n_batch] positions of the batch being run
    std::vector<int32_t> write_cells_;     // [n_batch] their cells
    std::vector<int32_t> read_cells_;      // [position reached] cell of each position
    std::vector<float> logits_;            // [n_rows, n_vocab] logits of the last eval
    std::vector<TokenProbe> probes_;       // [n_tokens] of the last eval, when measuring
    std::vector<TokenProbe> reused_probes_;
};

} // namespace octo
