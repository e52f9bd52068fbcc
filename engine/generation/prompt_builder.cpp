#include "engine/generation/prompt_builder.h"

#include <string>
#include <tuple>

#include "engine/chat/chat_format.h"
#include "engine/chat/chat_recognise.h"
#include "engine/chat/tool_call_format.h"
#include "engine/core/log.h"

namespace octo {

Result<ChatTemplate> model_chat_template(const GgufFile& file) {
    std::string jinja;
    if (file.find("tokenizer.chat_template")) {
        auto t = file.get_string("tokenizer.chat_template");
        if (!t) return t.error();
        jinja = t.value();
    }
    return recognise_chat_template(jinja);
}

namespace {

ChatFormatContext format_context(const Tokenizer& tokenizer, bool enable_thinking,
                                 ReasoningEffort reasoning = ReasoningEffort::Medium) {
    const Vocab& v = tokenizer.vocab();
    ChatFormatContext context;
    context.bos_text = tokenizer.token_text(v.bos_id);
    context.eos_text = tokenizer.token_text(v.eos_id);
    context.tokenizer_adds_bos = v.add_bos;
    context.enable_thinking = enable_thinking;
    context.reasoning = reasoning;
    return context;
}

Result<std::string> render_chat(const GgufFile& file, const Tokenizer& tokenizer, const PromptSpec& spec) {
    auto tmpl = model_chat_template(file);
    if (!tmpl) return tmpl.error();
    std::vector<ChatMessage> messages;
    if (!spec.system.empty()) messages.push_back({ChatRole::System, spec.system});
    messages.push_back({ChatRole::User, spec.prompt});
    const ChatFormatContext context = format_context(tokenizer, spec.enable_thinking, spec.reasoning_effort);
    if (tmpl->drops_system && !spec.system.empty()) {
        log_message(LogLevel::Warning, "the model's chat template (" + std::string(chat_family_name(tmpl->family)) +
                                           ") has no system role: the system message is left out, as the template does");
    }
    return format_chat(tmpl.value(), messages, context);
}

// Plain text through the model's prompt template: the template's parts with special tokens
// parsed, the user's text as `parse_special` says; BOS (when the vocab asks) before it all.
Result<BuiltPrompt> apply_prompt_template(const Tokenizer& tokenizer, const std::string& tmpl, const PromptSpec& spec) {
    const size_t at = tmpl.find("{prompt}");
    const std::string before = at == std::string::npos ? tmpl : tmpl.substr(0, at);
    const std::string after = at == std::string::npos ? std::string() : tmpl.substr(at + 8);
    BuiltPrompt out;
    out.text = before + spec.prompt + after;
    for (const auto& [text, first, special] : {std::tuple{before, true, true}, std::tuple{spec.prompt, false, spec.parse_special},
                                               std::tuple{after, false, true}}) {
        if (text.empty() && !first) continue;
        auto ids = tokenizer.encode(text, /*add_special=*/first, special);
        if (!ids) return ids.error();
        out.ids.insert(out.ids.end(), ids->begin(), ids->end());
    }
    return out;
}

} // namespace

ConversationRendering conversation_rendering(const GgufFile& file) {
    ConversationRendering r;
    if (auto tmpl = model_chat_template(file)) {
        r.kind = ConversationRendering::Kind::ChatTemplate;
        r.tmpl = tmpl.value();
    } else if (file.find(kPromptTemplateKey)) {
        r.kind = ConversationRendering::Kind::LastUserMessage;
    } else {
        r.tmpl.tools = true; // ChatML's tool format: Hermes', which Qwen's templates write
    }
    return r;
}

std::string ConversationRendering::label() const {
    switch (kind) {
    case Kind::ChatTemplate: return "chat template (" + std::string(chat_family_name(tmpl.family)) + ")";
    case Kind::ChatML: return "chatml";
    case Kind::LastUserMessage: return "prompt template (last user message)";
    }
    return "chatml";
}

Result<BuiltPrompt> build_conversation_prompt(const GgufFile& file, const Tokenizer& tokenizer, const PromptSpec& spec,
                                              std::string* how) {
    const std::vector<ChatMessage>& messages = spec.messages;
    const ConversationRendering rendering = conversation_rendering(file);
    if (how) *how = rendering.label();
    if (rendering.kind == ConversationRendering::Kind::LastUserMessage) {
        const ChatMessage* last_user = nullptr;
        for (const ChatMessage& m : messages) {
            if (m.role == ChatRole::User) last_user = &m;
        }
        if (!last_user) return make_error(ErrorCode::InvalidArgument, "the conversation has no user message");
        if (!spec.tools.empty() && spec.tool_choice.mode != ToolChoice::Mode::None) {
            return make_error(ErrorCode::Unsupported, "the model has no chat template, only a prompt template: tools cannot be offered");
        }
        PromptSpec last;
        last.prompt = last_user->content;
        return build_prompt(file, tokenizer, last);
    }
    const ChatTemplate& chosen = rendering.tmpl;
    ChatFormatContext context = format_context(tokenizer, true, spec.reasoning_effort);
    if (spec.tool_choice.mode != ToolChoice::Mode::None) context.tools = spec.tools;
    if (spec.tool_choice.forces_call() && !spec.tools.empty()) {
        auto opening = tool_call_opening(chosen, spec.tools, spec.tool_choice);
        if (!opening) return opening.error();
        context.tool_call_opening = std::move(opening.value());
    }
    auto text = format_chat(chosen, messages, context);
    if (!text) return text.error();
    BuiltPrompt out;
    out.text = std::move(text.value());
    auto ids = tokenizer.encode(out.text, /*add_special=*/true, /*parse_special=*/true);
    if (!ids) return ids.error();
    out.ids = std::move(ids.value());
    return out;
}

Result<BuiltPrompt> build_prompt(const GgufFile& file, const Tokenizer& tokenizer, const PromptSpec& spec) {
    if (!spec.messages.empty()) return build_conversation_prompt(file, tokenizer, spec);
    if (!spec.chat && file.find(kPromptTemplateKey)) {
        auto tmpl = file.get_string(kPromptTemplateKey);
        if (!tmpl) return tmpl.error();
        return apply_prompt_template(tokenizer, tmpl.value(), spec);
    }
    BuiltPrompt out;
    if (spec.chat) {
        auto text = render_chat(file, tokenizer, spec);
        if (!text) return text.error();
        out.text = std::move(text.value());
    } else {
        out.text = spec.prompt;
    }
    auto ids = tokenizer.encode(out.text, /*add_special=*/true, spec.chat || spec.parse_special);
    if (!ids) return ids.error();
    out.ids = std::move(ids.value());
    return out;
}

} // namespace octo
