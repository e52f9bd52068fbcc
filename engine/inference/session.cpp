#include "engine/inference/session.h"

#include <algorithm>
#include <string>

namespace octo {

Result<std::unique_ptr<Session>> Session::create(const Model& model, Backend& backend,
                                                 const SessionOptions& options) {
    if (options.n_ctx < 0 || options.n_batch < 0) {
        return make_error(ErrorCode::InvalidArgument, "n_ctx and n_batch must not be negative");
    }
    for (const GgufTensorInfo& t : model.file().tensors()) {
        if (t.n_dims >= 2 && !backend.supports(t.type.type)) {
            return make_error(ErrorCode::Unsupported, "backend " + backend.name() + " cannot multiply " +
                                                          std::string(t.type.name) + " weights");
        }
    }
    const ModelParams& p = model.params();
    const int64_t n_ctx = options.n_ctx > 0 ? options.n_ctx : model.n_ctx();
    const int64_t n_batch = options.n_batch > 0 ? options.n_batch : model.n_batch();
    auto cache = backend.create_kv_cache(KvCacheShape{p.n_layer, n_ctx, p.n_head_kv, p.head_dim()});
    if (!cache) return cache.error();
    std::unique_ptr<Session> session(new Session(model, backend, options, n_ctx, n_batch, std::move(cache.value())));
    if (auto s = session->forward_.configure(options.instrument, options.ablation); !s) return s.error();
    return session;
}

Session::Session(const Model& model, Backend& backend, const SessionOptions& options, int64_t n_ctx,
                 int64_t n_batch, std::unique_ptr<KvCache> cache)
    : options_(options), n_ctx_(n_ctx), n_batch_(n_batch), n_vocab_(model.params().n_vocab),
      cache_(std::move(cache)), forward_(model, backend, n_batch), positions_(static_cast<size_t>(n_batch)) {}

Result<std::span<const float>> Session::eval(std::span<const int32_t> tokens) {
    const auto n = static_cast<int64_t>(tokens.size());
    if (n == 0) return make_error(ErrorCode::InvalidArgument, "no tokens to evaluate");
    if (n > n_ctx_ - position_) {
        return make_error(ErrorCode::InvalidArgument, "context is full: " + std::to_string(position_) + " + " +
                                                          std::to_string(n) + " tokens exceed n_ctx " +
                                                          std::to_string(n_ctx_));
    }
    for (int32_t id : tokens) {
        if (id < 0 || id >= n_vocab_) {
            return make_error(ErrorCode::InvalidArgument, "token id " + std::to_string(id) +
                                                              " is outside the vocabulary of " +
                                                              std::to_string(n_vocab_));
        }
    }
    const int64_t n_rows = options_.all_logits ? n : 1;
    logits_.resize(static_cast<size_t>(n_rows * n_vocab_));
    const bool probing = options_.instrument.head_norms || options_.instrument.head_outputs;
    probes_.assign(probing ? static_cast<size_t>(n) : 0, TokenProbe{});
    for (int64_t b0 = 0; b0 < n; b0 += n_batch_) {
        const int64_t m = std::min(n_batch_, n - b0);
        for (int64_t i = 0; i < m; ++i) positions_[i] = static_cast<int32_t>(position_ + i);
        const bool last = b0 + m == n;
        const int64_t logit_rows = options_.all_logits ? m : (last ? 1 : 0);
        const int64_t first_row = options_.all_logits ? b0 : 0;
        std::span<float> out(logits_.data() + first_row * n_vocab_, static_cast<size_t>(logit_rows * n_vocab_));
        auto s = forward_.run(tokens.subspan(static_cast<size_t>(b0), static_cast<size_t>(m)),
                              std::span<const int32_t>(positions_.data(), static_cast<size_t>(m)), *cache_,
                              logit_rows, out, options_.cancel,
                              std::span<TokenProbe>(probes_).subspan(probing ? static_cast<size_t>(b0) : 0,
                                                                     probing ? static_cast<size_t>(m) : 0));
        if (!s) return s.error();
        position_ += m;
    }
    return std::span<const float>(logits_);
}

Status Session::rewind(int64_t position) {
    if (position < 0 || position > position_) {
        return make_error(ErrorCode::InvalidArgument, "cannot rewind to position " + std::to_string(position) +
                                                          " from " + std::to_string(position_));
    }
    position_ = position;
    return Ok{};
}

} // namespace octo
