// Tools in OpenAI's JSON (ChatTool, ToolChoice and ToolCall are in chat_message.h): a request's
// `tools` and `tool_choice` read and checked, and JSON written as the chat templates' `tojson`
// writes it. How each family writes tools, calls and results is in its formatter (format_*.cpp);
// how a call is read back from the model's text, and constrained when one is required, in
// tool_call_format.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_messages_json.h"

namespace octo {

// "auto", "none", "required", "function:NAME" (how captures store it), and back.
std::string tool_choice_text(const ToolChoice& choice);
std::optional<ToolChoice> parse_tool_choice_text(std::string_view text);

// A request's `tools` array (read with its keys in the order sent): each
// {"type": "function", "function": {"name", "description"?, "parameters"?, "strict"?}}; names are
// 1–64 letters, digits, '_' or '-', each once. At most kMaxTools.
inline constexpr size_t kMaxTools = 128;
std::optional<MessagesProblem> chat_tools_from_json(const nlohmann::ordered_json& tools, std::vector<ChatTool>& out,
                                                    const std::string& path = "tools");

// A request's `tool_choice` (a string or the named-function object), checked against `tools`:
// a named function must be one of them, and "required" needs at least one.
std::optional<MessagesProblem> tool_choice_from_json(const nlohmann::json& choice, const std::vector<ChatTool>& tools,
                                                     ToolChoice& out);

// JSON text as Python's json.dumps(value, ensure_ascii=False) writes it — what the chat
// templates' `tojson` produces: ", " between items, ": " after keys, keys in the given order;
// with indent >= 0, one item a line indented by that many spaces a level (json.dumps(indent=N)).
std::string python_json(const nlohmann::ordered_json& value, int indent = -1);

// `text` re-written by python_json when it is JSON, else as it is.
std::string python_json_text(std::string_view text, int indent = -1);

} // namespace octo
