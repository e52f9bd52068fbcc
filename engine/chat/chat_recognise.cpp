#include "engine/chat/chat_recognise.h"

#include <string>

namespace octo {

namespace {

constexpr std::string_view kSupported = "supported: llama2, llama3, chatml, mistral, gemma, phi3, deepseek3, harmony";

// DeepSeek's turn markers, with full-width bars (U+FF5C).
constexpr std::string_view kDeepSeekUser = "<\xEF\xBD\x9CUser\xEF\xBD\x9C>";
constexpr std::string_view kDeepSeekAssistant = "<\xEF\xBD\x9C" "Assistant\xEF\xBD\x9C>";

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

// Text of a Jinja string literal with its backslash escapes resolved (\n, \t, \', \", \\).
std::string unescape_literal(std::string_view raw) {
    std::string out;
    for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] != '\\' || i + 1 == raw.size()) {
            out += raw[i];
            continue;
        }
        const char next = raw[++i];
        out += next == 'n' ? '\n' : next == 't' ? '\t' : next;
    }
    return out;
}

// The fixed system prompt a ChatML template writes when the conversation has none, as in
// Qwen's '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n'. Found as a
// "<|im_start|>system" + newline + plain text + "<|im_end|>" run inside one literal;
// a run containing quotes, braces or '+' is an expression (the caller's system message).
std::string chatml_default_system(std::string_view jinja) {
    constexpr std::string_view kOpen = "<|im_start|>system";
    constexpr std::string_view kClose = "<|im_end|>";
    for (size_t at = jinja.find(kOpen); at != std::string_view::npos; at = jinja.find(kOpen, at + 1)) {
        std::string_view rest = jinja.substr(at + kOpen.size());
        if (rest.starts_with("\\n")) {
            rest.remove_prefix(2);
        } else if (rest.starts_with('\n')) {
            rest.remove_prefix(1);
        } else {
            continue;
        }
        const size_t end = rest.find(kClose);
        if (end == std::string_view::npos) continue;
        const std::string_view body = rest.substr(0, end);
        if (body.empty() || body.find_first_of("'\"{}+") != std::string_view::npos) continue;
        return unescape_literal(body);
    }
    return {};
}

// The first quoted literal assigned to date_string (Llama 3.1+ templates), or "".
std::string llama3_default_date(std::string_view jinja) {
    constexpr std::string_view kKey = "date_string = ";
    for (size_t at = jinja.find(kKey); at != std::string_view::npos; at = jinja.find(kKey, at + 1)) {
        const size_t begin = at + kKey.size() + 1;
        if (begin > jinja.size()) break;
        const char quote = jinja[begin - 1];
        if (quote != '"' && quote != '\'') continue;
        const size_t end = jinja.find(quote, begin);
        if (end != std::string_view::npos) return std::string(jinja.substr(begin, end - begin));
    }
    return {};
}

MistralStyle mistral_style(std::string_view jinja) {
    if (contains(jinja, "' [INST] '") || contains(jinja, "\" [INST] \"")) return MistralStyle::V1;
    if (contains(jinja, "'[INST]'") || contains(jinja, "\"[INST]\"")) return MistralStyle::Tekken;
    if (contains(jinja, "'[/INST]'") || contains(jinja, "\"[/INST]\"")) return MistralStyle::V3;
    return MistralStyle::Legacy;
}

Error unsupported(std::string_view why) {
    return make_error(ErrorCode::Unsupported, "chat template not recognised (" + std::string(why) +
                                                  (why.empty() ? "" : "; ") + std::string(kSupported) + ")");
}

} // namespace

Result<ChatTemplate> recognise_chat_template(std::string_view jinja) {
    if (jinja.empty()) {
        return make_error(ErrorCode::Unsupported,
                          "model has no chat template (tokenizer.chat_template is empty or absent)");
    }
    ChatTemplate t;
    t.emits_bos = contains(jinja, "bos_token");
    if (contains(jinja, "<|start|>") && contains(jinja, "<|channel|>")) {
        t.family = ChatFamily::Harmony; // gpt-oss
        t.tools = contains(jinja, "namespace functions") || contains(jinja, "render_tool_namespace");
    } else if (contains(jinja, "<|im_start|>")) {
        if (contains(jinja, "<|im_sep|>")) return unsupported("Phi-4 layout");
        if (contains(jinja, "<end_of_utterance>")) return unsupported("SmolVLM layout");
        t.family = ChatFamily::ChatML;
        t.default_system = chatml_default_system(jinja);
        t.chatml_thinking = contains(jinja, "enable_thinking") && contains(jinja, "</think>");
        t.tools = contains(jinja, "<tool_call>");
    } else if (contains(jinja, "[INST]")) {
        if (contains(jinja, "[SYSTEM_PROMPT]")) return unsupported("Mistral v7 layout");
        if (contains(jinja, "<<SYS>>")) {
            t.family = ChatFamily::Llama2;
        } else {
            t.family = ChatFamily::Mistral;
            t.mistral = mistral_style(jinja);
            t.tools = contains(jinja, "[AVAILABLE_TOOLS]") && (t.mistral == MistralStyle::V3 || t.mistral == MistralStyle::Tekken);
        }
    } else if (contains(jinja, kDeepSeekUser) && contains(jinja, kDeepSeekAssistant)) {
        if (contains(jinja, "<think>")) return unsupported("DeepSeek R1 layout with a thinking block");
        t.family = ChatFamily::DeepSeek3;
    } else if (contains(jinja, "<|assistant|>") && contains(jinja, "<|end|>")) {
        t.family = ChatFamily::Phi3;
        t.drops_system = !contains(jinja, "system");
    } else if (contains(jinja, "<start_of_turn>")) {
        t.family = ChatFamily::Gemma;
    } else if (contains(jinja, "<|start_header_id|>") && contains(jinja, "<|end_header_id|>")) {
        t.family = ChatFamily::Llama3;
        t.llama3_dated_system = contains(jinja, "Cutting Knowledge Date: December 2023");
        t.llama3_default_date = llama3_default_date(jinja);
        t.llama3_date_from_clock = contains(jinja, "strftime_now");
        t.tools = t.llama3_dated_system && contains(jinja, "ipython");
    } else {
        return unsupported("");
    }
    return t;
}

} // namespace octo
