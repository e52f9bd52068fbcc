#include "engine/generation/generator.h"

#include <chrono>
#include <limits>
#include <vector>


namespace octo {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool cancelled(const GenerateRequest& r) { return r.cancel && r.cancel->load(std::memory_order_relaxed); }

} // namespace

GenerationLoop::GenerationLoop(Session& session, const Tokenizer& tokenizer, const GenerateRequest& request,
                               SamplerChain sampler)
    : session_(&session), tokenizer_(&tokenizer), request_(&request), sampler_(std::move(sampler)),
      stops_(request.stop_strings) {}

Result<GenerationLoop> GenerationLoop::start(Session& session, const Tokenizer& tokenizer, const GenerateRequest& request) {
    const auto n_prompt = static_cast<int64_t>(request.prompt_ids.size());
    if (n_prompt == 0) return make_error(ErrorCode::InvalidArgument, "the prompt is empty (no tokens)");
    if (n_prompt > session.n_ctx()) {
        return make_error(ErrorCode::InvalidArgument,
                          "the prompt has " + std::to_string(n_prompt) + " tokens but the context holds " +
                              std::to_string(session.n_ctx()));
    }
    auto chain = SamplerChain::create(request.sampling);
    if (!chain) return chain.error();
    GenerationLoop loop(session, tokenizer, request, std::move(chain.value()));
    if (!request.grammar.empty()) {
        auto constraint = GrammarConstraint::create(request.grammar, tokenizer);
        if (!constraint) return constraint.error();
        loop.constraint_ = std::move(constraint.value());
    }
    for (int32_t id : request.prompt_ids) loop.sampler_.accept(id);

    GenerateResult& result = loop.result_;
    const auto start = Clock::now();
    result.reused_tokens = session.start(request.prompt_ids);
    const std::span<const int32_t> prompt(request.prompt_ids);
    if (auto logits = session.eval(prompt.subspan(static_cast<size_t>(result.reused_tokens))); !logits) {
        return logits.error();
    }
    result.evaluated_tokens = n_prompt - result.reused_tokens;
    result.prefill_ms = ms_since(start);
    result.prompt_probes.assign(session.reused_probes().begin(), session.reused_probes().end());
    result.prompt_probes.insert(result.prompt_probes.end(), session.probes().begin(), session.probes().end());
    loop.last_token_time_ = start;
    return loop;
}

Result<const TokenEvent*> GenerationLoop::choose() {
    GenerateResult& result = result_;
    if (static_cast<int64_t>(result.tokens.size()) >= request_->max_tokens) {
        result.stop_reason = StopReason::MaxTokens;
        done_ = true;
        return static_cast<const TokenEvent*>(nullptr);
    }
    if (cancelled(*request_)) {
        result.stop_reason = StopReason::Cancelled;
        done_ = true;
        return static_cast<const TokenEvent*>(nullptr);
    }
    Session& session = *session_;
    const std::span<const float> logits = session.logits().last(static_cast<size_t>(session.n_vocab()));
    TokenEvent event;
    const double lse = log_sum_exp(logits);
    if (constraint_) {
        ConstraintStep step;
        if (auto s = constraint_->apply(logits, lse, masked_, step); !s) return s.error();
        event.id = sampler_.sample(masked_);
        constraint_->accept(event.id);
        if (step.removed_mass >= ConstraintStep::kDlaMass && !step.removed.empty()) {
            auto toward = session.attribution_toward(step.removed.front().id);
            if (!toward) return toward.error();
            step.removed_dla = std::move(toward.value());
            if (!step.removed_dla.empty()) {
                auto chosen = session.attribution_toward(event.id);
                if (!chosen) return chosen.error();
                for (size_t i = 0; i < step.removed_dla.size() && i < chosen->size(); ++i) step.removed_dla[i] -= (*chosen)[i];
            }
        }
        event.constraint = std::move(step);
    } else {
        event.id = sampler_.sample(logits);
    }
    sampler_.accept(event.id);
    event.logprobs = token_logprobs(logits, event.id, request_->top_logprobs, lse);
    event.bytes = tokenizer_->token_bytes(event.id);
    event.ms = ms_since(last_token_time_);
    if (auto s = session.attribute(event.id); !s) return s.error();
    if (result.tokens.empty()) {
        if (!session.probes().empty()) result.prompt_probes.back() = session.probes().back(); // attributed now
        if (request_->on_prompt) request_->on_prompt(result.prompt_probes);
    }
    if (!session.probes().empty()) event.probe = session.probes().back();
    last_token_time_ = Clock::now();
    const bool eog = request_->stop_at_eog && tokenizer_->is_eog(event.id);
    // A generated BOS starts no text: its bytes ("<s>") stay in `bytes`, the text shows nothing
    // for it. (Other control tokens stay in the text: a harmony answer is read by its markers.)
    const bool bos = !eog && event.id == tokenizer_->vocab().bos_id;
    StopMatcher::Output shown = eog   ? StopMatcher::Output{stops_.flush(), false}
                                : bos ? StopMatcher::Output{}
                                      : stops_.push(event.bytes);
    event.visible_text = shown.text;
    result.text += shown.text;
    result.tokens.push_back(std::move(event));
    if (eog) {
        result.stop_reason = StopReason::EndOfGeneration;
        done_ = true;
    } else if (shown.stopped) {
        result.stop_reason = StopReason::StopString;
        done_ = true;
    } else if (static_cast<int64_t>(result.tokens.size()) >= request_->max_tokens) {
        result.stop_reason = StopReason::MaxTokens;
        done_ = true;
    } else if (session.position() >= session.n_ctx()) {
        result.stop_reason = StopReason::ContextFull;
        done_ = true;
    }
    return &result.tokens.back();
}

Status GenerationLoop::advance() {
    const auto decode_start = Clock::now();
    const int32_t next[1] = {pending()};
    if (auto logits = session_->eval(next); !logits) {
        if (logits.error().code != ErrorCode::Cancelled) return logits.error();
        result_.stop_reason = StopReason::Cancelled;
        done_ = true;
        return Ok{};
    }
    evaluated(ms_since(decode_start));
    return Ok{};
}

void GenerationLoop::evaluated(double ms) {
    result_.decode_ms += ms;
    result_.n_decoded += 1;
    result_.evaluated_tokens += 1;
}

GenerateResult GenerationLoop::finish() {
    if (result_.tokens.empty() && request_->on_prompt) request_->on_prompt(result_.prompt_probes);
    result_.text += stops_.flush(); // held-back text when the loop ended otherwise
    return std::move(result_);
}

Result<GenerateResult> generate(Session& session, const Tokenizer& tokenizer, const GenerateRequest& request,
                                const std::function<void(const TokenEvent&)>& on_token) {
    auto loop = GenerationLoop::start(session, tokenizer, request);
    if (!loop) return loop.error();
    while (true) {
        auto event = loop->choose();
        if (!event) return event.error();
        if (*event && on_token) on_token(**event);
        if (loop->done()) break;
        if (auto s = loop->advance(); !s) return s.error();
    }
    return loop->finish();
}

} // namespace octo
