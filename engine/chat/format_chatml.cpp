// ChatML (Qwen, SmolLM, ...): "<|im_start|>" + role + "\n" + content + "<|im_end|>\n" per
// message, untrimmed, then "<|im_start|>assistant\n". A template with a built-in default
// system prompt writes it when the conversation has no system message.
#include "engine/chat/chat_formatters.h"

namespace octo {

namespace {

void append_message(std::string& out, std::string_view role, std::string_view content) {
    out += "<|im_start|>";
    out += role;
    out += '\n';
    out += content;
    out += "<|im_end|>\n";
}

} // namespace

std::string format_chatml(const Conversation& c, const ChatTemplate& tmpl) {
    std::string out;
    if (c.system) {
        append_message(out, "system", *c.system);
    } else if (!tmpl.default_system.empty()) {
        append_message(out, "system", tmpl.default_system);
    }
    for (const ChatMessage& m : c.turns) append_message(out, m.role == ChatRole::User ? "user" : "assistant", m.content);
    out += "<|im_start|>assistant\n";
    return out;
}

} // namespace octo
