// Per-family renderers behind format_chat(). Each receives the turns after an optional
// leading system text, in any order of user and assistant (format_chat() has merged
// consecutive same-role turns for the families whose templates demand alternation); each
// writes the text after any leading BOS (format_chat() handles that).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/chat/chat_format.h"
#include "engine/chat/chat_message.h"
#include "engine/chat/chat_template.h"

namespace octo {

struct TemplateTurns {
    std::optional<std::string_view> system;
    std::span<const ChatMessage> turns; // user and assistant, at least one; system ones only for
                                        // ChatML and Llama 3, which write them where they stand
    // The first user turn's index (turns.size() when there is none): where the families that
    // put the system text in front of the first user message put it.
    size_t first_user() const;
    size_t last_user() const; // turns.size() when there is none
};

std::string format_llama2(const TemplateTurns& c, const ChatFormatContext& context);
std::string format_llama3(const TemplateTurns& c, const ChatTemplate& tmpl, const ChatFormatContext& context);
std::string format_chatml(const TemplateTurns& c, const ChatTemplate& tmpl, const ChatFormatContext& context);
std::string format_mistral(const TemplateTurns& c, MistralStyle style, const ChatFormatContext& context);
std::string format_gemma(const TemplateTurns& c);
std::string format_phi3(const TemplateTurns& c, const ChatTemplate& tmpl);
std::string format_deepseek3(const TemplateTurns& c);
std::string format_harmony(const TemplateTurns& c, const ChatFormatContext& context);

} // namespace octo
