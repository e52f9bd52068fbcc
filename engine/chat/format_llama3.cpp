// Llama 3 (Meta-Llama-3-*-Instruct): each message is
// "<|start_header_id|>" + role + "<|end_header_id|>\n\n" + trim(content) + "<|eot_id|>",
// then "<|start_header_id|>assistant<|end_header_id|>\n\n". Llama 3.1+ templates always
// write the system block, starting "Cutting Knowledge Date: December 2023\nToday Date: D\n\n".
//
// Tools, as Llama 3.1's and 3.2's templates write them (tools_in_user_message, their default):
//  - the system block starts "Environment: ipython\n";
//  - the first turn after the system message becomes a user turn: "Given the following functions,
//    please respond with a JSON for a function call with its proper arguments that best answers the
//    given prompt.\n\nRespond in the format {\"name\": function name, \"parameters\": dictionary of
//    argument name and its value}.Do not use variables.\n\n" + each tool object as sent, as
//    tojson(indent=4) + "\n\n", then that turn's trimmed text;
//  - an assistant call (one a turn): "{\"name\": \"NAME\", \"parameters\": ARGS}" in an assistant
//    turn, ARGS in tojson's form (its text is not written);
//  - a tool result: an "ipython" turn holding the result as a JSON string (the template's tojson
//    of the content, which Jinja counts as iterable).
#include "engine/chat/chat_formatters.h"
#include "engine/chat/chat_tools.h"

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
    const bool tools = !context.tools.empty();
    if (tmpl.llama3_dated_system) {
        const std::string header = std::string(tools ? "Environment: ipython\n" : "") +
                                   "Cutting Knowledge Date: December 2023\nToday Date: " + date_of(tmpl, context) + "\n\n";
        append_message(out, "system", header + std::string(trim_ascii(c.system.value_or(""))));
    } else if (c.system) {
        append_message(out, "system", trim_ascii(*c.system));
    }
    std::span<const ChatMessage> turns = c.turns;
    if (tools) {
        std::string first = "Given the following functions, please respond with a JSON for a function call with its proper "
                            "arguments that best answers the given prompt.\n\nRespond in the format {\"name\": function name, "
                            "\"parameters\": dictionary of argument name and its value}.Do not use variables.\n\n";
        for (const ChatTool& t : context.tools) first += python_json_text(t.declaration, 4) + "\n\n";
        first += trim_ascii(turns.front().content);
        append_message(out, "user", first);
        turns = turns.subspan(1);
    }
    for (const ChatMessage& m : turns) {
        if (!m.tool_calls.empty()) {
            const ToolCall& call = m.tool_calls.front();
            append_message(out, "assistant", "{\"name\": \"" + call.name + "\", \"parameters\": " + python_json_text(call.arguments) + "}");
        } else if (m.role == ChatRole::Tool) {
            append_message(out, "ipython", python_json(m.content));
        } else {
            append_message(out, chat_role_name(m.role), trim_ascii(m.content)); // a later system message in place
        }
    }
    out += "<|start_header_id|>assistant<|end_header_id|>\n\n";
    return out;
}

} // namespace octo
