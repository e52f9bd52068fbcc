// Chat-template recognition and the built-in formatters. The template strings mirror the
// structure of the public templates of each family (Jinja escapes such as \n are kept as
// written in the template source); the expected prompts are written out by hand from
// what that Jinja renders with add_generation_prompt = true, minus the leading BOS that
// the tokenizer adds. The RealTemplates tests read the templates stored in the real
// vocabularies of ../shared/refdata/vocab (Llama 3, Qwen 3, Gemma 3, DeepSeek V3 and
// llama.cpp's Phi-3 file) and skip when that folder is absent.
// Covers: chat_template.cpp, chat_recognise.cpp, chat_format.cpp, format_chatml.cpp,
//   format_deepseek3.cpp, format_gemma.cpp, format_harmony.cpp, format_llama2.cpp,
//   format_llama3.cpp, format_mistral.cpp, format_phi3.cpp, engine/generation/prompt_builder.cpp
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "engine/chat/chat_format.h"
#include "engine/chat/chat_recognise.h"
#include "engine/chat/chat_tools.h"
#include "engine/generation/prompt_builder.h"
#include "engine/gguf/gguf_file.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"
#include "tests/support/captured_log.h"
#include "tests/support/shared_data.h"

namespace octo {
namespace {

const std::vector<ChatMessage> kSystemUser = {{ChatRole::System, "You are terse."},
                                              {ChatRole::User, "What is 2+2?"}};
const std::vector<ChatMessage> kUserOnly = {{ChatRole::User, "What is 2+2?"}};
const std::vector<ChatMessage> kMultiTurn = {{ChatRole::System, "You are terse."},
                                             {ChatRole::User, "Hi"},
                                             {ChatRole::Assistant, "Hello! "},
                                             {ChatRole::User, "Bye"}};

ChatFormatContext llama_tokens() {
    ChatFormatContext context;
    context.bos_text = "<s>";
    context.eos_text = "</s>";
    return context;
}
const ChatFormatContext kLlamaTokens = llama_tokens();

ChatTemplate recognise(const std::string& jinja, ChatFamily expected) {
    Result<ChatTemplate> t = recognise_chat_template(jinja);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    if (!t.ok()) return {};
    EXPECT_EQ(chat_family_name(t->family), chat_family_name(expected));
    return t.value();
}

std::string format(const ChatTemplate& t, const std::vector<ChatMessage>& messages,
                   const ChatFormatContext& context = kLlamaTokens) {
    Result<std::string> text = format_chat(t, messages, context);
    EXPECT_TRUE(text.ok()) << (text.ok() ? "" : text.error().message);
    return text.ok() ? text.value() : std::string();
}

// meta-llama/Llama-2-7b-chat-hf
const std::string kLlama2 =
    R"TPL({% if messages[0]['role'] == 'system' %}{% set loop_messages = messages[1:] %}{% set system_message = messages[0]['content'] %}{% else %}{% set loop_messages = messages %}{% set system_message = false %}{% endif %}{% for message in loop_messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if loop.index0 == 0 and system_message != false %}{% set content = '<<SYS>>\n' + system_message + '\n<</SYS>>\n\n' + message['content'] %}{% else %}{% set content = message['content'] %}{% endif %}{% if message['role'] == 'user' %}{{ bos_token + '[INST] ' + content.strip() + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ ' '  + content.strip() + ' ' + eos_token }}{% endif %}{% endfor %})TPL";

TEST(ChatTemplates, Llama2) {
    const ChatTemplate t = recognise(kLlama2, ChatFamily::Llama2);
    EXPECT_TRUE(t.emits_bos);
    EXPECT_EQ(format(t, kSystemUser), "[INST] <<SYS>>\nYou are terse.\n<</SYS>>\n\nWhat is 2+2? [/INST]");
    EXPECT_EQ(format(t, kUserOnly), "[INST] What is 2+2? [/INST]");
    EXPECT_EQ(format(t, kMultiTurn),
              "[INST] <<SYS>>\nYou are terse.\n<</SYS>>\n\nHi [/INST] Hello! </s><s>[INST] Bye [/INST]");
}

TEST(ChatTemplates, LeadingBosIsWrittenOnlyWhenTheTokenizerDoesNotAddIt) {
    const ChatTemplate t = recognise(kLlama2, ChatFamily::Llama2);
    ChatFormatContext no_bos = kLlamaTokens;
    no_bos.tokenizer_adds_bos = false;
    EXPECT_EQ(format(t, kUserOnly, no_bos), "<s>[INST] What is 2+2? [/INST]");
}

// meta-llama/Meta-Llama-3-8B-Instruct
const std::string kLlama3 =
    R"TPL({% set loop_messages = messages %}{% for message in loop_messages %}{% set content = '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %})TPL";

TEST(ChatTemplates, Llama3) {
    const ChatTemplate t = recognise(kLlama3, ChatFamily::Llama3);
    EXPECT_FALSE(t.llama3_dated_system);
    EXPECT_EQ(format(t, kSystemUser),
              "<|start_header_id|>system<|end_header_id|>\n\nYou are terse.<|eot_id|>"
              "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>"
              "<|start_header_id|>assistant<|end_header_id|>\n\n");
    // Content is trimmed.
    EXPECT_EQ(format(t, {{ChatRole::User, "  What is 2+2?\n"}}),
              "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>"
              "<|start_header_id|>assistant<|end_header_id|>\n\n");
}

// Llama 3.1 / 3.2 style (system block always written, with dates); tool branches shortened.
const std::string kLlama31 = R"TPL({{- bos_token }}
{%- if not date_string is defined %}
    {%- if strftime_now is defined %}
        {%- set date_string = strftime_now("%d %b %Y") %}
    {%- else %}
        {%- set date_string = "26 Jul 2024" %}
    {%- endif %}
{%- endif %}
{%- if messages[0]['role'] == 'system' %}
    {%- set system_message = messages[0]['content']|trim %}
    {%- set messages = messages[1:] %}
{%- else %}
    {%- set system_message = "" %}
{%- endif %}
{{- "<|start_header_id|>system<|end_header_id|>\n\n" }}
{{- "Cutting Knowledge Date: December 2023\n" }}
{{- "Today Date: " + date_string + "\n\n" }}
{{- system_message }}
{{- "<|eot_id|>" }}
{%- for message in messages %}
    {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + '<|eot_id|>' }}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|start_header_id|>assistant<|end_header_id|>\n\n' }}
{%- endif %})TPL";

TEST(ChatTemplates, Llama31DatedSystemBlock) {
    const ChatTemplate t = recognise(kLlama31, ChatFamily::Llama3);
    EXPECT_TRUE(t.llama3_dated_system);
    EXPECT_TRUE(t.llama3_date_from_clock);
    EXPECT_EQ(t.llama3_default_date, "26 Jul 2024");
    EXPECT_EQ(format(t, kUserOnly),
              "<|start_header_id|>system<|end_header_id|>\n\n"
              "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n<|eot_id|>"
              "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>"
              "<|start_header_id|>assistant<|end_header_id|>\n\n");
    ChatFormatContext dated = kLlamaTokens;
    dated.today = std::chrono::year_month_day{std::chrono::year{2025}, std::chrono::March, std::chrono::day{5}};
    EXPECT_EQ(format(t, kSystemUser, dated),
              "<|start_header_id|>system<|end_header_id|>\n\n"
              "Cutting Knowledge Date: December 2023\nToday Date: 05 Mar 2025\n\nYou are terse.<|eot_id|>"
              "<|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>"
              "<|start_header_id|>assistant<|end_header_id|>\n\n");
}

// Qwen/Qwen2-0.5B-Instruct, as stored in GGUF (the JSON "\n" already decoded to newlines).
const std::string kQwen2 =
    "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\n"
    "You are a helpful assistant.<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + "
    "message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' "
    "}}{% endif %}";

