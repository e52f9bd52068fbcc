// Mistral instruct templates. The system message is written as system + "\n\n" in front
// of one user message: the first (Legacy, V1) or the last (V3, Tekken).
//   style   user turn                       assistant turn
//   Legacy  "[INST] " + u + " [/INST]"      a + eos
//   V1      " [INST] " + u + " [/INST]"     " " + a + eos
//   V3      "[INST] " + u + "[/INST]"       " " + trim(a) + eos
//   Tekken  "[INST]" + u + "[/INST]"        a + eos
#include "engine/chat/chat_formatters.h"

namespace octo {

namespace {

struct Layout {
    std::string_view open;
    std::string_view close;
    std::string_view before_answer;
    bool trim_answer;
    bool system_in_last_turn;
};

Layout layout_of(MistralStyle style) {
    switch (style) {
    case MistralStyle::Legacy: return {"[INST] ", " [/INST]", "", false, false};
    case MistralStyle::V1: return {" [INST] ", " [/INST]", " ", false, false};
    case MistralStyle::V3: return {"[INST] ", "[/INST]", " ", true, true};
    case MistralStyle::Tekken: return {"[INST]", "[/INST]", "", false, true};
    }
    return {"[INST] ", " [/INST]", "", false, false};
}

} // namespace

std::string format_mistral(const TemplateTurns& c, MistralStyle style, const ChatFormatContext& context) {
    const Layout layout = layout_of(style);
    const size_t system_turn = layout.system_in_last_turn ? c.last_user() : c.first_user();
    std::string out;
    for (size_t i = 0; i < c.turns.size(); ++i) {
        const std::string& content = c.turns[i].content;
        if (c.turns[i].role == ChatRole::Assistant) {
            out += layout.before_answer;
            out += layout.trim_answer ? trim_ascii(content) : std::string_view(content);
            out += context.eos_text;
            continue;
        }
        out += layout.open;
        if (i == system_turn && c.system) {
            out += *c.system;
            out += "\n\n";
        }
        out += content;
        out += layout.close;
    }
    return out;
}

} // namespace octo
