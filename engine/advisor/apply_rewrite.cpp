#include "engine/advisor/apply_rewrite.h"

#include "engine/grammar/json_schema.h"

#include <cctype>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/utf8.h"

namespace octo {

bool contains_cjk(std::string_view text) {
    for (uint32_t cp : decode_utf8(text)) {
        if ((cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
            (cp >= 0x20000 && cp <= 0x2FFFF)) {
            return true;
        }
    }
    return false;
}

namespace {

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

bool continuation_byte(std::string_view s, size_t at) {
    return at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80;
}

// A space between two pieces unless either side is whitespace or Chinese.
std::string joined(std::string_view first, std::string_view second, bool chinese) {
    std::string out(first);
    if (!chinese && !first.empty() && !second.empty() && !is_space(first.back()) && !is_space(second.front())) out += ' ';
    out += second;
    return out;
}

} // namespace

std::string json_schema_text(const std::vector<PromptField>& fields) {
    std::string out = "{";
    for (const PromptField& f : fields) {
        if (out.size() > 1) out += ", ";
        out += nlohmann::json(f.name).dump() + ": " + field_type_name(f.type);
    }
    return out + "}";
}

std::string json_schema_of_fields(const std::vector<PromptField>& fields) {
    if (fields.empty()) return std::string(kJsonObjectSchema);
    nlohmann::ordered_json schema = {{"type", "object"}, {"properties", nlohmann::ordered_json::object()}};
    nlohmann::ordered_json required = nlohmann::ordered_json::array();
    for (const PromptField& f : fields) {
        schema["properties"][f.name] = {{"type", f.type == FieldType::Number ? "number" : "string"}};
        required.push_back(f.name);
    }
    schema["required"] = std::move(required);
    schema["additionalProperties"] = false;
    return schema.dump();
}

std::string markdown_header_text(const std::vector<PromptField>& fields) {
    std::string out = "|";
    for (const PromptField& f : fields) {
        out += ' ';
        for (char c : f.name) {
            if (c == '|') out += '\\';
            out += c;
        }
        out += " |";
    }
    return out;
}

Result<std::string> rewrite_text(const AdvisorRules& rules, const Finding& finding, std::string_view prompt) {
    const AdvisorRule* rule = rules.find(finding.rule);
    if (!rule) return make_error(ErrorCode::InvalidArgument, "unknown advisor rule \"" + finding.rule + "\"");
    if (!rule->rewrite) return make_error(ErrorCode::InvalidArgument, "rule " + rule->id + " has no rewrite");
    const bool chinese = contains_cjk(prompt);
    std::string text = rule->rewrite->text.in(chinese);
    const char* placeholder = fields_placeholder(rule->rewrite->action);
    if (!placeholder) return text;
    const std::vector<PromptField> fields = fields_named_in(prompt);
    if (fields.empty()) return rule->rewrite->fallback.in(chinese);
    const std::string filled = rule->rewrite->action == RewriteAction::AppendTableColumns ? markdown_header_text(fields)
                                                                                          : json_schema_text(fields);
    text.replace(text.find(placeholder), std::string_view(placeholder).size(), filled);
    return text;
}

Result<std::string> apply_rewrite(const AdvisorRules& rules, const Finding& finding, std::string_view prompt) {
    auto inserted = rewrite_text(rules, finding, prompt);
    if (!inserted) return inserted;
    std::string text = std::move(inserted.value());
    const bool chinese = contains_cjk(prompt);
    switch (rules.find(finding.rule)->rewrite->action) {
    case RewriteAction::AppendJsonSchema:
    case RewriteAction::AppendTableColumns:
    case RewriteAction::Append: return joined(prompt, text, chinese);
    case RewriteAction::Prepend: return joined(text, prompt, chinese);
    case RewriteAction::ReplaceSpan: break;
    }
    if (finding.place != FindingPlace::Prompt || finding.start >= finding.end || finding.end > prompt.size() ||
        continuation_byte(prompt, finding.start) || continuation_byte(prompt, finding.end) ||
        prompt.substr(finding.start, finding.end - finding.start) != finding.evidence) {
        return make_error(ErrorCode::InvalidArgument,
                          "the span of finding " + finding.rule + " no longer holds its evidence in the prompt");
    }
    if (std::isupper(static_cast<unsigned char>(prompt[finding.start])) && !text.empty()) {
        text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
    }
    std::string out(prompt.substr(0, finding.start));
    out += text;
    out += prompt.substr(finding.end);
    return out;
}

} // namespace octo
