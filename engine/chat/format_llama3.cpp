// Llama 3 (Meta-Llama-3-*-Instruct): each message is
// "<|start_header_id|>" + role + "<|end_header_id|>\n\n" + trim(content) + "<|eot_id|>",
// then "<|start_header_id|>assistant<|end_header_id|>\n\n". Llama 3.1+ templates always
// write the system block, starting "Cutting Knowledge Date: December 2023\nToday Date: D\n\n".
#include "engine/chat/chat_formatters.h"

namespace octo {

namespace {

// `text` is written as given: the callers trim what the template trims.
void append_message(std::string& out, std::string_view role, std::string_view text) {
    out += "<|start_header_id|>";
    out += role;
    out += "<|end_header_id|>\n\n";
    out += text;
    out += "<|eot_id|>";
}

// strftime("%d %b %Y"): "05 Mar 2025"
std::string day_month_year(const std::chrono::year_month_day& d) {
    static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    const unsigned day = static_cast<unsigned>(d.day()), month = static_cast<unsigned>(d.month());
    return (day < 10 ? "0" : "") + std::to_string(day) + " " + (month >= 1 && month <= 12 ? kMonths[month - 1] : "???") +
           " " + std::to_string(static_cast<int>(d.year()));
}

std::string date_of(const ChatTemplate& tmpl, const ChatFormatContext& context) {
    if (tmpl.llama3_date_from_clock && context.today) return day_month_year(*context.today);
    return tmpl.llama3_default_date.empty() ? "26 Jul 2024" : tmpl.llama3_default_date;
}

} // namespace

std::string format_llama3(const TemplateTurns& c, const ChatTemplate& tmpl, const ChatFormatContext& context) {
    std::string out;
    if (tmpl.llama3_dated_system) {
        const std::string header =
            "Cutting Knowledge Date: December 2023\nToday Date: " + date_of(tmpl, context) + "\n\n";
        append_message(out, "system", header + std::string(trim_ascii(c.system.value_or(""))));
    } else if (c.system) {
        append_message(out, "system", trim_ascii(*c.system));
    }
    for (const ChatMessage& m : c.turns) append_message(out, chat_role_name(m.role), trim_ascii(m.content)); // a later system message in place
    out += "<|start_header_id|>assistant<|end_header_id|>\n\n";
    return out;
}

} // namespace octo
