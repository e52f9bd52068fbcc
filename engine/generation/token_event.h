// One generated token as the generation loop reports it (generator.h), and how a run stopped:
// value types that traces, events and captures keep without the loop itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/generation/constraint_step.h"
#include "engine/instrumentation/token_probe.h"
#include "engine/sampling/logprobs.h"

namespace octo {

struct TokenEvent {
    int32_t id = -1;
    std::string bytes;         // what the token stands for (Tokenizer::token_bytes)
    std::string visible_text;  // text this token releases for display (stop strings held back,
                               // an EOG token's text dropped); may be empty
    TokenLogprobs logprobs;    // of this token, with the top alternatives (GenerateRequest::top_logprobs)
    double ms = 0.0;           // since the previous token (the first: since the start)
    TokenProbe probe;          // instrumentation of the position whose logits chose this token
                               // (empty unless the session instruments: SessionOptions::instrument)
    std::optional<ConstraintStep> constraint; // with a grammar: what its mask did at this step
};

enum class StopReason { MaxTokens, EndOfGeneration, StopString, ContextFull, Cancelled };
const char* stop_reason_name(StopReason reason);

} // namespace octo