TEST(ChatTemplates, ChatMLWithQwenDefaultSystem) {
    const ChatTemplate t = recognise(kQwen2, ChatFamily::ChatML);
    EXPECT_FALSE(t.emits_bos);
    EXPECT_EQ(t.default_system, "You are a helpful assistant.");
    EXPECT_EQ(format(t, kSystemUser),
              "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n"
              "<|im_start|>assistant\n");
    EXPECT_EQ(format(t, kUserOnly),
              "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nWhat is 2+2?<|im_end|>\n"
              "<|im_start|>assistant\n");
}

// Qwen2.5 style: the caller's system message and the default are separate literals.
const std::string kQwen25 = R"TPL({%- if tools %}
    {{- '<|im_start|>system\n' }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %})TPL";

TEST(ChatTemplates, ChatMLDefaultSystemSkipsExpressions) {
    const ChatTemplate t = recognise(kQwen25, ChatFamily::ChatML);
    EXPECT_EQ(t.default_system, "You are Qwen, created by Alibaba Cloud. You are a helpful assistant.");
    EXPECT_EQ(format(t, {{ChatRole::User, " hi "}}),
              "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n"
              "<|im_start|>user\n hi <|im_end|>\n<|im_start|>assistant\n");
}

// Plain ChatML without a default system prompt.
const std::string kChatML =
    R"TPL({% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %})TPL";

TEST(ChatTemplates, ChatMLPlain) {
    const ChatTemplate t = recognise(kChatML, ChatFamily::ChatML);
    EXPECT_EQ(t.default_system, "");
    EXPECT_EQ(format(t, kUserOnly), "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n");
    EXPECT_EQ(format(t, kMultiTurn),
              "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
              "<|im_start|>assistant\nHello! <|im_end|>\n<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n");
}

// mistralai/Mistral-7B-Instruct-v0.1
const std::string kMistralLegacy =
    R"TPL({{ bos_token }}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'] + ' [/INST]' }}{% elif message['role'] == 'assistant' %}{{ message['content'] + eos_token}}{% else %}{{ raise_exception('Only user and assistant roles are supported!') }}{% endif %}{% endfor %})TPL";

TEST(ChatTemplates, MistralLegacy) {
    const ChatTemplate t = recognise(kMistralLegacy, ChatFamily::Mistral);
    EXPECT_EQ(t.mistral, MistralStyle::Legacy);
    EXPECT_EQ(format(t, kSystemUser), "[INST] You are terse.\n\nWhat is 2+2? [/INST]");
    EXPECT_EQ(format(t, kUserOnly), "[INST] What is 2+2? [/INST]");
    EXPECT_EQ(format(t, kMultiTurn), "[INST] You are terse.\n\nHi [/INST]Hello! </s>[INST] Bye [/INST]");
}

// mistralai/Mistral-7B-Instruct-v0.2 (updated template, Mistral's "v1" tokenization)
const std::string kMistralV1 = R"TPL({%- if messages[0]['role'] == 'system' %}
    {%- set system_message = messages[0]['content'] %}
    {%- set loop_messages = messages[1:] %}
{%- else %}
    {%- set loop_messages = messages %}
{%- endif %}

{{- bos_token }}
{%- for message in loop_messages %}
    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}
        {{- raise_exception('After the optional system message, conversation roles must alternate user/assistant/user/assistant/...') }}
    {%- endif %}
    {%- if message['role'] == 'user' %}
        {%- if loop.first and system_message is defined %}
            {{- ' [INST] ' + system_message + '\n\n' + message['content'] + ' [/INST]' }}
        {%- else %}
            {{- ' [INST] ' + message['content'] + ' [/INST]' }}
        {%- endif %}
    {%- elif message['role'] == 'assistant' %}
        {{- ' ' + message['content'] + eos_token}}
    {%- else %}
        {{- raise_exception('Only user and assistant roles are supported, with the exception of an initial optional system message!') }}
    {%- endif %}
{%- endfor %})TPL";

TEST(ChatTemplates, MistralV1) {
    const ChatTemplate t = recognise(kMistralV1, ChatFamily::Mistral);
    EXPECT_EQ(t.mistral, MistralStyle::V1);
    EXPECT_EQ(format(t, kSystemUser), " [INST] You are terse.\n\nWhat is 2+2? [/INST]");
    EXPECT_EQ(format(t, kUserOnly), " [INST] What is 2+2? [/INST]");
    EXPECT_EQ(format(t, kMultiTurn), " [INST] You are terse.\n\nHi [/INST] Hello! </s> [INST] Bye [/INST]");
}

// mistralai/Mistral-7B-Instruct-v0.3 (tool branches shortened)
const std::string kMistralV3 = R"TPL({%- if messages[0]["role"] == "system" %}
    {%- set system_message = messages[0]["content"] %}
    {%- set loop_messages = messages[1:] %}
{%- else %}
    {%- set loop_messages = messages %}
{%- endif %}
{%- if not tools is defined %}
    {%- set tools = none %}
{%- endif %}
{%- set user_messages = loop_messages | selectattr("role", "equalto", "user") | list %}

{{- bos_token }}
{%- for message in loop_messages %}
    {%- if message["role"] == "user" %}
        {%- if tools is not none and (message == user_messages[-1]) %}
            {{- "[AVAILABLE_TOOLS] [" }}
            {{- "[/AVAILABLE_TOOLS]" }}
        {%- endif %}
        {%- if loop.last and system_message is defined %}
            {{- "[INST] " + system_message + "\n\n" + message["content"] + "[/INST]" }}
        {%- else %}
            {{- "[INST] " + message["content"] + "[/INST]" }}
        {%- endif %}
    {%- elif message["role"] == "assistant" %}
        {{- " " + message["content"]|trim + eos_token}}
    {%- endif %}
{%- endfor %})TPL";

TEST(ChatTemplates, MistralV3SystemGoesInTheLastUserTurn) {
    const ChatTemplate t = recognise(kMistralV3, ChatFamily::Mistral);
    EXPECT_EQ(t.mistral, MistralStyle::V3);
    EXPECT_EQ(format(t, kSystemUser), "[INST] You are terse.\n\nWhat is 2+2?[/INST]");
    EXPECT_EQ(format(t, kUserOnly), "[INST] What is 2+2?[/INST]");
    EXPECT_EQ(format(t, kMultiTurn), "[INST] Hi[/INST] Hello!</s>[INST] You are terse.\n\nBye[/INST]");
}

TEST(ChatTemplates, MistralTekken) {
    const std::string jinja =
        R"TPL({{- bos_token }}{%- for message in loop_messages %}{%- if message["role"] == "user" %}{%- if loop.last and system_message is defined %}{{- "[INST]" + system_message + "\n\n" + message["content"] + "[/INST]" }}{%- else %}{{- "[INST]" + message["content"] + "[/INST]" }}{%- endif %}{%- elif message["role"] == "assistant" %}{{- message["content"] + eos_token}}{%- endif %}{%- endfor %})TPL";
    const ChatTemplate t = recognise(jinja, ChatFamily::Mistral);
    EXPECT_EQ(t.mistral, MistralStyle::Tekken);
    EXPECT_EQ(format(t, kSystemUser), "[INST]You are terse.\n\nWhat is 2+2?[/INST]");
    EXPECT_EQ(format(t, kUserOnly), "[INST]What is 2+2?[/INST]");
}

