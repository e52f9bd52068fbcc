// Mistral instruct templates. The system message is written as system + "\n\n" in front
// of one user message: the first (Legacy, V1) or the last (V3, Tekken).
//   style   user turn                       assistant turn
//   Legacy  "[INST] " + u + " [/INST]"      a + eos
//   V1      " [INST] " + u + " [/INST]"     " " + a + eos
//   V3      "[INST] " + u + "[/INST]"       " " + trim(a) + eos
//   Tekken  "[INST]" + u + "[/INST]"        a + eos
//
// Tools (V3 and Tekken; Tekken writes no space after the opening markers):
//   before the last user turn  "[AVAILABLE_TOOLS] [" + per tool "{\"type\": \"function\", \"function\": {"
//                              + its function's fields but "return", a string as "\"key\": \"text\""
//                              (unescaped, as the template), anything else as "\"key\": " + tojson,
//                              ", " between them + "}}", ", " between tools + "][/AVAILABLE_TOOLS]"
//   an assistant's calls       "[TOOL_CALLS] [" + per call {"name", "arguments"} in tojson's form
//                              with ", \"id\": \"ID\"" before its closing brace, ", " between + "]" + eos
//   a tool result              "[TOOL_RESULTS] {\"content\": " + text + ", \"call_id\": \"ID\"}[/TOOL_RESULTS]"
// Ids are 9 letters and digits (format_chat() checks). A required call opens with "[TOOL_CALLS]"
// written into the generation prompt (ChatFormatContext::tool_call_opening).
#include <nlohmann/json.hpp>

#include "engine/chat/chat_formatters.h"
#include "engine/chat/chat_tools.h"

namespace octo {

namespace {

struct Layout {
    std::string_view open;
    std::string_view close;
    std::string_view before_answer;
    bool trim_answer;
    bool system_in_last_turn;
};

Layout layout_of(MistralStyle style) {
    switch (style) {
    case MistralStyle::Legacy: return {"[INST] ", " [/INST]", "", false, false};
    case MistralStyle::V1: return {" [INST] ", " [/INST]", " ", false, false};
    case MistralStyle::V3: return {"[INST] ", "[/INST]", " ", true, true};
    case MistralStyle::Tekken: return {"[INST]", "[/INST]", "", false, true};
    }
    return {"[INST] ", " [/INST]", "", false, false};
}

// The [AVAILABLE_TOOLS] block's list.
std::string tool_list(std::span<const ChatTool> tools) {
    std::string out = "[";
    for (size_t i = 0; i < tools.size(); ++i) {
        out += i ? ", " : "";
        out += "{\"type\": \"function\", \"function\": {";
        const auto declaration = nlohmann::ordered_json::parse(tools[i].declaration, nullptr, false);
        bool first = true;
        if (declaration.is_object() && declaration.contains("function") && declaration["function"].is_object()) {
            for (const auto& [key, value] : declaration["function"].items()) {
                if (key == "return") continue;
                out += first ? "" : ", ";
                first = false;
                out += "\"" + key + "\": " + (value.is_string() ? "\"" + value.get<std::string>() + "\"" : python_json(value));
            }
        }
        out += "}}";
    }
    return out + "]";
}

std::string call_list(std::span<const ToolCall> calls) {
    std::string out = "[";
    for (size_t i = 0; i < calls.size(); ++i) {
        out += i ? ", " : "";
        out += "{\"name\": " + python_json(calls[i].name) + ", \"arguments\": " + python_json_text(calls[i].arguments) +
               ", \"id\": \"" + calls[i].id + "\"}";
    }
    return out + "]";
}

} // namespace

std::string format_mistral(const TemplateTurns& c, MistralStyle style, const ChatFormatContext& context) {
    const Layout layout = layout_of(style);
    // V3 and Tekken write the system message into the last user turn only when that turn is the
    // conversation's last message (their `loop.last`): after tool results it is not written.
    const bool last_is_user = c.last_user() + 1 == c.turns.size();
    const size_t system_turn = layout.system_in_last_turn ? (last_is_user ? c.last_user() : c.turns.size()) : c.first_user();
    const std::string_view gap = style == MistralStyle::Tekken ? "" : " ";
    std::string out;
    for (size_t i = 0; i < c.turns.size(); ++i) {
        const std::string& content = c.turns[i].content;
        if (!c.turns[i].tool_calls.empty()) {
            out += "[TOOL_CALLS]" + std::string(gap) + call_list(c.turns[i].tool_calls) + context.eos_text;
            continue;
        }
        if (c.turns[i].role == ChatRole::Tool) {
            out += "[TOOL_RESULTS]" + std::string(gap) + "{\"content\": " + content + ", \"call_id\": \"" + c.turns[i].tool_call_id +
                   "\"}[/TOOL_RESULTS]";
            continue;
        }
        if (i == c.last_user() && !context.tools.empty()) {
            out += "[AVAILABLE_TOOLS]" + std::string(gap) + tool_list(context.tools) + "[/AVAILABLE_TOOLS]";
        }
        if (c.turns[i].role == ChatRole::Assistant) {
            out += layout.before_answer;
            out += layout.trim_answer ? trim_ascii(content) : std::string_view(content);
            out += context.eos_text;
            continue;
        }
        out += layout.open;
        if (i == system_turn && c.system) {
            out += *c.system;
            out += "\n\n";
        }
        out += content;
        out += layout.close;
    }
    return out;
}

} // namespace octo
