#include "engine/generation/generator.h"

#include <chrono>

#include "engine/generation/stop_matcher.h"
#include "engine/sampling/sampler_chain.h"

namespace octo {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

bool cancelled(const GenerateRequest& r) { return r.cancel && r.cancel->load(std::memory_order_relaxed); }

} // namespace

const char* stop_reason_name(StopReason reason) {
    switch (reason) {
    case StopReason::MaxTokens: return "max_tokens";
    case StopReason::EndOfGeneration: return "end_of_generation";
    case StopReason::StopString: return "stop_string";
    case StopReason::ContextFull: return "context_full";
    case StopReason::Cancelled: return "cancelled";
    }
    return "unknown";
}

Result<GenerateResult> generate(Session& session, const Tokenizer& tokenizer, const GenerateRequest& request,
                                const std::function<void(const TokenEvent&)>& on_token) {
    const auto n_prompt = static_cast<int64_t>(request.prompt_ids.size());
    if (n_prompt == 0) return make_error(ErrorCode::InvalidArgument, "the prompt is empty (no tokens)");
    if (n_prompt > session.n_ctx()) {
        return make_error(ErrorCode::InvalidArgument,
                          "the prompt has " + std::to_string(n_prompt) + " tokens but the context holds " +
                              std::to_string(session.n_ctx()));
    }
    auto chain = SamplerChain::create(request.sampling);
    if (!chain) return chain.error();
    SamplerChain& sampler = chain.value();
    for (int32_t id : request.prompt_ids) sampler.accept(id);

    GenerateResult result;
    StopMatcher stops(request.stop_strings);

    const auto start = Clock::now();
    result.reused_tokens = session.start(request.prompt_ids);
    const std::span<const int32_t> prompt(request.prompt_ids);
    auto logits = session.eval(prompt.subspan(static_cast<size_t>(result.reused_tokens)));
    if (!logits) return logits.error();
    result.evaluated_tokens = n_prompt - result.reused_tokens;
    result.prefill_ms = ms_since(start);
    result.prompt_probes.assign(session.reused_probes().begin(), session.reused_probes().end());
    result.prompt_probes.insert(result.prompt_probes.end(), session.probes().begin(), session.probes().end());
    auto last_token_time = start;

    while (true) {
        if (static_cast<int64_t>(result.tokens.size()) >= request.max_tokens) {
            result.stop_reason = StopReason::MaxTokens;
            break;
        }
        if (cancelled(request)) {
            result.stop_reason = StopReason::Cancelled;
            break;
        }
        TokenEvent event;
        event.id = sampler.sample(logits.value());
        sampler.accept(event.id);
        event.logprobs = token_logprobs(logits.value(), event.id);
        event.bytes = tokenizer.token_bytes(event.id);
        event.ms = ms_since(last_token_time);
        if (auto s = session.attribute(event.id); !s) return s.error();
        if (result.tokens.empty()) {
            if (!session.probes().empty()) result.prompt_probes.back() = session.probes().back(); // attributed now
            if (request.on_prompt) request.on_prompt(result.prompt_probes);
        }
        if (!session.probes().empty()) event.probe = session.probes().back();
        last_token_time = Clock::now();
        const bool eog = request.stop_at_eog && tokenizer.is_eog(event.id);
        StopMatcher::Output shown = eog ? StopMatcher::Output{stops.flush(), false} : stops.push(event.bytes);
        event.visible_text = shown.text;
        result.text += shown.text;
        result.tokens.push_back(event);
        if (on_token) on_token(event);
        if (eog) {
            result.stop_reason = StopReason::EndOfGeneration;
            break;
        }
        if (shown.stopped) {
            result.stop_reason = StopReason::StopString;
            break;
        }
        if (static_cast<int64_t>(result.tokens.size()) >= request.max_tokens) continue;
        if (session.position() >= session.n_ctx()) {
            result.stop_reason = StopReason::ContextFull;
            break;
        }
        const auto decode_start = Clock::now();
        const int32_t next[1] = {event.id};
        logits = session.eval(next);
        if (!logits) {
            if (logits.error().code == ErrorCode::Cancelled) {
                result.stop_reason = StopReason::Cancelled;
                break;
            }
            return logits.error();
        }
        result.decode_ms += ms_since(decode_start);
        result.n_decoded += 1;
        result.evaluated_tokens += 1;
    }
    if (result.tokens.empty() && request.on_prompt) request.on_prompt(result.prompt_probes);
    result.text += stops.flush(); // held-back text when the loop ended otherwise
    return result;
}

} // namespace octo
