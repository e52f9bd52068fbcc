// Phi-3 (microsoft/Phi-3*-instruct): "<|" + role + "|>\n" + content + "<|end|>\n" per
// message, untrimmed, then "<|assistant|>\n".
#include "engine/chat/chat_formatters.h"

namespace octo {

namespace {

void append_message(std::string& out, std::string_view role, std::string_view content) {
    out += "<|";
    out += role;
    out += "|>\n";
    out += content;
    out += "<|end|>\n";
}

} // namespace

std::string format_phi3(const Conversation& c) {
    std::string out;
    if (c.system) append_message(out, "system", *c.system);
    for (const ChatMessage& m : c.turns) append_message(out, m.role == ChatRole::User ? "user" : "assistant", m.content);
    out += "<|assistant|>\n";
    return out;
}

} // namespace octo
