#include "engine/chat/tool_call_format.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_format.h"
#include "engine/grammar/json_schema.h"

namespace octo {

namespace {

using nlohmann::ordered_json;

constexpr std::string_view kQwenOpen = "<tool_call>";
constexpr std::string_view kQwenClose = "</tool_call>";
constexpr std::string_view kMistralCalls = "[TOOL_CALLS]";
constexpr std::string_view kPythonTag = "<|python_tag|>";

bool offered(std::span<const ChatTool> tools, const std::string& name) {
    return std::any_of(tools.begin(), tools.end(), [&](const ChatTool& t) { return t.name == name; });
}

// {"name": N, <args_key>: {…}} to an offered tool, or nothing.
std::optional<ToolCall> call_of(const ordered_json& j, std::span<const ChatTool> tools, std::string_view args_key) {
    if (!j.is_object() || !j.contains("name") || !j["name"].is_string()) return std::nullopt;
    const auto args = j.find(std::string(args_key));
    if (args == j.end() || !args->is_object()) return std::nullopt;
    ToolCall call;
    call.name = j["name"].get<std::string>();
    if (!offered(tools, call.name)) return std::nullopt;
    call.arguments = args->dump(-1, ' ', false, ordered_json::error_handler_t::replace);
    return call;
}

std::optional<ordered_json> parse_json(std::string_view text) {
    ordered_json j = ordered_json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return std::nullopt;
    return j;
}

bool parse_chatml(std::string_view text, std::span<const ChatTool> tools, ParsedToolCalls& out) {
    size_t at = text.find(kQwenOpen);
    if (at == std::string_view::npos) return false;
    out.content = std::string(trim_ascii(text.substr(0, at)));
    while (at != std::string_view::npos) {
        const size_t body = at + kQwenOpen.size();
        const size_t close = text.find(kQwenClose, body);
        if (close == std::string_view::npos) return false;
        const auto j = parse_json(text.substr(body, close - body));
        if (!j) return false;
        auto call = call_of(*j, tools, "arguments");
        if (!call) return false;
        out.calls.push_back(std::move(*call));
        const std::string_view rest = trim_ascii(text.substr(close + kQwenClose.size()));
        if (rest.empty()) return true;
        if (!rest.starts_with(kQwenOpen)) return false;
        at = text.find(kQwenOpen, close);
    }
    return true;
}

bool parse_llama3(std::string_view text, std::span<const ChatTool> tools, ParsedToolCalls& out) {
    std::string_view body = trim_ascii(text);
    if (body.starts_with(kPythonTag)) body = trim_ascii(body.substr(kPythonTag.size()));
    if (!body.starts_with('{')) return false;
    const auto j = parse_json(body);
    if (!j) return false;
    auto call = call_of(*j, tools, j->contains("parameters") ? "parameters" : "arguments");
    if (!call) return false;
    out.calls.push_back(std::move(*call));
    return true;
}

bool parse_mistral(std::string_view text, std::span<const ChatTool> tools, bool opened, ParsedToolCalls& out) {
    std::string_view body = trim_ascii(text);
    if (body.starts_with(kMistralCalls)) {
        body = trim_ascii(body.substr(kMistralCalls.size()));
    } else if (!opened) {
        return false;
    }
    const auto j = parse_json(body);
    if (!j || !j->is_array() || j->empty()) return false;
    for (const ordered_json& item : *j) {
        auto call = call_of(item, tools, "arguments");
        if (!call) return false;
        out.calls.push_back(std::move(*call));
    }
    return true;
}

// The schema of one call's JSON object: {name: the tool's, <args_key>: its parameters}.
std::optional<ordered_json> call_schema(const ChatTool& tool, std::string_view args_key) {
    auto params = parse_json(tool.parameters.empty() ? kJsonObjectSchema : std::string_view(tool.parameters));
    if (!params) return std::nullopt;
    ordered_json schema = ordered_json::object();
    schema["type"] = "object";
    schema["properties"] = ordered_json::object();
    schema["properties"]["name"] = {{"const", tool.name}};
    schema["properties"][std::string(args_key)] = std::move(*params);
    schema["required"] = {"name", std::string(args_key)};
    schema["additionalProperties"] = false;
    return schema;
}

} // namespace

ParsedToolCalls parse_tool_calls(const ChatTemplate& tmpl, std::string_view text, std::span<const ChatTool> tools, bool opened) {
    ParsedToolCalls out;
    bool whole = false;
    if (!tools.empty()) {
        switch (tmpl.family) {
        case ChatFamily::ChatML: whole = parse_chatml(text, tools, out); break;
        case ChatFamily::Llama3: whole = parse_llama3(text, tools, out); break;
        case ChatFamily::Mistral: whole = parse_mistral(text, tools, opened, out); break;
        default: break;
        }
    }
    if (!whole) {
        out.calls.clear();
        out.content = std::string(opened && tmpl.family == ChatFamily::Mistral ? kMistralCalls : std::string_view()) + std::string(text);
    }
    return out;
}

bool open_tool_call_in_prompt(const ChatTemplate& tmpl) { return tmpl.family == ChatFamily::Mistral; }

Result<std::string> tool_call_grammar(const ChatTemplate& tmpl, std::span<const ChatTool> tools, const ToolChoice& choice) {
    const std::string_view args_key = tmpl.family == ChatFamily::Llama3 ? "parameters" : "arguments";
    ordered_json alternatives = ordered_json::array();
    for (const ChatTool& tool : tools) {
        if (choice.mode == ToolChoice::Mode::Function && tool.name != choice.function) continue;
        auto schema = call_schema(tool, args_key);
        if (!schema) return make_error(ErrorCode::InvalidArgument, "tool '" + tool.name + "': its parameters are not JSON");
        alternatives.push_back(std::move(*schema));
    }
    if (alternatives.empty()) return make_error(ErrorCode::InvalidArgument, "a tool call is required, but there is no tool to call");
    const ordered_json schema = alternatives.size() == 1 ? alternatives[0] : ordered_json{{"anyOf", alternatives}};
    std::string before, after;
    switch (tmpl.family) {
    case ChatFamily::ChatML:
        before = std::string(kQwenOpen) + "\n";
        after = "\n" + std::string(kQwenClose);
        break;
    case ChatFamily::Llama3: break;
    case ChatFamily::Mistral:
        before = tmpl.mistral == MistralStyle::Tekken ? "[" : " [";
        after = "]";
        break;
    default:
        return make_error(ErrorCode::Unsupported, "the model's chat template (" + std::string(chat_family_name(tmpl.family)) +
                                                      ") has no tool format");
    }
    auto gbnf = json_schema_to_gbnf(schema.dump(), before, after);
    if (!gbnf) {
        return make_error(ErrorCode::InvalidArgument, "a tool's parameters cannot constrain a required call: " + gbnf.error().message);
    }
    return gbnf;
}

std::string tool_call_id_for(const ChatTemplate& tmpl, uint64_t& state) {
    static constexpr std::string_view kChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    const bool mistral = tmpl.family == ChatFamily::Mistral;
    std::string id = mistral ? "" : "call_";
    for (int i = 0; i < (mistral ? 9 : 24); ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL; // PCG's LCG step
        id += kChars[(state >> 33) % kChars.size()];
    }
    return id;
}

} // namespace octo
