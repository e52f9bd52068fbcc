// The generation loop: prompt ids in, one token at a time out, until max_tokens, an
// end-of-generation token, a user stop string, a full context or a cancel.
//
// Per token it reports the id, its bytes, its log-probability and top-5 alternatives (or more)
// (log-softmax of the raw logits, before any sampler: logprobs.h) and the milliseconds
// since the previous token (the first token's time includes the prompt's prefill).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/generation/grammar_constraint.h"
#include "engine/generation/run_spec.h"
#include "engine/generation/stop_matcher.h"
#include "engine/generation/token_event.h"
#include "engine/inference/session.h"
#include "engine/sampling/sampler_chain.h"
#include "engine/sampling/logprobs.h"
#include "engine/sampling/sampler_config.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

// The run's GenerationSpec (run_spec.h: max_tokens, stop strings, stop_at_eog, sampling,
// top_logprobs) with the prompt's ids and the hooks of this one call.
struct GenerateRequest : GenerationSpec {
    std::vector<int32_t> prompt_ids;      // BOS already included when wanted
    const std::atomic<bool>* cancel = nullptr; // checked before each token
    // Called once with every prompt position's probe, as soon as they are final (when the
    // first token is chosen, or at the end when none is); optional.
    std::function<void(const std::vector<TokenProbe>&)> on_prompt;
};

struct GenerateResult {
    std::vector<TokenEvent> tokens; // every generated token, the stopping one included
    std::string text;               // generated text without an EOG token's text or a stop string
    StopReason stop_reason = StopReason::MaxTokens;
    double prefill_ms = 0.0;        // evaluating the prompt
    double decode_ms = 0.0;         // evaluating the generated tokens after the first
    int64_t n_decoded = 0;          // tokens evaluated one at a time (for tokens/s)
    std::vector<TokenProbe> prompt_probes; // [n_prompt] each prompt position's own (when instrumenting)
    int64_t reused_tokens = 0;      // prompt tokens whose K/V (and measurements) came from the pool's cache
    int64_t evaluated_tokens = 0;   // tokens run through the forward pass: the rest of the prompt + decoded
};

// The loop one token at a time: what generate() runs to the end, and what a server runs for many
// requests at once, evaluating their chosen tokens together (Session::eval_batch).
//
//   auto loop = GenerationLoop::start(session, tokenizer, request);  // the prompt is evaluated
//   while (true) {
//       auto event = loop->choose();         // the next token from the last logits
//       ... report *event ...
//       if (loop->done()) break;
//       loop->advance();                    // or Session::eval_batch, then loop->evaluated()
//   }
//   GenerateResult result = loop->finish();
class GenerationLoop {
public:
    // Validates the request, restarts the session with the prompt (reusing a cached prefix) and
    // evaluates the rest of it. Errors: those of generate().
    static Result<GenerationLoop> start(Session& session, const Tokenizer& tokenizer, const GenerateRequest& request);

    // Chooses the next token from the last logits and returns it; done() may be true after it.
    // When the run ends before a token is chosen (max_tokens reached, cancelled), done() is true
    // and the result is null. Must not be called once done().
    Result<const TokenEvent*> choose();
    bool done() const { return done_; }
    // The token to evaluate next (the last chosen), when !done().
    int32_t pending() const { return result_.tokens.back().id; }
    // Evaluates pending() alone (Session::eval); a cancel during it ends the run.
    Status advance();
    // Tells the loop that pending() was evaluated by other means (Session::eval_batch), taking
    // `ms` milliseconds; the session's logits() are the next token's.
    void evaluated(double ms);
    // The run's result; call once, when done().
    GenerateResult finish();

private:
    GenerationLoop(Session& session, const Tokenizer& tokenizer, const GenerateRequest& request, SamplerChain sampler);

    Session* session_;
    const Tokenizer* tokenizer_;
    const GenerateRequest* request_;
    SamplerChain sampler_;
    StopMatcher stops_;
    // With a grammar: only tokens that keep to it can be chosen.
    std::unique_ptr<GrammarConstraint> constraint_;
    std::vector<float> masked_;
    GenerateResult result_;
    std::chrono::steady_clock::time_point last_token_time_;
    bool done_ = false;
};

// Runs the loop on a session that is restarted first with Session::start(prompt_ids), so a
// cached prefix of the prompt is reused (the request must outlive a GenerationLoop). `on_token` (optional) is called for each
// token as soon as it is chosen. Errors: InvalidArgument for an empty prompt or one longer
// than the context (naming both lengths), or whatever the session's eval reports.
Result<GenerateResult> generate(Session& session, const Tokenizer& tokenizer, const GenerateRequest& request,
                                const std::function<void(const TokenEvent&)>& on_token = {});

} // namespace octo