// google/gemma-3 style: the system message is folded into the first user turn.
const std::string kGemma = R"TPL({{ bos_token }}
{%- if messages[0]['role'] == 'system' -%}
    {%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}
    {%- set loop_messages = messages[1:] -%}
{%- else -%}
    {%- set first_user_prefix = "" -%}
    {%- set loop_messages = messages -%}
{%- endif -%}
{%- for message in loop_messages -%}
    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}
        {{ raise_exception("Conversation roles must alternate user/assistant/user/assistant/...") }}
    {%- endif -%}
    {%- set role = "model" if message['role'] == 'assistant' else message['role'] -%}
    {{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else "") }}
    {{ message['content'] | trim }}
    {{ '<end_of_turn>\n' }}
{%- endfor -%}
{%- if add_generation_prompt -%}
    {{'<start_of_turn>model\n'}}
{%- endif -%})TPL";

TEST(ChatTemplates, Gemma) {
    const ChatTemplate t = recognise(kGemma, ChatFamily::Gemma);
    EXPECT_EQ(format(t, kSystemUser),
              "<start_of_turn>user\nYou are terse.\n\nWhat is 2+2?<end_of_turn>\n<start_of_turn>model\n");
    EXPECT_EQ(format(t, kUserOnly), "<start_of_turn>user\nWhat is 2+2?<end_of_turn>\n<start_of_turn>model\n");
    EXPECT_EQ(format(t, kMultiTurn),
              "<start_of_turn>user\nYou are terse.\n\nHi<end_of_turn>\n<start_of_turn>model\nHello!<end_of_turn>\n"
              "<start_of_turn>user\nBye<end_of_turn>\n<start_of_turn>model\n");
}

// microsoft/Phi-3-mini-4k-instruct
const std::string kPhi3 =
    R"TPL({% for message in messages %}{% if message['role'] == 'system' %}{{'<|system|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'user' %}{{'<|user|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'assistant' %}{{'<|assistant|>\n' + message['content'] + '<|end|>\n'}}{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% else %}{{ eos_token }}{% endif %})TPL";

TEST(ChatTemplates, Phi3) {
    const ChatTemplate t = recognise(kPhi3, ChatFamily::Phi3);
    EXPECT_FALSE(t.emits_bos);
    EXPECT_EQ(format(t, kSystemUser), "<|system|>\nYou are terse.<|end|>\n<|user|>\nWhat is 2+2?<|end|>\n<|assistant|>\n");
    EXPECT_EQ(format(t, kUserOnly), "<|user|>\nWhat is 2+2?<|end|>\n<|assistant|>\n");
    ChatFormatContext no_bos = kLlamaTokens;
    no_bos.tokenizer_adds_bos = false; // the template writes no BOS, so none is added
    EXPECT_EQ(format(t, kUserOnly, no_bos), "<|user|>\nWhat is 2+2?<|end|>\n<|assistant|>\n");
}

// The first microsoft/Phi-3-mini-4k-instruct template (as in llama.cpp's ggml-vocab-phi-3.gguf):
// no system role, so a system message is left out.
const std::string kPhi3NoSystem =
    "{{ bos_token }}{% for message in messages %}{% if (message['role'] == 'user') %}{{'<|user|>' + '\n' + "
    "message['content'] + '<|end|>' + '\n' + '<|assistant|>' + '\n'}}{% elif (message['role'] == 'assistant') "
    "%}{{message['content'] + '<|end|>' + '\n'}}{% endif %}{% endfor %}";

TEST(ChatTemplates, Phi3WithoutSystemRole) {
    const ChatTemplate t = recognise(kPhi3NoSystem, ChatFamily::Phi3);
    EXPECT_TRUE(t.drops_system);
    EXPECT_TRUE(t.emits_bos);
    EXPECT_FALSE(recognise(kPhi3, ChatFamily::Phi3).drops_system);
    EXPECT_EQ(format(t, kMultiTurn),
              "<|user|>\nHi<|end|>\n<|assistant|>\nHello! <|end|>\n<|user|>\nBye<|end|>\n<|assistant|>\n");
}

