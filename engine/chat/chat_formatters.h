// Per-family renderers behind format_chat(). Each receives a conversation already checked
// to be: optional system text, then user/assistant turns alternating, ending with a user
// turn; each writes the text after any leading BOS (format_chat() handles that).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/chat/chat_format.h"
#include "engine/chat/chat_message.h"
#include "engine/chat/chat_template.h"

namespace octo {

struct Conversation {
    std::optional<std::string_view> system;
    std::span<const ChatMessage> turns; // user first, alternating, user last
};

// Jinja's `trim` / Python's str.strip() for ASCII whitespace.
std::string_view trim_ascii(std::string_view text);

std::string format_llama2(const Conversation& c, const ChatFormatContext& context);
std::string format_llama3(const Conversation& c, const ChatTemplate& tmpl, const ChatFormatContext& context);
std::string format_chatml(const Conversation& c, const ChatTemplate& tmpl, const ChatFormatContext& context);
std::string format_mistral(const Conversation& c, MistralStyle style, const ChatFormatContext& context);
std::string format_gemma(const Conversation& c);
std::string format_phi3(const Conversation& c, const ChatTemplate& tmpl);
std::string format_deepseek3(const Conversation& c);
std::string format_harmony(const Conversation& c, const ChatFormatContext& context);

} // namespace octo
