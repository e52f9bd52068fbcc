// Renders a conversation with a recognised chat template, giving the text the model's
// own Jinja template produces with add_generation_prompt = true.
//
// BOS: like llama.cpp, which strips a leading bos_token from the rendered text whenever
// the tokenizer adds BOS itself, the text starts with `bos_text` only when the template
// writes bos_token first AND `tokenizer_adds_bos` is false. So tokenize the result with
// the vocabulary's usual BOS rule and with special-token parsing on. BOS/EOS written
// *between* turns (Llama 2, Mistral history) are always part of the text.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/chat/chat_message.h"
#include "engine/chat/chat_template.h"
#include "engine/core/result.h"

namespace octo {

struct ChatFormatContext {
    std::string bos_text;           // text of the BOS token, e.g. "<s>"
    std::string eos_text;           // text of the EOS token, e.g. "</s>"
    bool tokenizer_adds_bos = true; // tokenizer.ggml.add_bos_token (or its default)
    // The date templates that read the clock (strftime_now) write, each in its own form:
    // Llama 3.2's "Today Date: 05 Mar 2025", harmony's "Current date: 2025-03-05". Unset: a
    // Llama 3 template's own fallback date (reproducible output); harmony, which has none,
    // takes the system clock's local date, as its template does.
    std::optional<std::chrono::year_month_day> today;
    // Qwen3's `enable_thinking` (ChatTemplate::chatml_thinking): false asks the model to
    // answer without thinking, by an empty think block in the generation prompt.
    bool enable_thinking = true;
    ReasoningEffort reasoning = ReasoningEffort::Medium; // harmony's "Reasoning:" line
    // The tools the model is offered, written where its family's template writes them
    // (ChatTemplate::tools: the template defines a tool format; others refuse tools).
    std::span<const ChatTool> tools;
    // Written after the generation prompt: the opening of a required tool call, for the families
    // whose call opens with control tokens a grammar never writes (Mistral's "[TOOL_CALLS]",
    // harmony's call header): tool_call_opening(), tool_call_format.h. "" for none.
    std::string tool_call_opening;
};

// Any order OpenAI's API accepts: an optional leading system message, then user and assistant
// messages in any order (consecutive user turns, an assistant turn first, an assistant turn
// last — the generation prompt follows it all the same). For the families whose own templates
// insist on alternation (Llama 2, Mistral, Gemma) consecutive messages of one role are joined
// with a blank line. InvalidArgument: no user or assistant message, a system message after the
// first, or (Llama 2, Mistral) a system message with no user turn to carry it. Tools, tool calls
// and tool results (ChatRole::Tool) are written in the family's tool format; Unsupported when its
// template has none, InvalidArgument where the format cannot carry them (Llama 3.1: one call a
// turn; Mistral: call ids of 9 letters and digits).
// Jinja's `trim` / Python's str.strip() for ASCII whitespace (what templates that trim a message
// write of it).
std::string_view trim_ascii(std::string_view text);

Result<std::string> format_chat(const ChatTemplate& tmpl, std::span<const ChatMessage> messages,
                                const ChatFormatContext& context);

} // namespace octo