// Qwen/Qwen3 (tool branches shortened; the assistant branch as published).
const std::string kQwen3 = R"TPL({%- if messages[0].role == 'system' %}
    {{- '<|im_start|>system\n' + messages[0].content + '<|im_end|>\n' }}
{%- endif %}
{%- set ns = namespace(multi_step_tool=true, last_query_index=messages|length - 1) %}
{%- for message in messages[::-1] %}
    {%- set index = (messages|length - 1) - loop.index0 %}
    {%- if ns.multi_step_tool and message.role == "user" and not(message.content.startswith('<tool_response>') and message.content.endswith('</tool_response>')) %}
        {%- set ns.multi_step_tool = false %}
        {%- set ns.last_query_index = index %}
    {%- endif %}
{%- endfor %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {%- set content = message.content %}
        {%- set reasoning_content = '' %}
        {%- if '</think>' in message.content %}
            {%- set content = message.content.split('</think>')[-1].lstrip('\n') %}
            {%- set reasoning_content = message.content.split('</think>')[0].rstrip('\n').split('<think>')[-1].lstrip('\n') %}
        {%- endif %}
        {%- if loop.index0 > ns.last_query_index %}
            {%- if loop.last or (not loop.last and reasoning_content) %}
                {{- '<|im_start|>' + message.role + '\n<think>\n' + reasoning_content.strip('\n') + '\n</think>\n\n' + content.lstrip('\n') }}
            {%- else %}
                {{- '<|im_start|>' + message.role + '\n' + content }}
            {%- endif %}
        {%- else %}
            {{- '<|im_start|>' + message.role + '\n' + content }}
        {%- endif %}
        {{- '<|im_end|>\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
    {%- if enable_thinking is defined and enable_thinking is false %}
        {{- '<think>\n\n</think>\n\n' }}
    {%- endif %}
{%- endif %})TPL";

TEST(ChatTemplates, Qwen3ThinkingBlock) {
    const ChatTemplate t = recognise(kQwen3, ChatFamily::ChatML);
    EXPECT_TRUE(t.chatml_thinking);
    EXPECT_EQ(t.default_system, "");
    EXPECT_FALSE(recognise(kChatML, ChatFamily::ChatML).chatml_thinking);
    const std::string multi_turn =
        "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
        "<|im_start|>assistant\nHello! <|im_end|>\n<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n";
    EXPECT_EQ(format(t, kMultiTurn), multi_turn);
    ChatFormatContext no_think = kLlamaTokens;
    no_think.enable_thinking = false;
    EXPECT_EQ(format(t, kMultiTurn, no_think), multi_turn + "<think>\n\n</think>\n\n");
    // enable_thinking means nothing to a template without it.
    EXPECT_EQ(format(recognise(kChatML, ChatFamily::ChatML), kUserOnly, no_think),
              "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n");

    // Earlier answers lose their reasoning: only the text after the last </think>,
    // leading newlines removed.
    EXPECT_EQ(format(t, {{ChatRole::User, "Hi"},
                         {ChatRole::Assistant, "<think>\nGreet back.\n</think>\n\nHello!\n"},
                         {ChatRole::User, "Bye"}}),
              "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!\n<|im_end|>\n"
              "<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n");
    // After the last real query (later user turns are tool results) the reasoning stays.
    EXPECT_EQ(format(t, {{ChatRole::User, "Add 40 and 2"},
                         {ChatRole::Assistant, "<think>\n\nUse the tool.\n\n</think>\n\nCalling it."},
                         {ChatRole::User, "<tool_response>\n42\n</tool_response>"}}),
              "<|im_start|>user\nAdd 40 and 2<|im_end|>\n"
              "<|im_start|>assistant\n<think>\nUse the tool.\n</think>\n\nCalling it.<|im_end|>\n"
              "<|im_start|>user\n<tool_response>\n42\n</tool_response><|im_end|>\n<|im_start|>assistant\n");
}

// deepseek-ai/DeepSeek-V3 (tool branches shortened).
const std::string kDeepSeek3 =
    "{% if not add_generation_prompt is defined %}{% set add_generation_prompt = false %}{% endif %}{% set ns = "
    "namespace(is_first=false, is_tool=false, is_output_first=true, system_prompt='', is_first_sp=true) %}{%- for "
    "message in messages %}{%- if message['role'] == 'system' %}{%- if ns.is_first_sp %}{% set ns.system_prompt = "
    "ns.system_prompt + message['content'] %}{% set ns.is_first_sp = false %}{%- else %}{% set ns.system_prompt = "
    "ns.system_prompt + '\n\n' + message['content'] %}{%- endif %}{%- endif %}{%- endfor %}{{bos_token}}{{ns."
    "system_prompt}}{%- for message in messages %}{%- if message['role'] == 'user' %}{%- set ns.is_tool = false "
    "-%}{{'<\xEF\xBD\x9CUser\xEF\xBD\x9C>' + message['content']}}{%- endif %}{%- if message['role'] == 'assistant' "
    "and message['content'] is not none %}{{'<\xEF\xBD\x9C" "Assistant\xEF\xBD\x9C>' + message['content'] + "
    "'<\xEF\xBD\x9C" "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>'}}{%- endif %}{%- endfor -%}{% if "
    "add_generation_prompt and not ns.is_tool %}{{'<\xEF\xBD\x9C" "Assistant\xEF\xBD\x9C>'}}{% endif %}";

const std::string kDsUser = "<\xEF\xBD\x9CUser\xEF\xBD\x9C>";
const std::string kDsAssistant = "<\xEF\xBD\x9C" "Assistant\xEF\xBD\x9C>";
const std::string kDsEnd = "<\xEF\xBD\x9C" "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>";

TEST(ChatTemplates, DeepSeek3) {
    const ChatTemplate t = recognise(kDeepSeek3, ChatFamily::DeepSeek3);
    EXPECT_TRUE(t.emits_bos);
    EXPECT_EQ(format(t, kSystemUser), "You are terse." + kDsUser + "What is 2+2?" + kDsAssistant);
    EXPECT_EQ(format(t, kMultiTurn),
              "You are terse." + kDsUser + "Hi" + kDsAssistant + "Hello! " + kDsEnd + kDsUser + "Bye" + kDsAssistant);
    ChatFormatContext no_bos = kLlamaTokens;
    no_bos.bos_text = "<\xEF\xBD\x9C" "begin\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>";
    no_bos.tokenizer_adds_bos = false;
    EXPECT_EQ(format(t, kUserOnly, no_bos), no_bos.bos_text + kDsUser + "What is 2+2?" + kDsAssistant);
    // DeepSeek R1's template (a <think> block in the generation prompt) is not this layout.
    const Result<ChatTemplate> r1 = recognise_chat_template(kDeepSeek3 + "{{'<think>\\n'}}");
    ASSERT_FALSE(r1.ok());
    EXPECT_NE(r1.error().message.find("DeepSeek R1"), std::string::npos) << r1.error().message;
}

// The harmony layout of gpt-oss's template (its markers and the plain-chat branches; the
// tool branches are not written here). Expected text by hand from that template: the system
// block with the identity, knowledge cutoff, the date (strftime_now("%Y-%m-%d")), "Reasoning:
// medium" and the channel rule; a system message becomes the developer block "# Instructions";
// earlier answers go back on the final channel; the prompt ends "<|start|>assistant".
const std::string kHarmony =
    R"TPL({{- "<|start|>system<|message|>" }}{{- build_system_message() }}{{- "<|end|>" }}{%- if developer_message %}{{- "<|start|>developer<|message|>" }}{{- "# Instructions\n\n" }}{{- developer_message }}{{- "\n\n" }}{{- "<|end|>" }}{%- endif %}{%- for message in loop_messages -%}{%- if message.role == 'assistant' -%}{{- "<|start|>assistant<|channel|>final<|message|>" + message.content + "<|end|>" }}{%- elif message.role == 'user' -%}{{- "<|start|>user<|message|>" + message.content + "<|end|>" }}{%- endif -%}{%- endfor -%}{%- if add_generation_prompt -%}<|start|>assistant{%- endif -%})TPL";

TEST(ChatTemplates, Harmony) {
    const ChatTemplate t = recognise(kHarmony, ChatFamily::Harmony);
    EXPECT_FALSE(t.emits_bos);
    ChatFormatContext dated = kLlamaTokens;
    dated.today = std::chrono::year_month_day{std::chrono::year{2025}, std::chrono::August, std::chrono::day{7}};
    const std::string system =
        "<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n"
        "Knowledge cutoff: 2024-06\nCurrent date: 2025-08-07\n\nReasoning: medium\n\n"
        "# Valid channels: analysis, commentary, final. Channel must be included for every message.<|end|>";
    EXPECT_EQ(format(t, kUserOnly, dated), system + "<|start|>user<|message|>What is 2+2?<|end|><|start|>assistant");
    EXPECT_EQ(format(t, kMultiTurn, dated),
              system + "<|start|>developer<|message|># Instructions\n\nYou are terse.\n\n<|end|>"
                       "<|start|>user<|message|>Hi<|end|>"
                       "<|start|>assistant<|channel|>final<|message|>Hello! <|end|>"
                       "<|start|>user<|message|>Bye<|end|><|start|>assistant");
    // an empty system message writes no developer block, as the template's `if developer_message`
    const std::vector<ChatMessage> empty_system = {{ChatRole::System, ""}, {ChatRole::User, "Hi"}};
    EXPECT_EQ(format(t, empty_system, dated), system + "<|start|>user<|message|>Hi<|end|><|start|>assistant");
    // without a date from the caller: the clock's, in the same form
    const std::string undated = format(t, kUserOnly);
    const size_t at = undated.find("Current date: ");
    ASSERT_NE(at, std::string::npos);
    const std::string date = undated.substr(at + 14, 10);
    EXPECT_TRUE(date.size() == 10 && date[4] == '-' && date[7] == '-' && date.substr(0, 2) == "20") << date;
    // the reasoning level, as the template's reasoning_effort writes it
    for (ReasoningEffort level : {ReasoningEffort::Low, ReasoningEffort::High}) {
        ChatFormatContext asked = dated;
        asked.reasoning = level;
        std::string want = system;
        want.replace(want.find("Reasoning: medium"), 17, "Reasoning: " + std::string(reasoning_effort_name(level)));
        EXPECT_EQ(format(t, kUserOnly, asked), want + "<|start|>user<|message|>What is 2+2?<|end|><|start|>assistant");
    }
    EXPECT_EQ(parse_reasoning_effort("high"), ReasoningEffort::High);
    EXPECT_FALSE(parse_reasoning_effort("maximal"));
}

// The templates stored in the real vocabularies of ../shared/refdata/vocab, with the BOS
// text and BOS rule of each vocabulary.
struct RealTemplate {
    std::string jinja;
    ChatFormatContext context;
};

std::optional<RealTemplate> real_template(const std::string& file) {
    const auto ref = test::refdata_dir();
    if (!ref) return std::nullopt;
    const std::string path = (*ref / "vocab" / file).string();
    auto gguf = GgufFile::open(path);
    EXPECT_TRUE(gguf.ok()) << path << ": " << (gguf.ok() ? "" : gguf.error().message);
    if (!gguf.ok()) return RealTemplate{};
    auto jinja = gguf->get_string("tokenizer.chat_template");
    EXPECT_TRUE(jinja.ok()) << path << " has no tokenizer.chat_template";
    auto vocab = vocab_from_gguf(*gguf);
    EXPECT_TRUE(vocab.ok()) << path << ": " << (vocab.ok() ? "" : vocab.error().message);
    if (!jinja.ok() || !vocab.ok()) return RealTemplate{};
    RealTemplate out;
    out.jinja = jinja.value();
    out.context.bos_text = vocab->bos_id >= 0 ? vocab->tokens[vocab->bos_id] : "";
    out.context.eos_text = vocab->eos_id >= 0 ? vocab->tokens[vocab->eos_id] : "";
    out.context.tokenizer_adds_bos = vocab->add_bos;
    return out;
}

// The prompt when the tokenizer adds no BOS (the template's bos_token is then written).
std::string format_without_tokenizer_bos(const ChatTemplate& t, const std::vector<ChatMessage>& messages,
                                         ChatFormatContext context) {
    context.tokenizer_adds_bos = false;
    return format(t, messages, context);
}

#define REAL_TEMPLATE_OR_SKIP(var, file)                                               \
    const std::optional<RealTemplate> var = real_template(file);                     \
    if (!var) GTEST_SKIP() << "../shared/refdata is absent";                          \
    ASSERT_FALSE(var->jinja.empty())

TEST(RealTemplates, Llama3) {
    REAL_TEMPLATE_OR_SKIP(real, "ggml-vocab-llama3.gguf");
    const ChatTemplate t = recognise(real->jinja, ChatFamily::Llama3);
    EXPECT_TRUE(t.emits_bos);
    EXPECT_FALSE(t.llama3_dated_system); // this file's template is Llama 3.0's
    EXPECT_TRUE(real->context.tokenizer_adds_bos);
    EXPECT_EQ(format(t, kMultiTurn, real->context),
              "<|start_header_id|>system<|end_header_id|>\n\nYou are terse.<|eot_id|>"
              "<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>"
              "<|start_header_id|>assistant<|end_header_id|>\n\nHello!<|eot_id|>"
              "<|start_header_id|>user<|end_header_id|>\n\nBye<|eot_id|>"
              "<|start_header_id|>assistant<|end_header_id|>\n\n");
    EXPECT_EQ(format_without_tokenizer_bos(t, kUserOnly, real->context),
              "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nWhat is 2+2?<|eot_id|>"
              "<|start_header_id|>assistant<|end_header_id|>\n\n");
}

TEST(RealTemplates, Qwen3) {
    REAL_TEMPLATE_OR_SKIP(real, "ggml-vocab-qwen3.gguf");
    const ChatTemplate t = recognise(real->jinja, ChatFamily::ChatML);
    EXPECT_TRUE(t.chatml_thinking);
    EXPECT_EQ(t.default_system, "");
    EXPECT_FALSE(t.emits_bos);
    EXPECT_FALSE(real->context.tokenizer_adds_bos);
    const std::string multi_turn =
        "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
        "<|im_start|>assistant\nHello! <|im_end|>\n<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n";
    EXPECT_EQ(format(t, kMultiTurn, real->context), multi_turn);
    ChatFormatContext no_think = real->context;
    no_think.enable_thinking = false;
    EXPECT_EQ(format(t, kMultiTurn, no_think), multi_turn + "<think>\n\n</think>\n\n");
    EXPECT_EQ(format(t, {{ChatRole::User, "Hi"},
                         {ChatRole::Assistant, "<think>\nGreet back.\n</think>\n\nHello!"},
                         {ChatRole::User, "Bye"}},
                     no_think),
              "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello!<|im_end|>\n"
              "<|im_start|>user\nBye<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n");
}

TEST(RealTemplates, Gemma3) {
    REAL_TEMPLATE_OR_SKIP(real, "ggml-vocab-gemma3.gguf");
    const ChatTemplate t = recognise(real->jinja, ChatFamily::Gemma);
    EXPECT_TRUE(t.emits_bos);
    EXPECT_TRUE(real->context.tokenizer_adds_bos);
    // No system role: the system text and "\n\n" open the first user turn; turns are trimmed.
    EXPECT_EQ(format(t, kMultiTurn, real->context),
              "<start_of_turn>user\nYou are terse.\n\nHi<end_of_turn>\n"
              "<start_of_turn>model\nHello!<end_of_turn>\n"
              "<start_of_turn>user\nBye<end_of_turn>\n<start_of_turn>model\n");
    EXPECT_EQ(format_without_tokenizer_bos(t, {{ChatRole::User, "  Hi\n"}}, real->context),
              "<bos><start_of_turn>user\nHi<end_of_turn>\n<start_of_turn>model\n");
}

TEST(RealTemplates, DeepSeekV3) {
    REAL_TEMPLATE_OR_SKIP(real, "ggml-vocab-deepseek-v3.gguf");
    const ChatTemplate t = recognise(real->jinja, ChatFamily::DeepSeek3);
    EXPECT_TRUE(t.emits_bos);
    EXPECT_TRUE(real->context.tokenizer_adds_bos);
    EXPECT_EQ(format(t, kMultiTurn, real->context),
              "You are terse." + kDsUser + "Hi" + kDsAssistant + "Hello! " + kDsEnd + kDsUser + "Bye" + kDsAssistant);
    EXPECT_EQ(format_without_tokenizer_bos(t, kUserOnly, real->context),
              "<\xEF\xBD\x9C" "begin\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>" + kDsUser + "What is 2+2?" +
                  kDsAssistant);
}

TEST(RealTemplates, Phi3) {
    REAL_TEMPLATE_OR_SKIP(real, "ggml-vocab-phi-3.gguf");
    const ChatTemplate t = recognise(real->jinja, ChatFamily::Phi3);
    EXPECT_TRUE(t.drops_system); // llama.cpp's Phi-3 file holds the first template, without a system role
    EXPECT_TRUE(real->context.tokenizer_adds_bos);
    EXPECT_EQ(format(t, kMultiTurn, real->context),
              "<|user|>\nHi<|end|>\n<|assistant|>\nHello! <|end|>\n<|user|>\nBye<|end|>\n<|assistant|>\n");
}

// The whole path a chat prompt takes (build_prompt: template from the file, BOS rule,
// special tokens parsed) for system "You are terse." + user "Hi" on a real vocabulary;
// nullopt when ../shared is absent, no tokenizer when loading failed.
struct RealChatPrompt {
    std::optional<Tokenizer> tokenizer;
    BuiltPrompt prompt;
};

std::optional<RealChatPrompt> real_chat_prompt(const std::string& file, bool enable_thinking) {
    const auto ref = test::refdata_dir();
    if (!ref) return std::nullopt;
    RealChatPrompt out;
    auto gguf = GgufFile::open((*ref / "vocab" / file).string());
    EXPECT_TRUE(gguf.ok()) << file << ": " << (gguf.ok() ? "" : gguf.error().message);
    if (!gguf.ok()) return out;
    auto vocab = vocab_from_gguf(*gguf);
    EXPECT_TRUE(vocab.ok()) << file << ": " << (vocab.ok() ? "" : vocab.error().message);
    if (!vocab.ok()) return out;
    auto tokenizer = Tokenizer::create(std::move(vocab.value()));
    EXPECT_TRUE(tokenizer.ok()) << file << ": " << (tokenizer.ok() ? "" : tokenizer.error().message);
    if (!tokenizer.ok()) return out;
    PromptSpec spec;
    spec.chat = true;
    spec.system = "You are terse.";
    spec.prompt = "Hi";
    spec.enable_thinking = enable_thinking;
    auto prompt = build_prompt(*gguf, *tokenizer, spec);
    EXPECT_TRUE(prompt.ok()) << file << ": " << (prompt.ok() ? "" : prompt.error().message);
    if (!prompt.ok()) return out;
    out.prompt = std::move(prompt.value());
    out.tokenizer = std::move(tokenizer.value());
    return out;
}

TEST(RealTemplates, PromptBuilderQwen3WithoutThinking) {
    const std::optional<RealChatPrompt> chat = real_chat_prompt("ggml-vocab-qwen3.gguf", /*enable_thinking=*/false);
    if (!chat) GTEST_SKIP() << "../shared/refdata is absent";
    ASSERT_TRUE(chat->tokenizer);
    const Tokenizer& tokenizer = *chat->tokenizer;
    EXPECT_EQ(chat->prompt.text,
              "<|im_start|>system\nYou are terse.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n"
              "<|im_start|>assistant\n<think>\n\n</think>\n\n");
    const std::vector<int32_t>& ids = chat->prompt.ids;
    ASSERT_GE(ids.size(), 5u);
    EXPECT_EQ(ids.front(), tokenizer.find_token("<|im_start|>")); // no BOS: add_bos is false
    const int32_t blank = tokenizer.find_token("\xC4\x8A\xC4\x8A"); // "\n\n" in byte symbols
    EXPECT_EQ(std::vector<int32_t>(ids.end() - 4, ids.end()),
              (std::vector<int32_t>{tokenizer.find_token("<think>"), blank, tokenizer.find_token("</think>"), blank}));
    EXPECT_EQ(tokenizer.decode(ids, /*render_special=*/true), chat->prompt.text);
}

TEST(RealTemplates, PromptBuilderPhi3LeavesTheSystemOutWithAWarning) {
    test::CapturedLog log;
    const std::optional<RealChatPrompt> chat = real_chat_prompt("ggml-vocab-phi-3.gguf", /*enable_thinking=*/true);
    if (!chat) GTEST_SKIP() << "../shared/refdata is absent";
    ASSERT_TRUE(chat->tokenizer);
    EXPECT_EQ(chat->prompt.text, "<|user|>\nHi<|end|>\n<|assistant|>\n");
    EXPECT_EQ(chat->prompt.ids.front(), chat->tokenizer->vocab().bos_id);
    const std::vector<std::string> lines = log.lines();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0], "warning the model's chat template (phi3) has no system role: the system message is left "
                        "out, as the template does");
}

