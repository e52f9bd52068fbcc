// Phi-3 (microsoft/Phi-3*-instruct): "<|" + role + "|>\n" + content + "<|end|>\n" per
// message, untrimmed, then "<|assistant|>\n". The first Phi-3 template (the one in
// llama.cpp's ggml-vocab-phi-3.gguf) writes "<|user|>\n" + u + "<|end|>\n<|assistant|>\n"
// per user turn and a + "<|end|>\n" per assistant turn, which is the same text, and has
// no system role: it leaves a system message out (ChatTemplate::drops_system), so do we.
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

std::string format_phi3(const TemplateTurns& c, const ChatTemplate& tmpl) {
    std::string out;
    if (c.system && !tmpl.drops_system) append_message(out, "system", *c.system);
    for (const ChatMessage& m : c.turns) append_message(out, m.role == ChatRole::User ? "user" : "assistant", m.content);
    out += "<|assistant|>\n";
    return out;
}

} // namespace octo
