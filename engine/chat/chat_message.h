// One message of a chat conversation.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace octo {

// Tool: a tool's result, answering an assistant's tool call (chat_tools.h).
enum class ChatRole { System, User, Assistant, Tool };

// "system", "user", "assistant", "tool" (OpenAI's role names)
constexpr const char* chat_role_name(ChatRole role) {
    return role == ChatRole::System ? "system" : role == ChatRole::User ? "user" : role == ChatRole::Assistant ? "assistant" : "tool";
}

// How much the model reasons before it answers, where its format says (harmony's system message
// line "Reasoning: low|medium|high", gpt-oss; the template's default is medium).
enum class ReasoningEffort { Low, Medium, High };

// "low", "medium", "high" (the names of OpenAI's reasoning_effort)
constexpr std::string_view reasoning_effort_name(ReasoningEffort e) {
    return e == ReasoningEffort::Low ? "low" : e == ReasoningEffort::High ? "high" : "medium";
}

constexpr std::optional<ReasoningEffort> parse_reasoning_effort(std::string_view name) {
    for (ReasoningEffort e : {ReasoningEffort::Low, ReasoningEffort::Medium, ReasoningEffort::High}) {
        if (reasoning_effort_name(e) == name) return e;
    }
    return std::nullopt;
}

// A call an assistant turn makes to one of the request's tools (OpenAI's tool_calls[i]).
struct ToolCall {
    std::string id;        // the call's id, which the tool's answer names (tool_call_id)
    std::string name;      // the function
    std::string arguments; // JSON text of the arguments object, as the model wrote it
    bool operator==(const ToolCall&) const = default;
};

// A tool a request offers (OpenAI's {"type": "function", "function": {…}}), kept as it was sent as
// well as by its parts: Qwen's template writes each tool object whole (`tool | tojson`), Llama
// 3.1's indented, Mistral's field by field. Key order is the sender's.
struct ChatTool {
    std::string name;
    std::string description; // "" when none was sent
    std::string parameters;  // the arguments' JSON Schema as JSON text; "" when none was sent
    std::string declaration; // the whole tool object as sent ({"type": "function", "function": {…}}), JSON text
    bool operator==(const ChatTool&) const = default;
};

// tool_choice: "auto" (the model decides), "none" (no call: the tools are not shown), "required"
// (one call to any tool), or {"type": "function", "function": {"name": …}} (one call to it).
struct ToolChoice {
    enum class Mode { Auto, None, Required, Function };
    Mode mode = Mode::Auto;
    std::string function; // Mode::Function
    bool forces_call() const { return mode == Mode::Required || mode == Mode::Function; }
    bool operator==(const ToolChoice&) const = default;
};

struct ChatMessage {
    ChatRole role = ChatRole::User;
    std::string content;
    std::vector<ToolCall> tool_calls; // an assistant turn's calls (its content may then be empty)
    std::string tool_call_id;         // a Tool turn: the call it answers
    std::string name;                 // a Tool turn: the function that answered ("" when not sent)

    ChatMessage() = default;
    ChatMessage(ChatRole r, std::string text) : role(r), content(std::move(text)) {}
    bool operator==(const ChatMessage&) const = default;
};

} // namespace octo