TEST(ChatTemplates, UnrecognisedTemplatesGiveAClearError) {
    const std::string vicuna =
        R"TPL({% for message in messages %}{% if message['role'] == 'user' %}{{ 'USER: ' + message['content'] + '\n' }}{% else %}{{ 'ASSISTANT: ' + message['content'] + '</s>\n' }}{% endif %}{% endfor %}{{ 'ASSISTANT:' }})TPL";
    for (const std::string& jinja :
         {vicuna, std::string("{{'<|im_start|>' + message['role'] + '<|im_sep|>' + message['content'] + '<|im_end|>'}}"),
          std::string("{{ '[SYSTEM_PROMPT]' + system_message + '[/SYSTEM_PROMPT]' }}{{ '[INST]' + m + '[/INST]' }}")}) {
        const Result<ChatTemplate> t = recognise_chat_template(jinja);
        ASSERT_FALSE(t.ok());
        EXPECT_EQ(t.error().code, ErrorCode::Unsupported);
        EXPECT_EQ(t.error().message.rfind("chat template not recognised (", 0), 0u) << t.error().message;
        EXPECT_NE(t.error().message.find("supported: llama2, llama3, chatml, mistral, gemma, phi3, deepseek3, harmony)"),
                  std::string::npos);
    }
    EXPECT_FALSE(recognise_chat_template("").ok());
}

