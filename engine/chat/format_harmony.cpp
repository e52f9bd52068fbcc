// Harmony (gpt-oss), as its template writes a conversation without tools:
//   "<|start|>system<|message|>" + "You are ChatGPT, a large language model trained by OpenAI.\n"
//     + "Knowledge cutoff: 2024-06\n" + "Current date: YYYY-MM-DD\n\n" + "Reasoning: " + level + "\n\n"
//     (level: ChatFormatContext::reasoning, low / medium / high, the template's reasoning_effort)
//     + "# Valid channels: analysis, commentary, final. Channel must be included for every message."
//     + "<|end|>"
//   a system message (the template's "developer message"), when not empty:
//     "<|start|>developer<|message|># Instructions\n\n" + text + "\n\n<|end|>"
//   user turns "<|start|>user<|message|>" + text + "<|end|>"
//   earlier assistant turns, their final answer only (the analysis is never written back):
//     "<|start|>assistant<|channel|>final<|message|>" + text + "<|end|>"
//   then "<|start|>assistant". Texts are written as given (no trimming).
#include <ctime>

#include "engine/chat/chat_formatters.h"

namespace octo {

namespace {

// The system clock's local date, as the template's strftime_now("%Y-%m-%d").
std::chrono::year_month_day local_today() {
    const std::time_t now = std::time(nullptr);
    std::tm parts{};
    localtime_r(&now, &parts);
    return std::chrono::year_month_day{std::chrono::year{parts.tm_year + 1900},
                                       std::chrono::month{static_cast<unsigned>(parts.tm_mon + 1)},
                                       std::chrono::day{static_cast<unsigned>(parts.tm_mday)}};
}

// "%Y-%m-%d"
std::string iso_date(const std::chrono::year_month_day& d) {
    const auto two = [](unsigned v) { return (v < 10 ? "0" : "") + std::to_string(v); };
    return std::to_string(static_cast<int>(d.year())) + "-" + two(static_cast<unsigned>(d.month())) + "-" +
           two(static_cast<unsigned>(d.day()));
}

void append_message(std::string& out, std::string_view head, std::string_view text) {
    out += "<|start|>";
    out += head;
    out += "<|message|>";
    out += text;
    out += "<|end|>";
}

} // namespace

std::string format_harmony(const TemplateTurns& c, const ChatFormatContext& context) {
    std::string out;
    append_message(out, "system",
                   "You are ChatGPT, a large language model trained by OpenAI.\n"
                   "Knowledge cutoff: 2024-06\n"
                   "Current date: " +
                       iso_date(context.today ? *context.today : local_today()) +
                       "\n\nReasoning: " + std::string(reasoning_effort_name(context.reasoning)) +
                       "\n\n"
                       "# Valid channels: analysis, commentary, final. Channel must be included for every message.");
    if (c.system && !c.system->empty()) append_message(out, "developer", "# Instructions\n\n" + std::string(*c.system) + "\n\n");
    for (const ChatMessage& m : c.turns) {
        append_message(out, m.role == ChatRole::User ? "user" : "assistant<|channel|>final", m.content);
    }
    out += "<|start|>assistant";
    return out;
}

} // namespace octo
