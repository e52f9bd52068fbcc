// Maps a model's `tokenizer.chat_template` (Jinja source) to a built-in formatter.
//
// Recognition is by distinctive substrings, checked in this order (the order matters:
// several families share markers):
//   "<|im_start|>"                              -> chatml
//   "[INST]" with "<<SYS>>"                     -> llama2
//   "[INST]" without "<<SYS>>"                  -> mistral (style from the spacing around [INST])
//   "<｜User｜>" and "<｜Assistant｜>"          -> deepseek3 (full-width bars)
//   "<|assistant|>" and "<|end|>"               -> phi3
//   "<start_of_turn>"                           -> gemma
//   "<|start_header_id|>" and "<|end_header_id|>" -> llama3
// Templates that carry one of these markers but belong to a family with a different
// layout (Phi-4's "<|im_sep|>", SmolVLM's "<end_of_utterance>", Mistral v7's
// "[SYSTEM_PROMPT]", DeepSeek R1's "<think>") are refused rather than formatted wrongly.
// Also read from the template: ChatML's default system prompt and Qwen3's thinking block
// ("enable_thinking" with "</think>"), a Phi-3 template without a system role (no
// "system" anywhere), the Llama 3.1+ dated system block, and whether the template has a tool
// format: "<tool_call>" (ChatML: Qwen, Hermes), "ipython" (Llama 3.1+), "[AVAILABLE_TOOLS]"
// (Mistral v3 and Tekken layouts), "namespace functions" (harmony).
#pragma once

#include <string_view>

#include "engine/chat/chat_template.h"
#include "engine/core/result.h"

namespace octo {

// Error (Unsupported): "chat template not recognised (supported: llama2, llama3,
// chatml, mistral, gemma, phi3, deepseek3)", or "model has no chat template (...)" when empty.
Result<ChatTemplate> recognise_chat_template(std::string_view jinja);

} // namespace octo
