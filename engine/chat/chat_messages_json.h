// A conversation in OpenAI's messages format, as a chat request or a conversation file holds it:
//   [{"role": "system" | "developer" | "user" | "assistant" | "tool",
//     "content": "…" or [{"type": "text", "text": "…"}, …]}, …]
// ("developer" is OpenAI's newer name for system; text parts are joined), with an assistant's
// "tool_calls" (content may then be null) and a tool message's "tool_call_id" and "name". The server's request
// parser and `octoscope-cli chat --conversation` read messages through here, so a file and a
// request mean the same thing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_message.h"
#include "engine/core/result.h"

namespace octo {

// What is wrong with a message array: the JSON path of the offending field ("messages[2].role")
// and a sentence naming it.
struct MessagesProblem {
    std::string param;
    std::string message;
};

// Appends the messages of `messages` (a JSON array; `path` names it in problems, "messages") to
// `out`; the first problem found, or nullopt. Non-text parts are refused.
std::optional<MessagesProblem> chat_messages_from_json(const nlohmann::json& messages, std::vector<ChatMessage>& out,
                                                       const std::string& path = "messages");

// "a string", "an array", "null", … — what a JSON value is, for sentences about a wrong type
// (the server's request parser says it the same way).
std::string json_type_words(const nlohmann::json& value);

// A conversation file: {"messages": [...]} (a chat request's body; its other fields are ignored)
// or the bare array. Format errors name the file and the field; no messages is an error too.
Result<std::vector<ChatMessage>> read_conversation_file(const std::string& path);
// The same from the file's bytes; `name` (the path) is what errors call it.
Result<std::vector<ChatMessage>> parse_conversation_file(std::string_view text, const std::string& name);
// What File → Save Conversation writes: {"messages": [...]} indented, ending in a newline.
std::string conversation_file_text(const std::vector<ChatMessage>& messages);

// The messages as OpenAI writes them: [{"role": …, "content": "…"}, …] (content as valid UTF-8),
// with tool calls and tool-call ids where they have them.
nlohmann::json chat_messages_json(const std::vector<ChatMessage>& messages);

// [{"id", "type": "function", "function": {"name", "arguments"}}, …] (an answer's tool_calls).
nlohmann::json tool_calls_json(const std::vector<ToolCall>& calls);

} // namespace octo
