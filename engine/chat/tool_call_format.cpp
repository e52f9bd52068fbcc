#include "engine/chat/tool_call_format.h"

#include <algorithm>
#include <cctype>

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
constexpr std::string_view kHarmonyTo = "to=functions.";
constexpr std::string_view kHarmonyMessage = "<|message|>";
constexpr std::string_view kHarmonyCall = "<|call|>";

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

bool parse_mistral(std::string_view text, std::span<const ChatTool> tools, ParsedToolCalls& out) {
    std::string_view body = trim_ascii(text);
    if (!body.starts_with(kMistralCalls)) return false;
    body = trim_ascii(body.substr(kMistralCalls.size()));
    const auto j = parse_json(body);
    if (!j || !j->is_array() || j->empty()) return false;
    for (const ordered_json& item : *j) {
        auto call = call_of(item, tools, "arguments");
        if (!call) return false;
        out.calls.push_back(std::move(*call));
    }
    return true;
}

// The last message addressed to a function: "… to=functions.NAME …<|message|>ARGS" and nothing
// but "<|call|>" after the arguments. What comes before that message is the content.
bool parse_harmony(std::string_view text, std::span<const ChatTool> tools, ParsedToolCalls& out) {
    const size_t to = text.rfind(kHarmonyTo);
    if (to == std::string_view::npos) return false;
    const size_t name_begin = to + kHarmonyTo.size();
    size_t name_end = name_begin;
    while (name_end < text.size() && (std::isalnum(static_cast<unsigned char>(text[name_end])) || text[name_end] == '_' || text[name_end] == '-')) {
        ++name_end;
    }
    const size_t message = text.find(kHarmonyMessage, name_end);
    if (message == std::string_view::npos) return false;
    std::string_view args = trim_ascii(text.substr(message + kHarmonyMessage.size()));
    if (args.ends_with(kHarmonyCall)) args = trim_ascii(args.substr(0, args.size() - kHarmonyCall.size()));
    const auto j = parse_json(args);
    if (!j || !j->is_object()) return false;
    ToolCall call;
    call.name = std::string(text.substr(name_begin, name_end - name_begin));
    if (!offered(tools, call.name)) return false;
    call.arguments = j->dump(-1, ' ', false, ordered_json::error_handler_t::replace);
    out.calls.push_back(std::move(call));
    const size_t start = text.rfind("<|start|>", to);
    out.content = start == std::string_view::npos ? std::string() : std::string(trim_ascii(text.substr(0, start)));
    return true;
}

// The tool a required harmony call goes to: the named one, or the only one offered.
Result<const ChatTool*> harmony_callee(std::span<const ChatTool> tools, const ToolChoice& choice) {
    for (const ChatTool& t : tools) {
        if (choice.mode == ToolChoice::Mode::Function ? t.name == choice.function : tools.size() == 1) return &t;
    }
    return make_error(ErrorCode::InvalidArgument, "harmony (gpt-oss) writes a call's function name between control tokens: a "
                                                  "required call must name its function (tool_choice {\"type\": \"function\", …}) or "
                                                  "be offered one tool");
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

ParsedToolCalls parse_tool_calls(const ChatTemplate& tmpl, std::string_view text, std::span<const ChatTool> tools,
                                 std::string_view opening) {
    const std::string answer = std::string(opening) + std::string(text);
    ParsedToolCalls out;
    bool whole = false;
    if (!tools.empty()) {
        switch (tmpl.family) {
        case ChatFamily::ChatML: whole = parse_chatml(answer, tools, out); break;
        case ChatFamily::Llama3: whole = parse_llama3(answer, tools, out); break;
        case ChatFamily::Mistral: whole = parse_mistral(answer, tools, out); break;
        case ChatFamily::Harmony: whole = parse_harmony(answer, tools, out); break;
        default: break;
        }
    }
    if (!whole) {
        out.calls.clear();
        out.content = answer;
    }
    return out;
}

Result<std::string> tool_call_opening(const ChatTemplate& tmpl, std::span<const ChatTool> tools, const ToolChoice& choice) {
    if (tmpl.family == ChatFamily::Mistral) return std::string(kMistralCalls);
    if (tmpl.family != ChatFamily::Harmony) return std::string();
    auto tool = harmony_callee(tools, choice);
    if (!tool) return tool.error();
    return "<|channel|>commentary " + std::string(kHarmonyTo) + (*tool)->name + " <|constrain|>json" + std::string(kHarmonyMessage);
}

Result<std::string> tool_call_grammar(const ChatTemplate& tmpl, std::span<const ChatTool> tools, const ToolChoice& choice) {
    const std::string_view args_key = tmpl.family == ChatFamily::Llama3 ? "parameters" : "arguments";
    if (tmpl.family == ChatFamily::Harmony) { // the header named the function: the arguments alone
        auto tool = harmony_callee(tools, choice);
        if (!tool) return tool.error();
        auto gbnf = json_schema_to_gbnf((*tool)->parameters.empty() ? kJsonObjectSchema : std::string_view((*tool)->parameters));
        if (!gbnf) return make_error(ErrorCode::InvalidArgument, "a tool's parameters cannot constrain a required call: " + gbnf.error().message);
        return gbnf;
    }
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
