#include "engine/inference/session.h"

#include <algorithm>
#include <string>

#include "engine/kv/prefix_key.h"

namespace octo {

namespace {

// Everything besides the tokens that changes K/V or the cached measurements.
uint64_t context_key(const Model& model, const SessionOptions& o, int64_t n_ctx) {
    std::string digest_input(o.ablation.heads.begin(), o.ablation.heads.end());
    const bool ablated = std::any_of(o.ablation.heads.begin(), o.ablation.heads.end(), [](uint8_t h) { return h != 0; });
    if (ablated && o.ablation.mode == AblationMode::Mean) {
        digest_input.append(reinterpret_cast<const char*>(o.ablation.baseline.data()),
                            o.ablation.baseline.size() * sizeof(float));
    }
    const bool experts_off = std::any_of(o.experts.experts.begin(), o.experts.experts.end(), [](uint8_t e) { return e != 0; });
    if (experts_off) digest_input.append("experts:").append(o.experts.experts.begin(), o.experts.experts.end());
    KvContext c;
    c.model_identity = model.identity();
    c.ablated = ablated || experts_off ? 1 : 0;
    c.ablation_mode = ablation_mode_name(o.ablation.mode);
    c.ablation_digest = kv_digest(digest_input);
    c.measurements = static_cast<uint8_t>((o.instrument.head_norms ? kKvNorms : 0) | (o.instrument.dla ? kKvDla : 0) |
                                          (o.instrument.router_probs ? kKvRouterProbs : 0));
    c.precision = precision_name(resolve_precision(o.precision, model.params().architecture));
    const ModelWeights& w = model.weights();
    const GgufTensorInfo* factors = rope_factors(w, model.params(), n_ctx);
    if (factors && factors == w.rope_factors_long) c.rope_factors = "long";
    if (factors && factors == w.rope_factors_short) c.rope_factors = "short";
    return kv_context_key(c);
}

} // namespace

Result<std::unique_ptr<Session>> Session::create(const Model& model, Backend& backend,
                                                 const SessionOptions& options) {
    if (options.n_ctx < 0 || options.n_batch < 0 || options.kv_block_size < 1) {
        return make_error(ErrorCode::InvalidArgument, "n_ctx and n_batch must not be negative, kv_block_size positive");
    }
    const ModelParams& p = model.params();
    const int64_t n_ctx = options.n_ctx > 0 ? options.n_ctx : model.n_ctx();
    const int64_t n_batch = options.n_batch > 0 ? options.n_batch : model.n_batch();
    if (const std::string missing = backend.missing_features(forward_features(model, n_ctx)); !missing.empty()) {
        return make_error(ErrorCode::Unsupported, "backend " + backend.name() + " cannot run this " + p.architecture +
                                                      " model yet: it lacks " + missing + " (the CPU backend runs it)");
    }
    std::unique_ptr<KvStore> own;
    KvStore* store = options.kv;
    if (store) {
        if (!store->fits(p)) {
            return make_error(ErrorCode::InvalidArgument, "the shared KV pool was made for another model shape");
        }
    } else {
        if ((n_ctx + options.kv_block_size - 1) / options.kv_block_size > INT32_MAX) {
            return make_error(ErrorCode::InvalidArgument, "n_ctx is too large");
        }
        const KvTypes types =
            resolve_kv_types(options.kv_types, resolve_precision(options.precision, p.architecture), backend);
        auto made = KvStore::create(backend, p, kv_pool_for_context(n_ctx, options.kv_block_size), types);
        if (!made) return made.error();
        own = std::move(made.value());
        store = own.get();
    }
    std::optional<LogitAttribution> dla;
    if (options.instrument.dla) {
        auto made = LogitAttribution::create(model);
        if (!made) return made.error();
        dla = std::move(made.value());
    }
    std::unique_ptr<Session> session(
        new Session(model, backend, options, n_ctx, n_batch, std::move(own), store, std::move(dla)));
    if (auto s = session->forward_.configure(options.instrument, options.ablation, options.experts); !s) return s.error();
    session->start({});
    return session;
}

Session::Session(const Model& model, Backend& backend, const SessionOptions& options, int64_t n_ctx,
                 int64_t n_batch, std::unique_ptr<KvStore> own_store, KvStore* store,
                 std::optional<LogitAttribution> dla)
    : model_(model), backend_(backend), options_(options), n_ctx_(n_ctx), n_batch_(n_batch),
      n_vocab_(model.params().n_vocab), own_store_(std::move(own_store)), store_(store),
      context_key_(context_key(model, options, n_ctx)),
      reuse_(!options.instrument.head_outputs && (!options.instrument.attention || options.reuse_with_attention) &&
             options.instrument.hidden_layer < 0 && (!options.instrument.layer_hidden || options.reuse_with_hidden)),
      dla_(std::move(dla)),
      forward_(model, backend, n_batch, resolve_precision(options.precision, model.params().architecture), n_ctx),
      positions_(static_cast<size_t>(n_batch)),
      write_cells_(static_cast<size_t>(n_batch)) {}

Session::~Session() {
    if (seq_ >= 0) (void)store_->pool().release(seq_);
}

bool Session::measuring() const {
    const InstrumentOptions& i = options_.instrument;
    return i.head_norms || i.head_outputs || i.dla || i.attention || i.hidden_layer >= 0 || i.layer_hidden || model_.weights().has_router() ||
           model_.params().n_expert > 0;
}

bool Session::caches_measurements() const { return reuse_ && measuring(); }

// At reference precision a generated token's K/V differ in the last bits from what the same token
// gives as part of a prompt (KvBatchCells::prompt_batch_end): only prompt blocks are published.
int32_t Session::publish_end() const {
    if (precision() != Precision::Reference) return INT32_MAX;
    return static_cast<int32_t>(prompt_batch_end_);
}

int64_t Session::start(std::span<const int32_t> prompt) {
    KvPool& pool = store_->pool();
    if (seq_ >= 0) (void)pool.release(seq_);
    const KvBegin begun = pool.begin(reuse_ ? prompt : std::span<const int32_t>(), context_key_);
    seq_ = begun.seq;
    int32_t reused = begun.reused_tokens;
    // The last reused position's attribution points at the token that followed it when it was
    // computed; when this prompt continues differently, recompute that position.
    if (dla_ && reused > 0 && store_->probe(pool.cell(seq_, reused - 1)).dla_target != prompt[static_cast<size_t>(reused)]) {
        reused -= 1;
        (void)pool.truncate(seq_, reused);
    }
    read_cells_.resize(static_cast<size_t>(reused));
    reused_probes_.clear();
    for (int32_t p = 0; p < reused; ++p) {
        read_cells_[static_cast<size_t>(p)] = pool.cell(seq_, p);
        if (measuring()) reused_probes_.push_back(store_->probe(read_cells_[static_cast<size_t>(p)]));
    }
    position_ = reused;
    prompt_batch_end_ = prompt.size() >= 2 ? static_cast<int64_t>(prompt.size()) : 0;
    probes_.clear();
    dla_pending_ = false;
    return reused;
}

Status Session::check_tokens(std::span<const int32_t> tokens) const {
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
    return Ok{};
}

Result<std::span<const float>> Session::eval(std::span<const int32_t> tokens) {
    const auto n = static_cast<int64_t>(tokens.size());
    if (auto s = check_tokens(tokens); !s) return s.error();
    if (dla_pending_) {
        if (auto s = attribute(tokens[0]); !s) return s.error();
    }
    // Without start(prompt), the first tokens evaluated are the prompt.
    if (position_ == 0 && prompt_batch_end_ == 0 && n >= 2) prompt_batch_end_ = n;
    KvPool& pool = store_->pool();
    auto appended = pool.append(seq_, tokens);
    if (!appended) return appended.error();
    store_->copy_blocks(backend_, appended->copies);
    for (int64_t p = position_; p < position_ + n; ++p) read_cells_.push_back(pool.cell(seq_, static_cast<int32_t>(p)));

    const int64_t n_rows = options_.all_logits ? n : 1;
    logits_.resize(static_cast<size_t>(n_rows * n_vocab_));
    const bool probing = measuring();
    probes_.assign(probing ? static_cast<size_t>(n) : 0, TokenProbe{});
    const int64_t first_position = position_;
    for (int64_t b0 = 0; b0 < n; b0 += n_batch_) {
        const int64_t m = std::min(n_batch_, n - b0);
        for (int64_t i = 0; i < m; ++i) {
            positions_[static_cast<size_t>(i)] = static_cast<int32_t>(position_ + i);
            write_cells_[static_cast<size_t>(i)] = read_cells_[static_cast<size_t>(position_ + i)];
        }
        const KvBatchCells cells{std::span<const int32_t>(positions_.data(), static_cast<size_t>(m)),
                                 std::span<const int32_t>(write_cells_.data(), static_cast<size_t>(m)),
                                 std::span<const int32_t>(read_cells_.data(), static_cast<size_t>(position_ + m)),
                                 prompt_batch_end_};
        const bool last = b0 + m == n;
        const int64_t logit_rows = options_.all_logits ? m : (last ? 1 : 0);
        const int64_t first_row = options_.all_logits ? b0 : 0;
        std::span<float> out(logits_.data() + first_row * n_vocab_, static_cast<size_t>(logit_rows * n_vocab_));
        auto s = forward_.run(tokens.subspan(static_cast<size_t>(b0), static_cast<size_t>(m)), cells,
                              store_->cache(), logit_rows, out, options_.cancel,
                              std::span<TokenProbe>(probes_).subspan(probing ? static_cast<size_t>(b0) : 0,
                                                                     probing ? static_cast<size_t>(m) : 0));
        if (s) s = backend_.status();
        if (!s) {
            (void)pool.truncate(seq_, static_cast<int32_t>(position_));
            read_cells_.resize(static_cast<size_t>(position_));
            probes_.resize(probing ? static_cast<size_t>(position_ - first_position) : 0);
            return s.error();
        }
        position_ += m;
    }
    if (probing) {
        if (auto s = record_probes(tokens, first_position); !s) return s.error();
    }
    if (reuse_) {
        if (auto s = pool.commit(seq_, publish_end()); !s) return s.error();
    }
    return std::span<const float>(logits_);
}

bool Session::batches_with(const Session& o) const {
    const InstrumentOptions &a = options_.instrument, &b = o.options_.instrument;
    return &model_ == &o.model_ && &backend_ == &o.backend_ && store_ == o.store_ && context_key_ == o.context_key_ &&
           n_ctx_ == o.n_ctx_ && a.head_norms == b.head_norms && a.head_outputs == b.head_outputs && a.dla == b.dla &&
           a.router_probs == b.router_probs && !a.attention && !b.attention && a.hidden_layer < 0 && b.hidden_layer < 0 &&
           !a.layer_hidden && !b.layer_hidden &&
           options_.cancel == nullptr && o.options_.cancel == nullptr;
}

Status Session::eval_batch(std::span<Session* const> sessions, std::span<const int32_t> tokens) {
    if (sessions.size() != tokens.size()) {
        return make_error(ErrorCode::InvalidArgument, "eval_batch needs one token per session");
    }
    if (sessions.empty()) return Ok{};
    Session& lead = *sessions[0];
    for (size_t i = 0; i < sessions.size(); ++i) {
        Session& s = *sessions[i];
        if (!s.batches_with(lead)) {
            return make_error(ErrorCode::InvalidArgument, "sessions evaluated together must share the KV store, the "
                                                          "model and the options, and record no attention or hidden state");
        }
        for (size_t j = 0; j < i; ++j) {
            if (sessions[j] == &s) return make_error(ErrorCode::InvalidArgument, "a session appears twice in one batch");
        }
        if (auto st = s.check_tokens(tokens.subspan(i, 1)); !st) return st;
    }
    KvPool& pool = lead.store_->pool();
    // Room for every token first, so that a pool too small for the batch changes nothing.
    for (size_t i = 0; i < sessions.size(); ++i) {
        Session& s = *sessions[i];
        auto appended = pool.append(s.seq_, tokens.subspan(i, 1));
        if (!appended) {
            for (size_t j = 0; j < i; ++j) {
                (void)pool.truncate(sessions[j]->seq_, static_cast<int32_t>(sessions[j]->position_));
                sessions[j]->read_cells_.pop_back();
            }
            return appended.error();
        }
        lead.store_->copy_blocks(lead.backend_, appended->copies);
        s.read_cells_.push_back(pool.cell(s.seq_, static_cast<int32_t>(s.position_)));
    }
    for (size_t i = 0; i < sessions.size(); ++i) {
        Session& s = *sessions[i];
        if (!s.dla_pending_) continue;
        if (auto st = s.attribute(tokens[i]); !st) return st; // the previous position's target is known now
    }
    const bool probing = lead.measuring();
    const int64_t n_vocab = lead.n_vocab_;
    std::vector<int32_t> positions, write_cells;
    std::vector<BatchSequence> sequences;
    std::vector<float> logits;
    std::vector<TokenProbe> probes;
    const auto n_all = static_cast<int64_t>(sessions.size());
    for (int64_t b0 = 0; b0 < n_all; b0 += lead.n_batch_) {
        const int64_t m = std::min(lead.n_batch_, n_all - b0);
        positions.clear();
        write_cells.clear();
        sequences.clear();
        for (int64_t i = 0; i < m; ++i) {
            const Session& s = *sessions[static_cast<size_t>(b0 + i)];
            positions.push_back(static_cast<int32_t>(s.position_));
            write_cells.push_back(s.read_cells_.back());
            sequences.push_back(BatchSequence{i, 1, s.read_cells_, s.prompt_batch_end_});
        }
        logits.resize(static_cast<size_t>(m * n_vocab));
        probes.assign(probing ? static_cast<size_t>(m) : 0, TokenProbe{});
        const KvBatchCells cells{positions, write_cells, {}};
        auto st = lead.forward_.run(tokens.subspan(static_cast<size_t>(b0), static_cast<size_t>(m)), cells,
                                    lead.store_->cache(), m, logits, nullptr, probes, sequences);
        if (st) st = lead.backend_.status();
        if (!st) {
            for (int64_t i = b0; i < n_all; ++i) { // the batches before this one are evaluated
                Session& s = *sessions[static_cast<size_t>(i)];
                (void)pool.truncate(s.seq_, static_cast<int32_t>(s.position_));
                s.read_cells_.pop_back();
            }
            return st.error();
        }
        for (int64_t i = 0; i < m; ++i) {
            Session& s = *sessions[static_cast<size_t>(b0 + i)];
            const int64_t first_position = s.position_;
            s.logits_.assign(logits.begin() + i * n_vocab, logits.begin() + (i + 1) * n_vocab);
            s.probes_.clear();
            if (probing) s.probes_.push_back(std::move(probes[static_cast<size_t>(i)]));
            s.position_ += 1;
            if (probing) {
                if (auto r = s.record_probes(tokens.subspan(static_cast<size_t>(b0 + i), 1), first_position); !r) return r;
            }
            if (s.reuse_) {
                if (auto r = pool.commit(s.seq_, s.publish_end()); !r) return r;
            }
        }
    }
    return Ok{};
}

Status Session::attribute_probes(std::span<TokenProbe* const> probes, std::span<const int32_t> targets) {
    if (auto s = dla_->attribute(backend_, probes, targets); !s) return s;
    for (size_t i = 0; i < probes.size(); ++i) {
        probes[i]->dla_target = targets[i];
        if (!options_.instrument.head_outputs) probes[i]->head_outputs.clear(); // kept only for DLA
    }
    return Ok{};
}

Status Session::record_probes(std::span<const int32_t> tokens, int64_t first_position) {
    if (dla_ && probes_.size() > 1) { // every position but the last, whose target comes next
        std::vector<TokenProbe*> known;
        for (size_t i = 0; i + 1 < probes_.size(); ++i) known.push_back(&probes_[i]);
        if (auto s = attribute_probes(known, tokens.subspan(1, known.size())); !s) return s;
    }
    for (size_t i = 0; i < probes_.size(); ++i) {
        if (caches_measurements()) store_->set_probe(read_cells_[static_cast<size_t>(first_position) + i], probes_[i]);
    }
    dla_pending_ = dla_.has_value();
    return Ok{};
}

Status Session::attribute(int32_t target) {
    if (!dla_pending_ || probes_.empty()) return Ok{};
    TokenProbe* last = &probes_.back();
    if (auto s = attribute_probes(std::span<TokenProbe* const>(&last, 1), std::span<const int32_t>(&target, 1)); !s) return s;
    if (caches_measurements()) store_->set_probe(read_cells_[static_cast<size_t>(position_ - 1)], probes_.back());
    dla_pending_ = false;
    return Ok{};
}

Result<std::vector<float>> Session::attribution_toward(int32_t target) {
    if (!dla_pending_ || probes_.empty()) return std::vector<float>{};
    TokenProbe copy = probes_.back();
    TokenProbe* probe = &copy;
    if (auto s = dla_->attribute(backend_, std::span<TokenProbe* const>(&probe, 1), std::span<const int32_t>(&target, 1)); !s) {
        return s.error();
    }
    return std::move(copy.dla);
}

Status Session::rewind(int64_t position) {
    if (position < 0 || position > position_) {
        return make_error(ErrorCode::InvalidArgument, "cannot rewind to position " + std::to_string(position) +
                                                          " from " + std::to_string(position_));
    }
    if (auto s = store_->pool().truncate(seq_, static_cast<int32_t>(position)); !s) return s;
    read_cells_.resize(static_cast<size_t>(position));
    position_ = position;
    dla_pending_ = false;
    return Ok{};
}

} // namespace octo
