// One message of a chat conversation.
#pragma once

#include <string>

namespace octo {

enum class ChatRole { System, User, Assistant };

struct ChatMessage {
    ChatRole role;
    std::string content;
};

} // namespace octo
