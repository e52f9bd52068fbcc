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
//
// Tools, as the template (its render_tool_namespace and render_typescript_type macros) writes them:
//   the system message adds "\nCalls to these tools must go to the commentary channel: 'functions'.";
//   the developer message (written for tools even without a system message) ends with
//     "# Tools\n\n## functions\n\nnamespace functions {\n\n" + per tool "// DESCRIPTION\n" +
//     "type NAME = (_: {\n" + per parameter ["// DESCRIPTION\n"] + "NAME" ["?" unless required] + ": " +
//     TYPE [", // default: " + tojson] + ",\n" + "}) => any;\n\n" (a tool without parameters:
//     "() => any;\n\n") + "} // namespace functions";
//   TYPE: string, number (integer too), boolean, "a" | "b" for a string enum, T[] for arrays (any[]
//     when the item type is long), " | null" for nullable strings and arrays, a list of types
//     joined by " | ", {…} for an object with properties (each after the template's "\n" and 16
//     spaces), object without, any otherwise;
//   an assistant's call (one a turn; its text, if any, before it as an analysis message unless a
//     later assistant turn answers): "<|start|>assistant to=functions.NAME<|channel|>commentary
//     json<|message|>" + ARGS in tojson's form + "<|call|>";
//   a tool's result: "<|start|>functions.NAME to=assistant<|channel|>commentary<|message|>" + its
//     text as a JSON string + "<|end|>", NAME the last call's.
#include <ctime>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_formatters.h"
#include "engine/chat/chat_tools.h"

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

using nlohmann::ordered_json;

bool required(const ordered_json& object_schema, const std::string& name) {
    if (!object_schema.is_object() || !object_schema.contains("required") || !object_schema["required"].is_array()) return false;
    for (const ordered_json& r : object_schema["required"]) {
        if (r.is_string() && r.get<std::string>() == name) return true;
    }
    return false;
}

bool truthy(const ordered_json& j, const char* key) {
    if (!j.is_object() || !j.contains(key)) return false;
    const ordered_json& v = j[key];
    return !(v.is_null() || (v.is_boolean() && !v.get<bool>()) || ((v.is_string() || v.is_array() || v.is_object()) && v.empty()) ||
             (v.is_number() && v.get<double>() == 0.0));
}

std::string text_of(const ordered_json& v) { return v.is_string() ? v.get<std::string>() : python_json(v); }

bool is_type(const ordered_json& spec, std::string_view type) {
    return spec.is_object() && spec.contains("type") && spec["type"].is_string() && spec["type"].get<std::string>() == type;
}

std::string typescript_type(const ordered_json& spec) {
    if (is_type(spec, "array")) {
        std::string out = "any[]";
        if (truthy(spec, "items")) {
            const ordered_json& items = spec["items"];
            if (is_type(items, "string")) out = "string[]";
            else if (is_type(items, "number") || is_type(items, "integer")) out = "number[]";
            else if (is_type(items, "boolean")) out = "boolean[]";
            else {
                const std::string inner = typescript_type(items);
                out = inner == "object | object" || inner.size() > 50 ? "any[]" : inner + "[]";
            }
        }
        return out + (truthy(spec, "nullable") ? " | null" : "");
    }
    if (spec.is_object() && spec.contains("type") && spec["type"].is_array() && !spec["type"].empty()) {
        std::string out;
        for (const ordered_json& t : spec["type"]) out += (out.empty() ? "" : " | ") + text_of(t);
        return out;
    }
    if (truthy(spec, "oneOf")) {
        bool objects = false;
        for (const ordered_json& v : spec["oneOf"]) objects = objects || is_type(v, "object");
        if (objects && spec["oneOf"].size() > 1) return "any";
        std::string out;
        for (const ordered_json& v : spec["oneOf"]) out += (out.empty() ? "" : " | ") + typescript_type(v);
        return out;
    }
    if (is_type(spec, "string")) {
        if (truthy(spec, "enum") && spec["enum"].is_array()) {
            std::string out = "\"";
            for (size_t i = 0; i < spec["enum"].size(); ++i) out += (i ? "\" | \"" : "") + text_of(spec["enum"][i]);
            return out + "\"";
        }
        return std::string("string") + (truthy(spec, "nullable") ? " | null" : "");
    }
    if (is_type(spec, "number") || is_type(spec, "integer")) return "number";
    if (is_type(spec, "boolean")) return "boolean";
    if (is_type(spec, "object")) {
        if (!truthy(spec, "properties") || !spec["properties"].is_object()) return "object";
        std::string out = "{\n";
        bool first = true;
        for (const auto& [name, prop] : spec["properties"].items()) {
            if (!first) out += ", ";
            first = false;
            out += name + (required(spec, name) ? "" : "?") + ": \n                " + typescript_type(prop);
        }
        return out + "}";
    }
    return "any";
}

