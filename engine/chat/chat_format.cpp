#include "engine/chat/chat_format.h"

#include "engine/chat/chat_formatters.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace octo {

namespace {

// The families whose own templates refuse anything but user/assistant alternation (Llama 2,
// Mistral, Gemma): consecutive turns of one role are joined into one, as the messages were
// meant, with a blank line between them.
bool needs_alternation(ChatFamily family) {
    return family == ChatFamily::Llama2 || family == ChatFamily::Mistral || family == ChatFamily::Gemma;
}

struct CheckedTurns {
    TemplateTurns turns;
    std::vector<ChatMessage> merged; // storage of turns.turns when same-role turns were joined
};

// The families whose templates write every message under its own role header, so that a system
// message after the first is written where it stands (Qwen's and Llama 3's templates do that).
bool writes_system_in_place(ChatFamily family) { return family == ChatFamily::ChatML || family == ChatFamily::Llama3; }

Result<CheckedTurns> check_turns(std::span<const ChatMessage> messages, ChatFamily family) {
    CheckedTurns c;
    if (!messages.empty() && messages.front().role == ChatRole::System) {
        c.turns.system = messages.front().content;
        messages = messages.subspan(1);
    }
    auto bad = [](const char* why) { return make_error(ErrorCode::InvalidArgument, why); };
    const bool has_turn = std::any_of(messages.begin(), messages.end(), [](const ChatMessage& m) { return m.role != ChatRole::System; });
    if (!has_turn) return bad("chat needs at least one user or assistant message");
    c.turns.turns = messages;
    const bool late_system = std::any_of(messages.begin(), messages.end(), [](const ChatMessage& m) { return m.role == ChatRole::System; });
    if (late_system && !writes_system_in_place(family)) {
        // A template with one system slot: a later system message goes in front of the next user
        // message (as llama.cpp does for Gemma), or is a user message when none follows.
        std::vector<ChatMessage> folded;
        std::string pending;
        for (const ChatMessage& m : messages) {
            if (m.role == ChatRole::System) {
                pending += (pending.empty() ? "" : "\n\n") + m.content;
                continue;
            }
            folded.push_back(m);
            if (m.role == ChatRole::User && !pending.empty()) {
                folded.back().content = pending + "\n\n" + m.content;
                pending.clear();
            }
        }
        if (!pending.empty()) folded.push_back(ChatMessage{ChatRole::User, pending});
        c.merged = std::move(folded);
        c.turns.turns = c.merged;
    }
    if (c.turns.system && (family == ChatFamily::Llama2 || family == ChatFamily::Mistral) && c.turns.first_user() == c.turns.turns.size()) {
        return bad("this chat template writes the system message into a user turn, and the conversation has none");
    }
    if (!needs_alternation(family)) return c;
    std::vector<ChatMessage> merged;
    const auto plain = [](const ChatMessage& m) { return m.role != ChatRole::Tool && m.tool_calls.empty(); };
    for (const ChatMessage& m : c.turns.turns) {
        if (!merged.empty() && merged.back().role == m.role && plain(m) && plain(merged.back())) {
            merged.back().content += "\n\n" + m.content;
        } else {
            merged.push_back(m);
        }
    }
    c.merged = std::move(merged);
    c.turns.turns = c.merged;
    return c;
}

size_t first_of(std::span<const ChatMessage> turns, bool last) {
    size_t found = turns.size();
    for (size_t i = 0; i < turns.size(); ++i) {
        if (turns[i].role != ChatRole::User) continue;
        found = i;
        if (!last) break;
    }
    return found;
}

} // namespace

size_t TemplateTurns::first_user() const { return first_of(turns, false); }
size_t TemplateTurns::last_user() const { return first_of(turns, true); }

std::string_view trim_ascii(std::string_view text) {
    constexpr std::string_view kSpace = " \t\n\r\v\f";
    const size_t begin = text.find_first_not_of(kSpace);
    if (begin == std::string_view::npos) return {};
    return text.substr(begin, text.find_last_not_of(kSpace) - begin + 1);
}

