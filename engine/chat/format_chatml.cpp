// ChatML (Qwen, SmolLM, ...): "<|im_start|>" + role + "\n" + content + "<|im_end|>\n" per
// message, untrimmed, then "<|im_start|>assistant\n". A template with a built-in default
// system prompt writes it when the conversation has no system message.
//
// Qwen3 (ChatTemplate::chatml_thinking) adds its thinking block:
//  - an assistant turn before the last real user query is written without its reasoning:
//    only the text after its last "</think>", with leading newlines removed;
//  - an assistant turn after that query (possible only when the later user turns are
//    tool results, "<tool_response>…</tool_response>") keeps its reasoning as
//    "<think>\n" + reasoning + "\n</think>\n\n" + answer, where reasoning is the text before
//    the first "</think>" after its last "<think>", newlines trimmed at both ends;
//  - with enable_thinking false the generation prompt is followed by "<think>\n\n</think>\n\n".
//
// Tools, as Qwen 2.5's and Qwen3's templates write them (Hermes' <tool_call> format):
//  - the system message becomes system + "\n\n" (the template's default system prompt when there
//    is none and it has one: Qwen 2.5) + "# Tools\n\nYou may call one or more functions …<tools>"
//    + "\n" + each tool object as sent, in tojson's form + "\n</tools>\n\nFor each function call,
//    return a json object …</tool_call>";
//  - an assistant turn's calls follow its text: "\n" (not before a first call when the text is
//    empty) + "<tool_call>\n{\"name\": \"NAME\", \"arguments\": ARGS}\n</tool_call>", ARGS in tojson's
//    form (Qwen3 writes a string of arguments as it is; llama.cpp gives both templates objects);
//  - consecutive tool results make one user turn: "<|im_start|>user" + per result
//    "\n<tool_response>\n" + text + "\n</tool_response>" + "<|im_end|>\n".
#include <string>

#include "engine/chat/chat_formatters.h"
#include "engine/chat/chat_tools.h"

namespace octo {

namespace {

constexpr std::string_view kThinkOpen = "<think>";
constexpr std::string_view kThinkClose = "</think>";

void append_message(std::string& out, std::string_view role, std::string_view content) {
    out += "<|im_start|>";
    out += role;
    out += '\n';
    out += content;
    out += "<|im_end|>\n";
}

std::string tools_system(std::string_view system, std::span<const ChatTool> tools) {
    std::string out = system.empty() ? std::string() : std::string(system) + "\n\n";
    out += "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
           "You are provided with function signatures within <tools></tools> XML tags:\n<tools>";
    for (const ChatTool& t : tools) out += "\n" + python_json_text(t.declaration);
    out += "\n</tools>\n\nFor each function call, return a json object with function name and arguments within "
           "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>";
    return out;
}

// An assistant turn's calls, after its text (`text_written`: the turn wrote text before them).
void append_tool_calls(std::string& out, std::span<const ToolCall> calls, bool text_written) {
    for (size_t i = 0; i < calls.size(); ++i) {
        if (i > 0 || text_written) out += '\n';
        out += "<tool_call>\n{\"name\": \"" + calls[i].name + "\", \"arguments\": " + python_json_text(calls[i].arguments) + "}\n</tool_call>";
    }
}

std::string_view strip_leading_newlines(std::string_view text) {
    const size_t begin = text.find_first_not_of('\n');
    return begin == std::string_view::npos ? std::string_view() : text.substr(begin);
}

std::string_view strip_trailing_newlines(std::string_view text) {
    const size_t end = text.find_last_not_of('\n');
    return end == std::string_view::npos ? std::string_view() : text.substr(0, end + 1);
}

// A user turn that only carries a tool's result (Qwen3 does not count it as a query).
bool is_tool_response(std::string_view content) {
    return content.starts_with("<tool_response>") && content.ends_with("</tool_response>");
}

// Qwen3's rendering of an earlier assistant turn (see the header comment).
void append_qwen3_assistant(std::string& out, std::string_view text, std::span<const ToolCall> calls, bool keep_reasoning) {
    std::string_view answer = text;
    std::string_view reasoning;
    if (const size_t last_close = text.rfind(kThinkClose); last_close != std::string_view::npos) {
        answer = strip_leading_newlines(text.substr(last_close + kThinkClose.size()));
        std::string_view before = strip_trailing_newlines(text.substr(0, text.find(kThinkClose)));
        if (const size_t open = before.rfind(kThinkOpen); open != std::string_view::npos) {
            before = before.substr(open + kThinkOpen.size());
        }
        reasoning = strip_leading_newlines(before);
    }
    out += "<|im_start|>assistant\n";
    if (keep_reasoning && !reasoning.empty()) {
        out += "<think>\n";
        out += strip_trailing_newlines(strip_leading_newlines(reasoning));
        out += "\n</think>\n\n";
        answer = strip_leading_newlines(answer);
    }
    out += answer;
    append_tool_calls(out, calls, !answer.empty());
    out += "<|im_end|>\n";
}

} // namespace

std::string format_chatml(const TemplateTurns& c, const ChatTemplate& tmpl, const ChatFormatContext& context) {
    std::string out;
    if (!context.tools.empty()) {
        append_message(out, "system", tools_system(c.system ? *c.system : std::string_view(tmpl.default_system), context.tools));
    } else if (c.system) {
        append_message(out, "system", *c.system);
    } else if (!tmpl.default_system.empty()) {
        append_message(out, "system", tmpl.default_system);
    }
    // Qwen3: the last user turn that is a real query (not a tool result).
    size_t last_query = c.turns.size() - 1;
    for (size_t i = c.turns.size(); i-- > 0;) {
        if (c.turns[i].role == ChatRole::User && !is_tool_response(c.turns[i].content)) {
            last_query = i;
            break;
        }
    }
    for (size_t i = 0; i < c.turns.size(); ++i) {
        const ChatMessage& m = c.turns[i];
        if (m.role == ChatRole::User || m.role == ChatRole::System) {
            append_message(out, m.role == ChatRole::User ? "user" : "system", m.content); // a later system message in place
        } else if (m.role == ChatRole::Tool) {
            if (i == 0 || c.turns[i - 1].role != ChatRole::Tool) out += "<|im_start|>user";
            out += "\n<tool_response>\n" + m.content + "\n</tool_response>";
            if (i + 1 == c.turns.size() || c.turns[i + 1].role != ChatRole::Tool) out += "<|im_end|>\n";
        } else if (tmpl.chatml_thinking) {
            append_qwen3_assistant(out, m.content, m.tool_calls, /*keep_reasoning=*/i > last_query);
        } else {
            out += "<|im_start|>assistant\n" + m.content;
            append_tool_calls(out, m.tool_calls, !m.content.empty());
            out += "<|im_end|>\n";
        }
    }
    out += "<|im_start|>assistant\n";
    if (tmpl.chatml_thinking && !context.enable_thinking) out += "<think>\n\n</think>\n\n";
    return out;
}

} // namespace octo
