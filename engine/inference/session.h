// One sequence being evaluated: the KV cache, the position reached, and the logits of the last
// eval. Tokens go in as ids; a prompt may be split into any number of eval calls (and is
// split into batches of n_batch internally) without changing the logits.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/core/result.h"
#include "engine/inference/llama_forward.h"
#include "engine/model/model.h"

namespace octo {

struct SessionOptions {
    int64_t n_ctx = 0;       // positions the KV cache holds; 0: the model's n_ctx()
    int64_t n_batch = 0;     // tokens per forward batch; 0: the model's n_batch()
    bool all_logits = false; // eval returns the logits of every token, not only the last
    const std::atomic<bool>* cancel = nullptr; // set to stop an eval (checked between layers)
    InstrumentOptions instrument; // per-token measurements (probes()); off by default
    HeadAblation ablation;        // heads replaced before the output projection; none by default
};

class Session {
public:
    // The model and backend must outlive the session.
    static Result<std::unique_ptr<Session>> create(const Model& model, Backend& backend,
                                                   const SessionOptions& options = {});

    // Appends tokens at the current position and returns the logits: [n_vocab] of the last
    // token, or [tokens.size(), n_vocab] with all_logits. The span stays valid until the next
    // eval or reset. Errors: InvalidArgument (empty, id out of range, context full),
    // Cancelled (the position then counts only the batches that completed).
    Result<std::span<const float>> eval(std::span<const int32_t> tokens);

    int64_t position() const { return position_; }
    int64_t n_ctx() const { return n_ctx_; }
    int64_t n_vocab() const { return n_vocab_; }
    // One probe per token of the last eval (empty unless SessionOptions::instrument asks for
    // something); valid until the next eval.
    std::span<const TokenProbe> probes() const { return probes_; }
    // Back to position 0 (the cache cells are overwritten as positions are evaluated again).
    void reset() { position_ = 0; }
    // Keeps the first `position` tokens (a shared prefix) and forgets the rest; evaluating
    // after it gives the same logits as a fresh session fed the same tokens. InvalidArgument
    // beyond the current position.
    Status rewind(int64_t position);

private:
    Session(const Model& model, Backend& backend, const SessionOptions& options, int64_t n_ctx,
            int64_t n_batch, std::unique_ptr<KvCache> cache);

    SessionOptions options_;
    int64_t n_ctx_;
    int64_t n_batch_;
    int64_t n_vocab_;
    int64_t position_ = 0;
    std::unique_ptr<KvCache> cache_;
    LlamaForward forward_;
    std::vector<int32_t> positions_; // [n_batch] positions of the batch being run
    std::vector<float> logits_;      // [n_rows, n_vocab] logits of the last eval
    std::vector<TokenProbe> probes_; // [n_tokens] of the last eval, when instrumenting
};

} // namespace octo