TEST(ChatTemplates, RejectsMalformedConversations) {
    const ChatTemplate t = recognise(kChatML, ChatFamily::ChatML);
    auto rejected = [&](const ChatTemplate& tmpl, std::vector<ChatMessage> messages) {
        const Result<std::string> text = format_chat(tmpl, messages, kLlamaTokens);
        return !text.ok() && text.error().code == ErrorCode::InvalidArgument;
    };
    EXPECT_TRUE(rejected(t, {}));
    EXPECT_TRUE(rejected(t, {{ChatRole::System, "s"}}));
    EXPECT_TRUE(rejected(t, {{ChatRole::System, "s"}, {ChatRole::System, "t"}})) << "no user or assistant message";
    const ChatTemplate llama2 = recognise(kLlama2, ChatFamily::Llama2);
    EXPECT_TRUE(rejected(llama2, {{ChatRole::System, "s"}, {ChatRole::Assistant, "a"}}))
        << "Llama 2 writes the system text into a user turn, and there is none";
}

// Any order of roles OpenAI's API accepts is rendered: consecutive user turns, an assistant turn
// first, an assistant turn last. Templates that loop over messages write each as it comes; those
// whose Jinja insists on alternation get consecutive same-role turns joined by a blank line.
TEST(ChatTemplates, AnyOrderOfRolesOpenAIAccepts) {
    const std::vector<ChatMessage> two_users = {{ChatRole::User, "u"}, {ChatRole::User, "v"}};
    const std::vector<ChatMessage> assistant_first = {{ChatRole::Assistant, "a"}, {ChatRole::User, "u"}};
    const std::vector<ChatMessage> assistant_last = {{ChatRole::User, "u"}, {ChatRole::Assistant, "a"}};
    const ChatTemplate chatml = recognise(kChatML, ChatFamily::ChatML);
    EXPECT_EQ(format(chatml, two_users), "<|im_start|>user\nu<|im_end|>\n<|im_start|>user\nv<|im_end|>\n<|im_start|>assistant\n");
    EXPECT_EQ(format(chatml, assistant_first),
              "<|im_start|>assistant\na<|im_end|>\n<|im_start|>user\nu<|im_end|>\n<|im_start|>assistant\n");
    EXPECT_EQ(format(chatml, assistant_last),
              "<|im_start|>user\nu<|im_end|>\n<|im_start|>assistant\na<|im_end|>\n<|im_start|>assistant\n");
    const ChatTemplate gemma = recognise(kGemma, ChatFamily::Gemma);
    EXPECT_EQ(format(gemma, two_users), "<start_of_turn>user\nu\n\nv<end_of_turn>\n<start_of_turn>model\n");
    const ChatTemplate llama2 = recognise(kLlama2, ChatFamily::Llama2);
    EXPECT_EQ(format(llama2, {{ChatRole::System, "s"}, {ChatRole::Assistant, "a"}, {ChatRole::User, "u"}, {ChatRole::User, "v"}}),
              " a </s><s>[INST] <<SYS>>\ns\n<</SYS>>\n\nu\n\nv [/INST]")
        << "the system text goes with the first user turn, wherever it is";
}

// A system message after the first (OpenAI and llama.cpp accept one anywhere; it was refused):
// the templates that write each message under its role write it where it stands; those with one
// system slot put it in front of the next user message, or make it a user message at the end.
TEST(ChatTemplates, ASystemMessageAfterTheFirstIsKept) {
    const std::vector<ChatMessage> middle = {{ChatRole::User, "u"}, {ChatRole::Assistant, "a"}, {ChatRole::System, "s"}, {ChatRole::User, "v"}};
    const ChatTemplate chatml = recognise(kChatML, ChatFamily::ChatML);
    EXPECT_EQ(format(chatml, middle), "<|im_start|>user\nu<|im_end|>\n<|im_start|>assistant\na<|im_end|>\n"
                                      "<|im_start|>system\ns<|im_end|>\n<|im_start|>user\nv<|im_end|>\n<|im_start|>assistant\n");
    const ChatTemplate llama3 = recognise(kLlama3, ChatFamily::Llama3);
    EXPECT_NE(format(llama3, middle, kLlamaTokens).find("<|eot_id|><|start_header_id|>system<|end_header_id|>\n\ns<|eot_id|>"
                                                        "<|start_header_id|>user<|end_header_id|>\n\nv<|eot_id|>"),
              std::string::npos);
    const ChatTemplate gemma = recognise(kGemma, ChatFamily::Gemma);
    EXPECT_EQ(format(gemma, middle), "<start_of_turn>user\nu<end_of_turn>\n<start_of_turn>model\na<end_of_turn>\n"
                                     "<start_of_turn>user\ns\n\nv<end_of_turn>\n<start_of_turn>model\n");
    EXPECT_EQ(format(gemma, {{ChatRole::User, "u"}, {ChatRole::Assistant, "a"}, {ChatRole::System, "s"}}),
              "<start_of_turn>user\nu<end_of_turn>\n<start_of_turn>model\na<end_of_turn>\n"
              "<start_of_turn>user\ns<end_of_turn>\n<start_of_turn>model\n")
        << "last: a user message";
    const ChatTemplate llama2 = recognise(kLlama2, ChatFamily::Llama2);
    EXPECT_EQ(format(llama2, {{ChatRole::System, "first"}, {ChatRole::User, "u"}, {ChatRole::System, "s"}, {ChatRole::User, "v"}}),
              "[INST] <<SYS>>\nfirst\n<</SYS>>\n\nu\n\ns\n\nv [/INST]")
        << "joined with the user turn it precedes, then the two user turns joined";
}


