// DeepSeek V3 (deepseek-ai/DeepSeek-V3): bos_token + the system text as it is, then
// "<｜User｜>" + u per user turn and "<｜Assistant｜>" + a + "<｜end▁of▁sentence｜>" per
// assistant turn, untrimmed, then "<｜Assistant｜>". (The bars are U+FF5C, the space-like
// mark U+2581.)
#include "engine/chat/chat_formatters.h"

namespace octo {

std::string format_deepseek3(const TemplateTurns& c) {
    std::string out;
    if (c.system) out += *c.system;
    for (const ChatMessage& m : c.turns) {
        if (m.role == ChatRole::User) {
            out += "<\xEF\xBD\x9CUser\xEF\xBD\x9C>";
            out += m.content;
        } else {
            out += "<\xEF\xBD\x9C" "Assistant\xEF\xBD\x9C>";
            out += m.content;
            out += "<\xEF\xBD\x9C" "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>";
        }
    }
    out += "<\xEF\xBD\x9C" "Assistant\xEF\xBD\x9C>";
    return out;
}

} // namespace octo
