// Fuzz target: a model's chat template and a conversation from untrusted bytes. The input is
// split at NUL bytes: the first part is the template's Jinja source (recognised, as a GGUF's
// tokenizer.chat_template is), the rest are messages whose first byte picks the role. Each
// conversation is formatted with the recognised template and with every built-in family and
// style. Besides crashes and sanitizer reports, a finding is a formatted prompt that lacks the
// text of one of the conversation's user messages (as the template trims it).
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/chat/chat_format.h"
#include "engine/chat/chat_recognise.h"
#include "engine/chat/chat_template.h"

namespace {

void format(const octo::ChatTemplate& tmpl, const std::vector<octo::ChatMessage>& messages, bool thinking) {
    octo::ChatFormatContext context;
    context.bos_text = "<s>";
    context.eos_text = "</s>";
    context.enable_thinking = thinking;
    auto prompt = octo::format_chat(tmpl, messages, context);
    if (!prompt) return;
    // Any order of roles is accepted; every user message's text is in the prompt (trimmed, as
    // some templates write it; consecutive ones joined with a blank line where the template
    // insists on alternation).
    constexpr std::string_view kSpace = " \t\n\r\v\f";
    for (const octo::ChatMessage& m : messages) {
        if (m.role != octo::ChatRole::User) continue;
        std::string_view text = m.content;
        text.remove_prefix(std::min(text.size(), text.find_first_not_of(kSpace)));
        text = text.substr(0, text.find_last_not_of(kSpace) + 1);
        if (prompt->find(text) == std::string::npos) std::abort();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<std::string_view> parts;
    for (size_t at = 0;;) {
        const size_t end = input.find('\0', at);
        parts.push_back(input.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
        if (end == std::string_view::npos) break;
        at = end + 1;
    }
    auto recognised = octo::recognise_chat_template(parts[0]);
    std::vector<octo::ChatMessage> messages;
    for (size_t i = 1; i < parts.size(); ++i) {
        if (parts[i].empty()) continue;
        const auto role = static_cast<octo::ChatRole>(static_cast<uint8_t>(parts[i][0]) % 3);
        messages.push_back({role, std::string(parts[i].substr(1))});
    }
    if (messages.empty()) return 0;
    if (recognised) format(*recognised, messages, true);
    using F = octo::ChatFamily;
    for (F family : {F::Llama2, F::Llama3, F::ChatML, F::Mistral, F::Gemma, F::Phi3, F::DeepSeek3, F::Harmony}) {
        octo::ChatTemplate tmpl;
        tmpl.family = family;
        if (family == F::Mistral) {
            for (auto style : {octo::MistralStyle::Legacy, octo::MistralStyle::V1, octo::MistralStyle::V3, octo::MistralStyle::Tekken}) {
                tmpl.mistral = style;
                format(tmpl, messages, true);
            }
            continue;
        }
        if (family == F::Llama3) {
            tmpl.llama3_dated_system = true;
            tmpl.llama3_default_date = "26 Jul 2024";
        }
        if (family == F::ChatML) {
            tmpl.chatml_thinking = true;
            tmpl.default_system = "You are a helpful assistant.";
            format(tmpl, messages, false);
        }
        if (family == F::Phi3) tmpl.drops_system = true;
        format(tmpl, messages, true);
    }
    return 0;
}
