#include "engine/chat/chat_format.h"

#include "engine/chat/chat_formatters.h"

namespace octo {

namespace {

Result<Conversation> split_conversation(std::span<const ChatMessage> messages) {
    Conversation c;
    if (!messages.empty() && messages.front().role == ChatRole::System) {
        c.system = messages.front().content;
        messages = messages.subspan(1);
    }
    auto bad = [](const char* why) { return make_error(ErrorCode::InvalidArgument, why); };
    if (messages.empty()) return bad("chat needs at least one user message");
    for (size_t i = 0; i < messages.size(); ++i) {
        const ChatRole expected = i % 2 == 0 ? ChatRole::User : ChatRole::Assistant;
        if (messages[i].role != expected) {
            return bad("chat messages must be: optional system, then user and assistant alternating");
        }
    }
    if (messages.back().role != ChatRole::User) return bad("chat must end with a user message");
    c.turns = messages;
    return c;
}

} // namespace

std::string_view trim_ascii(std::string_view text) {
    constexpr std::string_view kSpace = " \t\n\r\v\f";
    const size_t begin = text.find_first_not_of(kSpace);
    if (begin == std::string_view::npos) return {};
    return text.substr(begin, text.find_last_not_of(kSpace) - begin + 1);
}

Result<std::string> format_chat(const ChatTemplate& tmpl, std::span<const ChatMessage> messages,
                                const ChatFormatContext& context) {
    Result<Conversation> conversation = split_conversation(messages);
    if (!conversation) return conversation.error();
    const Conversation& c = conversation.value();

    std::string text = tmpl.emits_bos && !context.tokenizer_adds_bos ? context.bos_text : std::string();
    switch (tmpl.family) {
    case ChatFamily::Llama2: text += format_llama2(c, context); break;
    case ChatFamily::Llama3: text += format_llama3(c, tmpl, context); break;
    case ChatFamily::ChatML: text += format_chatml(c, tmpl, context); break;
    case ChatFamily::Mistral: text += format_mistral(c, tmpl.mistral, context); break;
    case ChatFamily::Gemma: text += format_gemma(c); break;
    case ChatFamily::Phi3: text += format_phi3(c, tmpl); break;
    case ChatFamily::DeepSeek3: text += format_deepseek3(c); break;
    case ChatFamily::Harmony: text += format_harmony(c, context); break;
    }
    return text;
}

} // namespace octo
