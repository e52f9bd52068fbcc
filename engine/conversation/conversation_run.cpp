#include "engine/conversation/conversation_run.h"

#include "engine/chat/chat_format.h"

#include <algorithm>
#include <string_view>

namespace octo {

namespace {

// Places prompt tokens 0 … n−1 (their bytes from `bytes_of_token`) in the messages; the last
// message, when `generated` tokens [n_prompt, n_total) are its own, takes them.
template <class BytesOf>
std::vector<ConversationTurn> place_tokens(std::span<const ChatMessage> messages, std::string_view text, size_t n_prompt,
                                           BytesOf bytes_of_token, std::optional<size_t> generated_end) {
    // Each prompt token's bytes in the prompt text: tokens are matched in order; a token whose
    // bytes are not next in the text (BOS added by the tokenizer) takes no bytes; a SentencePiece
    // token's leading space stands for nothing written when the text has none there.
    std::vector<std::pair<size_t, size_t>> bytes_of(n_prompt, {0, 0});
    size_t cursor = 0;
    for (size_t i = 0; i < n_prompt; ++i) {
        const std::string& b = bytes_of_token(i);
        if (!b.empty() && text.compare(cursor, b.size(), b) == 0) {
            bytes_of[i] = {cursor, cursor + b.size()};
            cursor += b.size();
        } else if (b.size() > 1 && b[0] == ' ' && text.compare(cursor, b.size() - 1, std::string_view(b).substr(1)) == 0) {
            bytes_of[i] = {cursor, cursor + b.size() - 1};
            cursor += b.size() - 1;
        } else {
            bytes_of[i] = {cursor, cursor};
        }
    }
    std::vector<ConversationTurn> turns;
    size_t search_from = 0;
    for (size_t m = 0; m < messages.size(); ++m) {
        ConversationTurn turn;
        turn.message = m;
        if (generated_end && m + 1 == messages.size()) {
            turn.first_token = n_prompt;
            turn.end_token = *generated_end;
            turns.push_back(turn);
            continue;
        }
        const std::string_view content = trim_ascii(messages[m].content);
        const size_t at = content.empty() ? std::string_view::npos : text.find(content, search_from);
        if (at == std::string_view::npos) { // not written as given (a template rewrote it): no tokens
            turn.first_token = turn.end_token = n_prompt;
            turns.push_back(turn);
            continue;
        }
        turn.content_begin = at;
        const size_t end = at + content.size();
        search_from = end;
        size_t first = n_prompt, last = 0;
        for (size_t i = 0; i < n_prompt; ++i) {
            const auto [b, e] = bytes_of[i];
            if (e > at && b < end) { // the token overlaps the content
                first = std::min(first, i);
                last = i + 1;
            }
        }
        turn.first_token = first;
        turn.end_token = std::max(first, last);
        turns.push_back(turn);
    }
    return turns;
}

} // namespace

std::vector<ConversationTurn> locate_turns(std::span<const ChatMessage> messages, const RunTrace& trace, bool last_generated) {
    return place_tokens(messages, trace.prompt_text, trace.n_prompt, [&](size_t i) -> const std::string& { return trace.tokens[i].bytes; },
                        last_generated ? std::optional<size_t>(trace.tokens.size()) : std::nullopt);
}

std::vector<ConversationTurn> locate_turns(const RunTrace& trace) {
    std::vector<ChatMessage> messages = trace.spec.messages;
    const bool generated = !messages.empty() && messages.back().role != ChatRole::Assistant;
    if (generated) messages.push_back({ChatRole::Assistant, trace.outcome ? trace.outcome->text : trace.generated_bytes()});
    return locate_turns(messages, trace, generated);
}

std::vector<ConversationTurn> locate_turns(std::span<const ChatMessage> messages, std::string_view prompt_text,
                                           std::span<const std::string> prompt_token_bytes) {
    return place_tokens(messages, prompt_text, prompt_token_bytes.size(), [&](size_t i) -> const std::string& { return prompt_token_bytes[i]; },
                        std::nullopt);
}

TurnLens turn_lens(size_t first, size_t end, Metric metric, const std::function<const TokenMetrics&(size_t)>& metrics_at) {
    TurnLens lens;
    for (size_t i = first; i < end; ++i) {
        const auto& values = metrics_at(i).get(metric);
        if (!values) continue;
        for (size_t s = 0; s < lens.mean.size(); ++s) lens.mean[s] += (*values)[s];
        ++lens.measured;
    }
    if (lens.measured > 0) {
        for (double& m : lens.mean) m /= static_cast<double>(lens.measured);
    }
    return lens;
}

int TurnLens::top() const {
    if (measured == 0) return -1;
    return static_cast<int>(std::max_element(mean.begin(), mean.end()) - mean.begin());
}

Status check_conversation(std::span<const ChatMessage> messages) {
    if (messages.empty()) return make_error(ErrorCode::InvalidArgument, "the conversation has no messages");
    // What every rendering needs, whatever the model (one with a prompt template reads only the
    // last user message, and would not notice).
    for (size_t m = 1; m < messages.size(); ++m) {
        if (messages[m].role == ChatRole::System) {
            return make_error(ErrorCode::InvalidArgument, "message " + std::to_string(m + 1) + " is a system message: a system message is accepted only as the first message");
        }
    }
    if (messages.size() == 1 && messages[0].role == ChatRole::System) {
        return make_error(ErrorCode::InvalidArgument, "the conversation has only a system message");
    }
    return Ok{};
}

RunSpec conversation_step_spec(std::span<const ChatMessage> messages, size_t upto, bool generate, const RunSpec& base) {
    RunSpec spec = base;
    spec.prompt.clear();
    spec.chat = false;
    spec.system.clear();
    spec.messages.assign(messages.begin(), messages.begin() + static_cast<std::ptrdiff_t>(std::min(upto, messages.size())));
    if (!generate) spec.max_tokens = 0;
    return spec;
}

Result<ConversationRun> run_conversation(std::span<const ChatMessage> messages, const RunSpec& base,
                                         const ConversationStepRunner& run, const ConversationOptions& options) {
    if (auto s = check_conversation(messages); !s) return s.error();
    ConversationRun out;
    out.messages.assign(messages.begin(), messages.end());
    auto step = [&](size_t upto, bool generate) -> Status {
        auto trace = run(conversation_step_spec(out.messages, upto, generate, base));
        if (!trace) return trace.error();
        out.steps.push_back({generate ? upto : upto - 1, generate, std::move(trace.value())});
        return Ok{};
    };
    for (size_t m = 0; m < messages.size() && options.evaluate_given; ++m) {
        if (messages[m].role != ChatRole::Assistant) continue;
        if (auto s = step(m + 1, false); !s) return s.error();
    }
    const bool generate = messages.back().role != ChatRole::Assistant;
    if (generate) {
        if (auto s = step(messages.size(), true); !s) return s.error();
        const RunTrace& t = out.steps.back().trace;
        out.messages.push_back({ChatRole::Assistant, t.outcome ? t.outcome->text : std::string()});
    }
    if (out.steps.empty()) {
        for (size_t m = 0; m < out.messages.size(); ++m) out.turns.push_back({m, std::nullopt, 0, 0});
    } else {
        out.turns = locate_turns(out.messages, *out.last(), generate);
    }
    return out;
}

} // namespace octo