// ---- Tools: what each family's template writes for tools, a call and its result. ----

const std::string kWeatherTool =
    R"({"type": "function", "function": {"name": "get_weather", "description": "Current weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}})";

std::vector<ChatTool> weather_tools() {
    ChatTool t;
    t.name = "get_weather";
    t.description = "Current weather";
    t.parameters = R"({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]})";
    t.declaration = kWeatherTool;
    return {t};
}

// system, user, the assistant's call (id `id`), the tool's result.
std::vector<ChatMessage> weather_call(const std::string& id) {
    ChatMessage call(ChatRole::Assistant, "");
    call.tool_calls.push_back({id, "get_weather", R"({"city": "Paris"})"});
    ChatMessage result(ChatRole::Tool, R"({"temp": 21})");
    result.tool_call_id = id;
    return {{ChatRole::System, "You are terse."}, {ChatRole::User, "Weather in Paris?"}, call, result};
}

ChatFormatContext with_tools(ChatFormatContext context, const std::vector<ChatTool>& tools) {
    context.tools = tools;
    return context;
}

constexpr std::string_view kQwenToolsPreamble =
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n";
constexpr std::string_view kQwenToolsClose =
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>";

TEST(RealTemplates, Qwen3Tools) {
    REAL_TEMPLATE_OR_SKIP(real, "ggml-vocab-qwen3.gguf");
    const ChatTemplate t = recognise(real->jinja, ChatFamily::ChatML);
    EXPECT_TRUE(t.tools);
    const std::vector<ChatTool> tools = weather_tools();
    // Written out from the template stored in the file (its "if tools" branch, the tool_calls loop
    // and the grouped tool responses).
    EXPECT_EQ(format(t, weather_call("call_1"), with_tools(real->context, tools)),
              "<|im_start|>system\nYou are terse.\n\n" + std::string(kQwenToolsPreamble) + kWeatherTool + std::string(kQwenToolsClose) +
                  "<|im_end|>\n"
                  "<|im_start|>user\nWeather in Paris?<|im_end|>\n"
                  "<|im_start|>assistant\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call><|im_end|>\n"
                  "<|im_start|>user\n<tool_response>\n{\"temp\": 21}\n</tool_response><|im_end|>\n"
                  "<|im_start|>assistant\n");
    // No system message: the tools block alone; two results in one user turn; text before two calls.
    ChatMessage calls(ChatRole::Assistant, "Checking.");
    calls.tool_calls = {{"a", "get_weather", R"({"city":"Paris"})"}, {"b", "get_weather", R"({"city": "Rome"})"}};
    ChatMessage first(ChatRole::Tool, "21");
    ChatMessage second(ChatRole::Tool, "25");
    EXPECT_EQ(format(t, {{ChatRole::User, "Paris and Rome?"}, calls, first, second}, with_tools(real->context, tools)),
              "<|im_start|>system\n" + std::string(kQwenToolsPreamble) + kWeatherTool + std::string(kQwenToolsClose) +
                  "<|im_end|>\n"
                  "<|im_start|>user\nParis and Rome?<|im_end|>\n"
                  "<|im_start|>assistant\nChecking.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n"
                  "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}\n</tool_call><|im_end|>\n"
                  "<|im_start|>user\n<tool_response>\n21\n</tool_response>\n<tool_response>\n25\n</tool_response><|im_end|>\n"
                  "<|im_start|>assistant\n")
        << "arguments are written in tojson's form (llama.cpp hands the template objects)";
}

TEST(ChatTemplates, Qwen25ToolsUseTheDefaultSystemPrompt) {
    const std::string jinja = kQwen25 + "{{- '<tool_call>' }}";
    const ChatTemplate t = recognise(jinja, ChatFamily::ChatML);
    ASSERT_TRUE(t.tools);
    EXPECT_EQ(format(t, {{ChatRole::User, "hi"}}, with_tools(kLlamaTokens, weather_tools())),
              "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.\n\n" + std::string(kQwenToolsPreamble) +
                  kWeatherTool + std::string(kQwenToolsClose) + "<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n");
}

// meta-llama/Llama-3.1-8B-Instruct's tool branches (custom tools, tools_in_user_message).
const std::string kLlama31Tools = kLlama31 + R"TPL(
{%- if not tools_in_user_message is defined %}{%- set tools_in_user_message = true %}{%- endif %}
{%- if builtin_tools is defined or tools is not none %}{{- "Environment: ipython\n" }}{%- endif %}
{%- elif message.role == "tool" or message.role == "ipython" %}{{- "<|start_header_id|>ipython<|end_header_id|>\n\n" }})TPL";

TEST(ChatTemplates, Llama31Tools) {
    const ChatTemplate t = recognise(kLlama31Tools, ChatFamily::Llama3);
    ASSERT_TRUE(t.tools);
    EXPECT_FALSE(recognise(kLlama31, ChatFamily::Llama3).tools);
    const std::string indented =
        "{\n    \"type\": \"function\",\n    \"function\": {\n        \"name\": \"get_weather\",\n        \"description\": \"Current weather\",\n"
        "        \"parameters\": {\n            \"type\": \"object\",\n            \"properties\": {\n                \"city\": {\n"
        "                    \"type\": \"string\"\n                }\n            },\n            \"required\": [\n                \"city\"\n"
        "            ]\n        }\n    }\n}"; // Python's json.dumps(tool, indent=4)
    EXPECT_EQ(format(t, weather_call("call_1"), with_tools(kLlamaTokens, weather_tools())),
              "<|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython\n"
              "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\nYou are terse.<|eot_id|>"
              "<|start_header_id|>user<|end_header_id|>\n\nGiven the following functions, please respond with a JSON for a function "
              "call with its proper arguments that best answers the given prompt.\n\nRespond in the format {\"name\": function name, "
              "\"parameters\": dictionary of argument name and its value}.Do not use variables.\n\n" +
                  indented +
                  "\n\nWeather in Paris?<|eot_id|>"
                  "<|start_header_id|>assistant<|end_header_id|>\n\n{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}<|eot_id|>"
                  "<|start_header_id|>ipython<|end_header_id|>\n\n\"{\\\"temp\\\": 21}\"<|eot_id|>"
                  "<|start_header_id|>assistant<|end_header_id|>\n\n");
    std::vector<ChatMessage> two = weather_call("call_1");
    two[2].tool_calls.push_back({"call_2", "get_weather", "{}"});
    const Result<std::string> refused = format_chat(t, two, with_tools(kLlamaTokens, weather_tools()));
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(refused.error().message.find("one tool call"), std::string::npos) << refused.error().message;
}

