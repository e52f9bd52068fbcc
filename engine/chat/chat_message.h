// One message of a chat conversation.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace octo {

enum class ChatRole { System, User, Assistant };

// "system", "user", "assistant" (OpenAI's role names)
constexpr const char* chat_role_name(ChatRole role) {
    return role == ChatRole::System ? "system" : role == ChatRole::User ? "user" : "assistant";
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

struct ChatMessage {
    ChatRole role = ChatRole::User;
    std::string content;
    bool operator==(const ChatMessage&) const = default;
};

} // namespace octo
