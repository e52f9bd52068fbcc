// Chat-template recognition and the built-in formatters. The template strings mirror the
// structure of the public templates of each family (Jinja escapes such as \n are kept as
// written in the template source); the expected prompts are written out by hand from
// what that Jinja renders with add_generation_prompt = true, minus the leading BOS that
// the tokenizer adds.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/chat/chat_format.h"
#include "engine/chat/chat_recognise.h"

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
    dated.today = "05 Mar 2025";
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
        EXPECT_NE(t.error().message.find("supported: llama2, llama3, chatml, mistral, gemma, phi3)"), std::string::npos);
    }
    EXPECT_FALSE(recognise_chat_template("").ok());
}

TEST(ChatTemplates, RejectsMalformedConversations) {
    const ChatTemplate t = recognise(kChatML, ChatFamily::ChatML);
    auto rejected = [&](std::vector<ChatMessage> messages) {
        const Result<std::string> text = format_chat(t, messages, kLlamaTokens);
        return !text.ok() && text.error().code == ErrorCode::InvalidArgument;
    };
    EXPECT_TRUE(rejected({}));
    EXPECT_TRUE(rejected({{ChatRole::System, "s"}}));
    EXPECT_TRUE(rejected({{ChatRole::Assistant, "a"}}));
    EXPECT_TRUE(rejected({{ChatRole::User, "u"}, {ChatRole::Assistant, "a"}}));
    EXPECT_TRUE(rejected({{ChatRole::User, "u"}, {ChatRole::User, "v"}}));
    EXPECT_TRUE(rejected({{ChatRole::User, "u"}, {ChatRole::System, "s"}, {ChatRole::User, "v"}}));
}

} // namespace
} // namespace octo