namespace {

// Mistral's tool-call ids: 9 letters and digits.
bool mistral_call_id(const std::string& id) {
    return id.size() == 9 && std::all_of(id.begin(), id.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; });
}

// Tools, calls and results need the family's tool format, and what each format can carry.
Status check_tools(const ChatTemplate& tmpl, std::span<const ChatMessage> messages, const ChatFormatContext& context) {
    const bool uses_tools = !context.tools.empty() || std::any_of(messages.begin(), messages.end(), [](const ChatMessage& m) {
        return m.role == ChatRole::Tool || !m.tool_calls.empty();
    });
    if (!uses_tools) return Ok{};
    if (!tmpl.tools) {
        return make_error(ErrorCode::Unsupported, "the model's chat template (" + std::string(chat_family_name(tmpl.family)) +
                                                      ") has no tool format: tools, tool calls and tool results cannot be written");
    }
    bool called = false;
    for (const ChatMessage& m : messages) {
        if ((tmpl.family == ChatFamily::Llama3 || tmpl.family == ChatFamily::Harmony) && m.tool_calls.size() > 1) {
            return make_error(ErrorCode::InvalidArgument, std::string(tmpl.family == ChatFamily::Llama3 ? "Llama 3" : "harmony") +
                                                              "'s tool format takes one tool call an assistant turn, not " +
                                                              std::to_string(m.tool_calls.size()));
        }
        called = called || !m.tool_calls.empty();
        if (tmpl.family == ChatFamily::Harmony && m.role == ChatRole::Tool && !called) {
            return make_error(ErrorCode::InvalidArgument, "harmony names a tool result after the call it answers: a tool message needs an "
                                                          "assistant tool call before it");
        }
        if (tmpl.family != ChatFamily::Mistral) continue;
        for (const ToolCall& call : m.tool_calls) {
            if (!mistral_call_id(call.id)) {
                return make_error(ErrorCode::InvalidArgument, "Mistral's tool format needs tool-call ids of 9 letters and digits, not '" +
                                                                  call.id.substr(0, 40) + "'");
            }
        }
        if (m.role == ChatRole::Tool && !mistral_call_id(m.tool_call_id)) {
            return make_error(ErrorCode::InvalidArgument, "Mistral's tool format needs each tool result's tool_call_id (9 letters and digits), not '" +
                                                              m.tool_call_id.substr(0, 40) + "'");
        }
    }
    return Ok{};
}

} // namespace

Result<std::string> format_chat(const ChatTemplate& tmpl, std::span<const ChatMessage> messages,
                                const ChatFormatContext& context) {
    if (Status tools = check_tools(tmpl, messages, context); !tools) return tools.error();
    Result<CheckedTurns> checked = check_turns(messages, tmpl.family);
    if (!checked) return checked.error();
    const TemplateTurns& c = checked->turns;

    std::string text = tmpl.emits_bos && !context.tokenizer_adds_bos ? context.bos_text : std::string();
    switch (tmpl.family) {
    case ChatFamily::Llama2: text += format_llama2(c, context); break;
    case ChatFamily::Llama3: text += format_llama3(c, tmpl, context); break;
    case ChatFamily::ChatML: text += format_chatml(c, tmpl, context); break;
    case ChatFamily::Mistral: text += format_mistral(c, tmpl.mistral, context); break;
    case ChatFamily::Gemma: text += format_gemma(c); break;
    case ChatFamily::Phi3: text += format_phi3(c, tmpl); break;
    case ChatFamily::DeepSeek3: text += format_deepseek3(c); break;
    case ChatFamily::Harmony: text += format_harmony(c, context); break;
    }
    text += context.tool_call_opening; // a required call opened where the grammar cannot open it
    return text;
}

} // namespace octo
