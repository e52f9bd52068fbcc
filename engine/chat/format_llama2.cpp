// Llama 2 chat (meta-llama/Llama-2-*-chat): every user turn is
// bos + "[INST] " + strip(content) + " [/INST]", the system message is wrapped in
// "<<SYS>>\n...\n<</SYS>>\n\n" and put in front of the first user message (before the
// strip), and assistant turns are " " + strip(content) + " " + eos.
#include "engine/chat/chat_formatters.h"

namespace octo {

std::string format_llama2(const TemplateTurns& c, const ChatFormatContext& context) {
    std::string out;
    const size_t system_turn = c.first_user();
    for (size_t i = 0; i < c.turns.size(); ++i) {
        const std::string& content = c.turns[i].content;
        if (c.turns[i].role == ChatRole::Assistant) {
            out += ' ';
            out += trim_ascii(content);
            out += ' ';
            out += context.eos_text;
            continue;
        }
        std::string body = content;
        if (i == system_turn && c.system) body = "<<SYS>>\n" + std::string(*c.system) + "\n<</SYS>>\n\n" + content;
        if (i > 0) out += context.bos_text; // the first BOS is the leading one
        out += "[INST] ";
        out += trim_ascii(body);
        out += " [/INST]";
    }
    return out;
}

} // namespace octo
