// Turns what the user typed into prompt token ids: plain text, or a system + user
// conversation rendered through the model's chat template (tokenizer.chat_template,
// recognised as one of the built-in families: chat_recognise.h).
//
// BOS is prepended when the vocabulary asks for it (tokenizer.ggml.add_bos_token, or
// llama.cpp's default for the tokenizer type). Chat text is tokenized with special-token
// parsing on, so <|im_start|> and friends become their control tokens; plain text parses
// them only when `parse_special` is set.
//
// A model that states a prompt template (GGUF `octoscope.prompt_template`, e.g. the built-in
// octet's "{prompt}<|answer|>") gets plain text wrapped in it: the template's own text is
// tokenized with special tokens parsed, the user's text as plain text.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/chat/chat_message.h"
#include "engine/chat/chat_template.h"
#include "engine/core/result.h"
#include "engine/generation/run_spec.h"
#include "engine/gguf/gguf_file.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo {

// The GGUF key of a model's prompt template ("{prompt}" marks where the user's text goes).
inline constexpr const char* kPromptTemplateKey = "octoscope.prompt_template";

// The model's chat template (tokenizer.chat_template) as recognised; an error when the file has
// none or it is not one the engine renders (chat_recognise.h).
Result<ChatTemplate> model_chat_template(const GgufFile& file);

struct BuiltPrompt {
    std::string text;           // what was tokenized (the templated text in chat mode)
    std::vector<int32_t> ids;
};

// The prompt `spec` describes (PromptSpec, run_spec.h): its conversation when it has one
// (build_conversation_prompt), else its text, plain or in chat mode.
Result<BuiltPrompt> build_prompt(const GgufFile& file, const Tokenizer& tokenizer, const PromptSpec& spec);

// How a conversation reaches a model: through its recognised chat template; ChatML when it has
// none of its own (as other servers do); or, for a model that states a prompt template and no
// chat template (the built-in octet), only its last user message.
struct ConversationRendering {
    enum class Kind { ChatTemplate, ChatML, LastUserMessage };
    Kind kind = Kind::ChatML;
    ChatTemplate tmpl; // what formats it (ChatML's defaults unless Kind::ChatTemplate)
    // "chat template (llama3)", "chatml" or "prompt template (last user message)"
    std::string label() const;
    bool whole() const { return kind != Kind::LastUserMessage; } // every turn reaches the model
};
ConversationRendering conversation_rendering(const GgufFile& file);

// A whole conversation (spec.messages) as a server's chat request sends it (`octoscope-cli serve`):
// through the model's chat template when it is recognised (every turn); a model without one that
// states a prompt template (octet) gets its last user message through that template, the other
// turns left out; any other model gets ChatML, as other servers do, with the Hermes/Qwen tool
// format. `how` (optional) receives which of the three was used: "chat template (llama3)",
// "prompt template (last user message)" or "chatml". The messages may come in any order OpenAI's
// API accepts (format_chat, chat_format.h). Also from `spec`: harmony's reasoning level, and the
// tools (not shown with tool_choice "none"; a required call opened in the prompt where the family
// needs it, tool_call_format.h).
Result<BuiltPrompt> build_conversation_prompt(const GgufFile& file, const Tokenizer& tokenizer, const PromptSpec& spec,
                                              std::string* how = nullptr);

} // namespace octo
