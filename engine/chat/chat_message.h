// One message of a chat conversation.
#pragma once

#include <string>

namespace octo {

enum class ChatRole { System, User, Assistant };

// "system", "user", "assistant" (OpenAI's role names)
constexpr const char* chat_role_name(ChatRole role) {
    return role == ChatRole::System ? "system" : role == ChatRole::User ? "user" : "assistant";
}

struct ChatMessage {
    ChatRole role = ChatRole::User;
    std::string content;
    bool operator==(const ChatMessage&) const = default;
};

} // namespace octo
