// A conversation run turn by turn: the one description of a multi-turn run that the CLI
// (`octoscope-cli chat --conversation FILE.json`) uses, with the lens on every turn.
//
// The messages come in OpenAI's format and any order its API accepts (chat_format.h). Each
// assistant turn the file holds is evaluated as given: the conversation up to and including it is
// the prompt of one run (no token generated), so its tokens are measured where the model reads
// them. When the last message is not an assistant's, one more run generates the next assistant
// turn. Every run extends the previous one's prompt, so the KV pool reuses the blocks of the
// conversation so far (each step's reused and evaluated tokens say how many); editing turn k and
// running again reuses everything before it.
//
// The lens of every message — user turns too — is read from the last run, whose prompt holds the
// whole conversation: each token of the rendered text is placed in the message whose content
// it lies in (template markup belongs to no message).
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chat/chat_message.h"
#include "engine/core/result.h"
#include "engine/generation/run_spec.h"
#include "engine/generation/run_trace.h"

namespace octo {

// Runs one step's spec (its `messages` set) and returns what it computed.
using ConversationStepRunner = std::function<Result<RunTrace>(const RunSpec& spec)>;

struct ConversationStep {
    size_t message = 0;       // the assistant turn this run evaluated or generated
    bool generated = false;   // it generated the turn (the last step, when the file ends without one)
    RunTrace trace;
};

// Where one message lies in the last step's trace.
struct ConversationTurn {
    size_t message = 0;
    std::optional<size_t> content_begin; // bytes of its content in the last step's prompt text (nullopt: the template rewrote it)
    size_t first_token = 0;              // its content's tokens in the last step's trace: [first_token, end_token)
    size_t end_token = 0;
};

struct ConversationRun {
    std::vector<ChatMessage> messages;  // as given, with the generated assistant turn appended
    std::vector<ConversationStep> steps; // one per assistant turn, in order (none: nothing was run)
    std::vector<ConversationTurn> turns; // one per message (no tokens when nothing was run)
    const RunTrace* last() const { return steps.empty() ? nullptr : &steps.back().trace; }
};

// `evaluate_given` false: only the missing last assistant turn is run (a remote server, whose
// measurements of given turns are not available: the text measures need no run).
struct ConversationOptions {
    bool evaluate_given = true;
};

// The lens of a turn: each subsystem's mean `metric` over the tokens [first, end) that have it
// (`metrics_at(i)`: token i's metrics) — the CLI's turns and the server's `prompt.turns`.
struct TurnLens {
    std::array<double, kSubsystemCount> mean = {};
    size_t measured = 0; // tokens that had the metric (0: no mean)
    int top() const;     // the subsystem with the largest mean; -1 when nothing was measured
};
TurnLens turn_lens(size_t first, size_t end, Metric metric, const std::function<const TokenMetrics&(size_t)>& metrics_at);

// Whether `messages` can be run as a conversation whatever the model: not empty, more than a
// system message, and no system message after the first (InvalidArgument saying which).
Status check_conversation(std::span<const ChatMessage> messages);

// The spec of one step: `base` with its prompt fields replaced by messages [0, upto); `generate`
// false evaluates them as given (no token generated: the last is the assistant turn measured).
RunSpec conversation_step_spec(std::span<const ChatMessage> messages, size_t upto, bool generate, const RunSpec& base);

// Runs `messages` with the settings of `base` (its prompt fields are replaced by each step's
// messages; base.max_tokens applies to the generated turn). InvalidArgument: no messages, a
// conversation the chat template refuses, or a system message after the first; the runner's errors.
Result<ConversationRun> run_conversation(std::span<const ChatMessage> messages, const RunSpec& base,
                                         const ConversationStepRunner& run, const ConversationOptions& options = {});

// Places the tokens of `trace` (its prompt, then any generated tokens) in `messages`: a message's
// content is looked for in the prompt text after the previous one's (trimmed, as most templates
// write it); a generated turn takes the generated tokens.
std::vector<ConversationTurn> locate_turns(std::span<const ChatMessage> messages, const RunTrace& trace, bool last_generated);
// The same for one step's trace: the messages of its spec, and when it generated, the generated
// turn after them (its text the outcome's, or the tokens so far while it runs).
std::vector<ConversationTurn> locate_turns(const RunTrace& trace);
// The same from the prompt's text and its tokens' bytes (a server's request: nothing generated yet).
std::vector<ConversationTurn> locate_turns(std::span<const ChatMessage> messages, std::string_view prompt_text,
                                           std::span<const std::string> prompt_token_bytes);

} // namespace octo