std::string tool_namespace(std::span<const ChatTool> tools) {
    std::string out = "## functions\n\nnamespace functions {\n\n";
    for (const ChatTool& tool : tools) {
        out += "// " + tool.description + "\n";
        out += "type " + tool.name + " = ";
        const ordered_json params = tool.parameters.empty() ? ordered_json() : ordered_json::parse(tool.parameters, nullptr, false);
        if (!truthy(params, "properties") || !params["properties"].is_object()) {
            out += "() => any;\n\n";
            continue;
        }
        out += "(_: {\n";
        for (const auto& [name, spec] : params["properties"].items()) {
            if (truthy(spec, "description")) out += "// " + text_of(spec["description"]) + "\n";
            out += name + (required(params, name) ? "" : "?") + ": " + typescript_type(spec);
            if (spec.is_object() && spec.contains("default")) {
                if (truthy(spec, "enum")) out += ", // default: " + text_of(spec["default"]);
                else if (truthy(spec, "oneOf")) out += "// default: " + text_of(spec["default"]);
                else out += ", // default: " + python_json(spec["default"]);
            }
            out += ",\n";
        }
        out += "}) => any;\n\n";
    }
    return out + "} // namespace functions";
}

// Whether an assistant turn without tool calls follows turn `i` (its call's text is then dropped).
bool answered_later(std::span<const ChatMessage> turns, size_t i) {
    for (size_t k = i + 1; k < turns.size(); ++k) {
        if (turns[k].role == ChatRole::Assistant && turns[k].tool_calls.empty()) return true;
    }
    return false;
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
                       "# Valid channels: analysis, commentary, final. Channel must be included for every message." +
                       (context.tools.empty() ? "" : "\nCalls to these tools must go to the commentary channel: 'functions'."));
    const bool instructions = c.system && !c.system->empty();
    if (instructions || !context.tools.empty()) {
        append_message(out, "developer",
                       (instructions ? "# Instructions\n\n" + std::string(*c.system) + "\n\n" : std::string()) +
                           (context.tools.empty() ? std::string() : "# Tools\n\n" + tool_namespace(context.tools)));
    }
    std::string last_call; // the function the last call went to (a tool result names it)
    for (size_t i = 0; i < c.turns.size(); ++i) {
        const ChatMessage& m = c.turns[i];
        if (!m.tool_calls.empty()) {
            if (!m.content.empty() && !answered_later(c.turns, i)) append_message(out, "assistant<|channel|>analysis", m.content);
            const ToolCall& call = m.tool_calls.front();
            out += "<|start|>assistant to=functions." + call.name + "<|channel|>commentary json<|message|>" + python_json_text(call.arguments) +
                   "<|call|>";
            last_call = call.name;
        } else if (m.role == ChatRole::Tool) {
            append_message(out, "functions." + last_call + " to=assistant<|channel|>commentary", python_json(m.content));
        } else {
            append_message(out, m.role == ChatRole::User ? "user" : "assistant<|channel|>final", m.content);
        }
    }
    out += "<|start|>assistant";
    return out;
}

} // namespace octo
