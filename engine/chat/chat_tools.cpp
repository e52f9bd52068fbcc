#include "engine/chat/chat_tools.h"

#include <set>

#include "engine/core/json_fields.h"

namespace octo {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

MessagesProblem problem(const std::string& param, const std::string& message) { return {param, "'" + param + "' " + message}; }

bool valid_function_name(const std::string& name) {
    if (name.empty() || name.size() > 64) return false;
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) return false;
    }
    return true;
}

std::string dump(const ordered_json& value) { return value.dump(-1, ' ', false, ordered_json::error_handler_t::replace); }

void write_python(const ordered_json& v, int indent, int depth, std::string& out) {
    const bool pretty = indent >= 0;
    const auto newline = [&](int level) {
        out += '\n';
        out.append(static_cast<size_t>(indent * level), ' ');
    };
    if (v.is_object() || v.is_array()) {
        const bool object = v.is_object();
        if (v.empty()) {
            out += object ? "{}" : "[]";
            return;
        }
        out += object ? '{' : '[';
        bool first = true;
        for (auto it = v.begin(); it != v.end(); ++it) {
            if (!first) out += pretty ? "," : ", ";
            first = false;
            if (pretty) newline(depth + 1);
            if (object) {
                out += dump(ordered_json(it.key()));
                out += ": ";
            }
            write_python(*it, indent, depth + 1, out);
        }
        if (pretty) newline(depth);
        out += object ? '}' : ']';
        return;
    }
    out += dump(v);
}

} // namespace

std::string tool_choice_text(const ToolChoice& choice) {
    switch (choice.mode) {
    case ToolChoice::Mode::Auto: return "auto";
    case ToolChoice::Mode::None: return "none";
    case ToolChoice::Mode::Required: return "required";
    case ToolChoice::Mode::Function: return "function:" + choice.function;
    }
    return "auto";
}

std::optional<ToolChoice> parse_tool_choice_text(std::string_view text) {
    ToolChoice c;
    if (text == "auto") return c;
    if (text == "none") {
        c.mode = ToolChoice::Mode::None;
    } else if (text == "required") {
        c.mode = ToolChoice::Mode::Required;
    } else if (text.starts_with("function:") && text.size() > 9) {
        c.mode = ToolChoice::Mode::Function;
        c.function = std::string(text.substr(9));
    } else {
        return std::nullopt;
    }
    return c;
}

std::optional<MessagesProblem> chat_tools_from_json(const ordered_json& tools, std::vector<ChatTool>& out, const std::string& path) {
    if (!tools.is_array()) return problem(path, "must be an array of tools");
    if (tools.size() > kMaxTools) return problem(path, "has " + std::to_string(tools.size()) + " tools; at most " + std::to_string(kMaxTools) + " are allowed");
    std::set<std::string> names;
    for (size_t i = 0; i < tools.size(); ++i) {
        const ordered_json& t = tools[i];
        const std::string at = path + "[" + std::to_string(i) + "]";
        if (!t.is_object()) return problem(at, "must be an object {\"type\": \"function\", \"function\": {...}}");
        if (!t.contains("type") || t["type"] != "function") {
            return problem(at + ".type", "must be \"function\" (the only kind of tool a chat model is given)");
        }
        if (!t.contains("function") || !t["function"].is_object()) return problem(at + ".function", "must be an object with the function's name");
        const ordered_json& f = t["function"];
        if (!f.contains("name") || !f["name"].is_string() || !valid_function_name(f["name"].get<std::string>())) {
            return problem(at + ".function.name", "must be 1 to 64 letters, digits, underscores or dashes");
        }
        ChatTool tool;
        tool.name = f["name"].get<std::string>();
        if (!names.insert(tool.name).second) return problem(at + ".function.name", "repeats the name '" + tool.name + "'");
        if (f.contains("description") && !f["description"].is_null()) {
            if (!f["description"].is_string()) return problem(at + ".function.description", "must be a string");
            tool.description = f["description"].get<std::string>();
        }
        if (f.contains("parameters") && !f["parameters"].is_null()) {
            if (!f["parameters"].is_object()) return problem(at + ".function.parameters", "must be a JSON Schema object");
            tool.parameters = dump(f["parameters"]);
        }
        tool.declaration = dump(t);
        out.push_back(std::move(tool));
    }
    return std::nullopt;
}

std::optional<MessagesProblem> tool_choice_from_json(const json& choice, const std::vector<ChatTool>& tools, ToolChoice& out) {
    out = {};
    if (choice.is_string()) {
        const auto parsed = parse_tool_choice_text(choice.get<std::string>());
        if (!parsed || parsed->mode == ToolChoice::Mode::Function) {
            return problem("tool_choice", "must be \"auto\", \"none\", \"required\" or {\"type\": \"function\", \"function\": {\"name\": ...}}");
        }
        out = *parsed;
    } else if (choice.is_object()) {
        const auto f = choice.find("function");
        if (json_string_or(choice, "type") != "function" || f == choice.end() || !f->is_object() || !f->contains("name") ||
            !(*f)["name"].is_string()) {
            return problem("tool_choice", "as an object must be {\"type\": \"function\", \"function\": {\"name\": ...}}");
        }
        out.mode = ToolChoice::Mode::Function;
        out.function = (*f)["name"].get<std::string>();
        bool known = false;
        for (const ChatTool& t : tools) known = known || t.name == out.function;
        if (!known) return problem("tool_choice", "names '" + out.function.substr(0, 64) + "', which is not one of 'tools'");
    } else {
        return problem("tool_choice", "must be a string or an object, not " + json_type_words(choice));
    }
    if (out.mode == ToolChoice::Mode::Required && tools.empty()) return problem("tool_choice", "is \"required\" but no 'tools' are given");
    return std::nullopt;
}

std::string python_json(const ordered_json& value, int indent) {
    std::string out;
    write_python(value, indent, 0, out);
    return out;
}

std::string python_json_text(std::string_view text, int indent) {
    const ordered_json parsed = ordered_json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    return parsed.is_discarded() ? std::string(text) : python_json(parsed, indent);
}

} // namespace octo
