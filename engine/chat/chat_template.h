// A recognised chat-template family and the details of it that change the output.
// See docs/chat-templates.md for the text each family produces.
#pragma once

#include <string>
#include <string_view>

namespace octo {

enum class ChatFamily { Llama2, Llama3, ChatML, Mistral, Gemma, Phi3, DeepSeek3, Harmony };

// Mistral's templates differ in spacing and in where the system message goes.
enum class MistralStyle {
    Legacy, // "[INST] u [/INST]"; system not supported by the template: merged into the first user turn
    V1,     // " [INST] s\n\nu [/INST]": system in the first user turn
    V3,     // "[INST] s\n\nu[/INST]": system in the last user turn, assistant text trimmed
    Tekken, // "[INST]s\n\nu[/INST]": system in the last user turn, no spaces
};

struct ChatTemplate {
    ChatFamily family = ChatFamily::ChatML;
    MistralStyle mistral = MistralStyle::Legacy; // Mistral only
    // Llama 3.1+: a system block with "Cutting Knowledge Date" / "Today Date" is always written.
    bool llama3_dated_system = false;
    std::string llama3_default_date; // the template's fallback date_string, e.g. "26 Jul 2024"
    bool llama3_date_from_clock = false; // the template prefers strftime_now()
    // ChatML: system prompt the template writes when the conversation has none (Qwen's).
    std::string default_system;
    // ChatML as Qwen3 writes it: earlier assistant turns lose their <think>…</think> block,
    // and with ChatFormatContext::enable_thinking false the generation prompt ends with an
    // empty one ("<think>\n\n</think>\n\n").
    bool chatml_thinking = false;
    // The template has no system role and leaves a system message out (the first Phi-3
    // template); format_chat() does the same.
    bool drops_system = false;
    // The template writes bos_token at its start (llama.cpp then leaves BOS to the tokenizer).
    bool emits_bos = false;
    // The template defines a tool format (Qwen's <tool_call>, Llama 3.1+'s ipython role, Mistral's
    // [AVAILABLE_TOOLS]): tools, tool calls and tool results can be written (chat_format.h).
    bool tools = false;
};

// Short name: "llama2", "llama3", "chatml", "mistral", "gemma", "phi3", "deepseek3", "harmony".
std::string_view chat_family_name(ChatFamily family);

} // namespace octo