TEST(ChatTemplates, MistralTools) {
    const std::string v3 = kMistralV3 + "[TOOL_CALLS] [TOOL_RESULTS]";
    const ChatTemplate t = recognise(v3, ChatFamily::Mistral);
    ASSERT_TRUE(t.tools);
    const std::string tool_list =
        "[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"description\": \"Current weather\", \"parameters\": "
        "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}}}]";
    // The system message is not written: the last user turn is not the last message (`loop.last`).
    EXPECT_EQ(format(t, weather_call("abc123def"), with_tools(kLlamaTokens, weather_tools())),
              "[AVAILABLE_TOOLS] " + tool_list + "[/AVAILABLE_TOOLS][INST] Weather in Paris?[/INST]"
              "[TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}, \"id\": \"abc123def\"}]</s>"
              "[TOOL_RESULTS] {\"content\": {\"temp\": 21}, \"call_id\": \"abc123def\"}[/TOOL_RESULTS]");
    const std::vector<ChatTool> tools = weather_tools(); // the context's span looks at them
    ChatFormatContext opened = with_tools(kLlamaTokens, tools);
    opened.tool_call_opening = "[TOOL_CALLS]";
    EXPECT_EQ(format(t, kSystemUser, opened),
              "[AVAILABLE_TOOLS] " + tool_list + "[/AVAILABLE_TOOLS][INST] You are terse.\n\nWhat is 2+2?[/INST][TOOL_CALLS]");
    const Result<std::string> bad_id = format_chat(t, weather_call("call_1"), with_tools(kLlamaTokens, weather_tools()));
    ASSERT_FALSE(bad_id.ok());
    EXPECT_NE(bad_id.error().message.find("9 letters and digits"), std::string::npos) << bad_id.error().message;

    const std::string tekken_jinja =
        R"TPL({%- for message in loop_messages %}{{- "[AVAILABLE_TOOLS][" }}{{- "[INST]" + message["content"] + "[/INST]" }}{%- endfor %})TPL";
    const ChatTemplate tekken = recognise(tekken_jinja, ChatFamily::Mistral);
    ASSERT_EQ(tekken.mistral, MistralStyle::Tekken);
    EXPECT_EQ(format(tekken, weather_call("abc123def"), with_tools(kLlamaTokens, weather_tools())),
              "[AVAILABLE_TOOLS]" + tool_list + "[/AVAILABLE_TOOLS][INST]Weather in Paris?[/INST]"
              "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}, \"id\": \"abc123def\"}]</s>"
              "[TOOL_RESULTS]{\"content\": {\"temp\": 21}, \"call_id\": \"abc123def\"}[/TOOL_RESULTS]");
}

TEST(ChatTemplates, FamiliesWithoutAToolFormatRefuseTools) {
    for (const std::string* jinja : {&kLlama2, &kLlama3, &kLlama31, &kGemma, &kPhi3, &kChatML, &kMistralV1}) {
        const Result<ChatTemplate> t = recognise_chat_template(*jinja);
        ASSERT_TRUE(t.ok());
        EXPECT_FALSE(t->tools) << chat_family_name(t->family);
        const Result<std::string> with = format_chat(*t, kSystemUser, with_tools(kLlamaTokens, weather_tools()));
        ASSERT_FALSE(with.ok()) << chat_family_name(t->family);
        EXPECT_EQ(with.error().code, ErrorCode::Unsupported);
        EXPECT_NE(with.error().message.find("no tool format"), std::string::npos) << with.error().message;
        // A conversation that holds a tool result is refused the same way, tools offered or not.
        const Result<std::string> result = format_chat(*t, weather_call("abc123def"), kLlamaTokens);
        EXPECT_FALSE(result.ok()) << chat_family_name(t->family);
    }
}


// openai/gpt-oss's template: render_tool_namespace / render_typescript_type and the call and
// result messages (the tool branches of the template, written out by hand).
TEST(ChatTemplates, HarmonyTools) {
    const ChatTemplate t = recognise(kHarmony + "{{- render_tool_namespace(\"functions\", tools) }}", ChatFamily::Harmony);
    ASSERT_TRUE(t.tools);
    EXPECT_FALSE(recognise(kHarmony, ChatFamily::Harmony).tools);
    ChatTool weather = weather_tools().front();
    weather.parameters =
        R"({"type": "object", "properties": {"location": {"type": "string", "description": "City"}, "unit": {"type": "string", "enum": ["c", "f"], "default": "c"},
            "days": {"type": "integer", "default": 3}, "tags": {"type": "array", "items": {"type": "string"}}, "either": {"type": ["string", "number"]},
            "opts": {"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a"]}}, "required": ["location"]})";
    ChatTool now;
    now.name = "now";
    now.description = "Clock";
    now.declaration = R"({"type": "function", "function": {"name": "now", "description": "Clock"}})";
    const std::vector<ChatTool> tools = {weather, now};
    ChatFormatContext context = with_tools(kLlamaTokens, tools);
    context.today = std::chrono::year_month_day{std::chrono::year{2025}, std::chrono::August, std::chrono::day{7}};
    const std::string functions =
        "## functions\n\nnamespace functions {\n\n"
        "// Current weather\ntype get_weather = (_: {\n"
        "// City\nlocation: string,\n"
        "unit?: \"c\" | \"f\", // default: c,\n"
        "days?: number, // default: 3,\n"
        "tags?: string[],\n"
        "either?: string | number,\n"
        "opts?: {\na: \n                boolean},\n"
        "}) => any;\n\n"
        "// Clock\ntype now = () => any;\n\n"
        "} // namespace functions";
    EXPECT_EQ(format(t, weather_call("call_1"), context),
              "<|start|>system<|message|>You are ChatGPT, a large language model trained by OpenAI.\n"
              "Knowledge cutoff: 2024-06\nCurrent date: 2025-08-07\n\nReasoning: medium\n\n"
              "# Valid channels: analysis, commentary, final. Channel must be included for every message.\n"
              "Calls to these tools must go to the commentary channel: 'functions'.<|end|>"
              "<|start|>developer<|message|># Instructions\n\nYou are terse.\n\n# Tools\n\n" +
                  functions +
                  "<|end|>"
                  "<|start|>user<|message|>Weather in Paris?<|end|>"
                  "<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{\"city\": \"Paris\"}<|call|>"
                  "<|start|>functions.get_weather to=assistant<|channel|>commentary<|message|>\"{\\\"temp\\\": 21}\"<|end|>"
                  "<|start|>assistant");
    // The call's text is its analysis message until a later answer; without a system message the
    // developer block holds the tools alone.
    std::vector<ChatMessage> thinking = weather_call("call_1");
    thinking.erase(thinking.begin());
    thinking[1].content = "Need the weather.";
    const std::string text = format(t, thinking, context);
    EXPECT_NE(text.find("<|start|>developer<|message|># Tools\n\n## functions"), std::string::npos) << text;
    EXPECT_NE(text.find("<|start|>assistant<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant to=functions.get_weather"),
              std::string::npos) << text;
    thinking.push_back({ChatRole::Assistant, "21 degrees."});
    thinking.push_back({ChatRole::User, "Thanks"});
    EXPECT_EQ(format(t, thinking, context).find("Need the weather."), std::string::npos) << "answered later: the analysis is dropped";
    const std::vector<ChatMessage> no_call = {{ChatRole::User, "u"}, {ChatRole::Tool, "21"}};
    const Result<std::string> orphan = format_chat(t, no_call, context);
    ASSERT_FALSE(orphan.ok());
    EXPECT_NE(orphan.error().message.find("tool call before it"), std::string::npos) << orphan.error().message;
}

} // namespace
} // namespace octo
