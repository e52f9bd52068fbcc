// A model's tool calls, per chat family: read back from the text it wrote, and — when a request
// requires a call — the grammar that makes it write one (constrained decoding, engine/grammar).
//
//   family   a call as the model writes it                                  several calls
//   ChatML   "<tool_call>\n{"name": N, "arguments": {…}}\n</tool_call>"      one block each, after any text
//   Llama 3  {"name": N, "parameters": {…}} as the whole answer              one
//            (after "<|python_tag|>" when the model writes one)
//   Mistral  "[TOOL_CALLS]" + [{"name": N, "arguments": {…}}, …]             one list
//   harmony  "<|channel|>commentary to=functions.N <|constrain|>json<|message|>{…}<|call|>"   one
//            (after any analysis message; " to=functions.N<|channel|>commentary json…" too)
// The text before a ChatML call (a harmony call's message) is the answer's content. An answer that does not hold whole,
// well-formed calls to the offered tools (cut short by max_tokens, a name no tool has, arguments
// that are not a JSON object) is returned as content with no calls: nothing the model wrote is lost.
//
// A required call is one call, to the named function or to any offered tool, whose arguments
// keep to that tool's parameters schema (json_schema.h; a tool without one takes any object). The
// Mistral call's "[TOOL_CALLS]" and harmony's call header are control tokens, which a grammar never
// lets the model write: the generation prompt ends with them instead (tool_call_opening). Harmony
// writes the function's name inside its header, so a required harmony call must name its function
// (or be offered one tool).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chat/chat_message.h"
#include "engine/chat/chat_template.h"
#include "engine/core/result.h"

namespace octo {

struct ParsedToolCalls {
    std::string content;         // the text that is not a call (trimmed when there are calls)
    std::vector<ToolCall> calls; // ids empty: the caller names them (tool_call_id_for)
};

// `text`: what the model wrote after the generation prompt; `opening`: what the prompt ended with
// to open a required call (tool_call_opening; read as the start of the answer).
ParsedToolCalls parse_tool_calls(const ChatTemplate& tmpl, std::string_view text, std::span<const ChatTool> tools,
                                 std::string_view opening = {});

// The text that opens a required call at the end of the prompt ("" when the grammar opens it:
// ChatML, Llama 3; "[TOOL_CALLS]" for Mistral; harmony's header naming the function). Only for
// choices that force a call; InvalidArgument for a harmony choice that names no function among
// several tools.
Result<std::string> tool_call_opening(const ChatTemplate& tmpl, std::span<const ChatTool> tools, const ToolChoice& choice);

// GBNF of one call in the family's format (choice: Required or Function). InvalidArgument naming
// the tool whose parameters use a keyword the grammar cannot enforce, or when there is no tool to call.
Result<std::string> tool_call_grammar(const ChatTemplate& tmpl, std::span<const ChatTool> tools, const ToolChoice& choice);

// A fresh id for a call, in the form the family's format takes (Mistral: 9 letters and digits;
// others: "call_" + 24), drawn from `state` (advanced).
std::string tool_call_id_for(const ChatTemplate& tmpl, uint64_t& state);

} // namespace octo
