// Gemma (google/gemma-*-it): "<start_of_turn>" + role + "\n" + trim(content) +
// "<end_of_turn>\n" with the assistant role called "model", then "<start_of_turn>model\n".
// Gemma has no system role: as Gemma 3's template does, the system text + "\n\n" is put
// at the start of the first user turn (untrimmed, before the trimmed user text).
#include "engine/chat/chat_formatters.h"

namespace octo {

std::string format_gemma(const TemplateTurns& c) {
    std::string out;
    for (size_t i = 0; i < c.turns.size(); ++i) {
        const bool user = c.turns[i].role == ChatRole::User;
        out += user ? "<start_of_turn>user\n" : "<start_of_turn>model\n";
        if (i == 0 && c.system) {
            out += *c.system;
            out += "\n\n";
        }
        out += trim_ascii(c.turns[i].content);
        out += "<end_of_turn>\n";
    }
    out += "<start_of_turn>model\n";
    return out;
}

} // namespace octo
