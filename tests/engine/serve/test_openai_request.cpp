// Parsing and checking OpenAI-style request bodies (engine/serve/openai_request.h): the fields
// users rely on are read as OpenAI documents them, the extension is read strictly, and every
// malformed body is a 4xx whose error names the field at fault.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/grammar_matcher.h"
#include "engine/serve/openai_request.h"

namespace octo::serve {
namespace {

CompletionRequest ok(const std::string& body, Endpoint endpoint = Endpoint::Chat) {
    auto r = parse_completion_request(body, endpoint);
    if (const auto* e = std::get_if<ApiError>(&r)) {
        ADD_FAILURE() << body << " → " << e->message;
        return {};
    }
    return std::get<CompletionRequest>(r);
}

ApiError refused(const std::string& body, Endpoint endpoint = Endpoint::Chat) {
    auto r = parse_completion_request(body, endpoint);
    if (!std::holds_alternative<ApiError>(r)) {
        ADD_FAILURE() << "accepted: " << body;
        return {};
    }
    return std::get<ApiError>(r);
}

TEST(OpenAiRequest, ChatFieldsAreReadAsOpenAiDocumentsThem) {
    const CompletionRequest q = ok(R"({"model": "octet.gguf", "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "What is "}, {"type": "text", "text": "2 + 2?"}]}],
        "max_tokens": 12, "temperature": 0.5, "top_p": 0.9, "top_k": 40, "seed": 7, "stop": ["\n", "."],
        "logprobs": true, "top_logprobs": 3, "n": 2, "stream": true, "stream_options": {"include_usage": true},
        "user": "someone", "presence_penalty": 0.5, "frequency_penalty": -1.25, "logit_bias": {"50256": -100, "7": 2.5},
        "reasoning_effort": "low",
        "octoscope": {"metric": "gates", "disable": ["rte-c"], "heads": true}})");
    EXPECT_EQ(q.run.reasoning_effort, ReasoningEffort::Low); // the harmony format's level (gpt-oss)
    EXPECT_EQ(q.model, "octet.gguf");
    ASSERT_EQ(q.run.messages.size(), 2u);
    EXPECT_EQ(q.run.messages[0].role, ChatRole::System);
    EXPECT_EQ(q.run.messages[1].content, "What is 2 + 2?");
    EXPECT_EQ(q.run.max_tokens, 12);
    EXPECT_TRUE(q.max_tokens_given);
    EXPECT_FLOAT_EQ(q.run.sampling.temperature, 0.5f);
    EXPECT_FLOAT_EQ(q.run.sampling.top_p, 0.9f);
    EXPECT_EQ(q.run.sampling.top_k, 40);
    EXPECT_EQ(q.run.sampling.seed, 7u);
    EXPECT_TRUE(q.seed_given);
    EXPECT_FLOAT_EQ(q.run.sampling.presence_penalty, 0.5f);
    EXPECT_FLOAT_EQ(q.run.sampling.frequency_penalty, -1.25f);
    EXPECT_EQ(q.run.sampling.logit_bias, (std::vector<std::pair<int32_t, float>>{{50256, -100.0f}, {7, 2.5f}}));
    EXPECT_EQ(q.run.stop_strings, (std::vector<std::string>{"\n", "."}));
    EXPECT_TRUE(q.logprobs);
    EXPECT_EQ(q.top_logprobs, 3);
    EXPECT_EQ(q.n, 2);
    EXPECT_TRUE(q.stream);
    EXPECT_TRUE(q.include_usage);
    EXPECT_TRUE(q.octoscope.enabled);
    EXPECT_EQ(q.octoscope.metric, Metric::Gates);
    EXPECT_TRUE(q.run.disabled[2]);
    EXPECT_FALSE(q.run.disabled[0]);
    EXPECT_TRUE(q.octoscope.heads);
}

// response_format json_object / json_schema and llama.cpp's "grammar" become the run's grammar;
// a schema's properties keep the order they were sent in.
TEST(OpenAiRequest, ResponseFormatsBecomeTheRunsGrammar) {
    EXPECT_TRUE(ok(R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "text"}})").run.grammar.empty());
    const CompletionRequest object = ok(R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_object"}})");
    EXPECT_FALSE(object.run.grammar.empty());
    const CompletionRequest schema = ok(R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_schema",
        "json_schema": {"name": "person", "strict": true, "schema": {"type": "object",
        "properties": {"zeta": {"type": "string"}, "alpha": {"type": "integer"}}, "required": ["zeta", "alpha"],
        "additionalProperties": false}}}})");
    const std::string& g = schema.run.grammar;
    auto grammar = Grammar::parse(g);
    ASSERT_TRUE(grammar.ok()) << g;
    GrammarMatcher declared(*grammar), alphabetical(*grammar);
    EXPECT_TRUE(declared.advance(R"({"zeta": "a", "alpha": 1})") && declared.can_end()) << g;
    EXPECT_FALSE(alphabetical.advance(R"({"alpha": 1, "zeta": "a"})")) << "declared order, not alphabetical: " << g;
    const CompletionRequest gbnf = ok(R"({"prompt": "x", "grammar": "root ::= [0-9]+"})", Endpoint::Completion);
    EXPECT_EQ(gbnf.run.grammar, "root ::= [0-9]+");
    const CompletionRequest llama = ok(R"({"prompt": "x", "response_format": {"type": "json_object", "schema": {"enum": [1, 2]}}})",
                                       Endpoint::Completion);
    EXPECT_NE(llama.run.grammar.find("\"1\" | \"2\""), std::string::npos) << llama.run.grammar;
}

TEST(OpenAiRequest, ToolsAndAToolRoundTripAreRead) {
    // The second request of OpenAI's function-calling guide, as the official Python client sends
    // it: the assistant's call (content null) and the tool's answer, the tools and a named choice.
    const CompletionRequest q = ok(R"({"messages": [
        {"role": "user", "content": "What's the weather like in Paris today?"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "call_12345xyz", "type": "function",
         "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris, France\"}"}}]},
        {"role": "tool", "tool_call_id": "call_12345xyz", "content": "14"}],
      "model": "gpt-4.1",
      "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Get current temperature for provided coordinates in celsius.",
                 "parameters": {"type": "object", "properties": {"location": {"type": "string"}}, "required": ["location"],
                                "additionalProperties": false}, "strict": true}}],
      "tool_choice": {"type": "function", "function": {"name": "get_weather"}}, "parallel_tool_calls": false})");
    ASSERT_EQ(q.run.messages.size(), 3u);
    EXPECT_EQ(q.run.messages[1].role, ChatRole::Assistant);
    EXPECT_EQ(q.run.messages[1].content, "");
    ASSERT_EQ(q.run.messages[1].tool_calls.size(), 1u);
    EXPECT_EQ(q.run.messages[1].tool_calls[0].id, "call_12345xyz");
    EXPECT_EQ(q.run.messages[1].tool_calls[0].name, "get_weather");
    EXPECT_EQ(q.run.messages[1].tool_calls[0].arguments, R"({"location":"Paris, France"})");
    EXPECT_EQ(q.run.messages[2].role, ChatRole::Tool);
    EXPECT_EQ(q.run.messages[2].tool_call_id, "call_12345xyz");
    ASSERT_EQ(q.run.tools.size(), 1u);
    EXPECT_EQ(q.run.tools[0].name, "get_weather");
    // The declaration keeps the sender's key order (description before parameters, strict last).
    EXPECT_LT(q.run.tools[0].declaration.find("description"), q.run.tools[0].declaration.find("parameters"));
    EXPECT_LT(q.run.tools[0].declaration.find("parameters"), q.run.tools[0].declaration.find("strict"));
    EXPECT_EQ(q.run.tool_choice.mode, ToolChoice::Mode::Function);
    EXPECT_EQ(q.run.tool_choice.function, "get_weather");
    EXPECT_TRUE(q.run.grammar.empty()) << "the call's grammar needs the model's format: the server builds it";
    EXPECT_EQ(ok(R"({"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "f"}}]})")
                  .run.tool_choice.mode,
              ToolChoice::Mode::Auto);
}

TEST(OpenAiRequest, DefaultsFollowOpenAi) {
    const CompletionRequest q = ok(R"({"messages": [{"role": "user", "content": "hi"}]})");
    EXPECT_FLOAT_EQ(q.run.sampling.temperature, 1.0f); // OpenAI samples unless told otherwise
    EXPECT_EQ(q.n, 1);
    EXPECT_FALSE(q.stream);
    EXPECT_FALSE(q.logprobs);
    EXPECT_FALSE(q.seed_given);
    EXPECT_FALSE(q.max_tokens_given);
    EXPECT_EQ(q.run.max_tokens, RequestLimits{}.max_tokens);
    EXPECT_FALSE(q.octoscope.enabled);
    EXPECT_EQ(q.run.reasoning_effort, ReasoningEffort::Medium); // the gpt-oss template's default
}

TEST(OpenAiRequest, CompletionsTakeAPromptAndLogprobsAsACount) {
    const CompletionRequest q = ok(R"({"prompt": ["Once upon a time"], "logprobs": 3, "max_tokens": 5,
                                       "echo": false, "best_of": 1})", Endpoint::Completion);
    EXPECT_EQ(q.run.prompt, "Once upon a time");
    EXPECT_TRUE(q.logprobs);
    EXPECT_EQ(q.top_logprobs, 3);
    const CompletionRequest none = ok(R"({"prompt": "x"})", Endpoint::Completion);
    EXPECT_FALSE(none.logprobs);
    const CompletionRequest alias = ok(R"({"messages": [{"role": "user", "content": "x"}], "max_completion_tokens": 9})");
    EXPECT_EQ(alias.run.max_tokens, 9);
}

struct Bad {
    const char* body;
    Endpoint endpoint;
    const char* param; // the field the error names ("" for the body as a whole)
};

TEST(OpenAiRequest, EveryMalformedBodyIsRefusedNamingItsField) {
    const Endpoint C = Endpoint::Chat, P = Endpoint::Completion;
    const std::vector<Bad> cases = {
        {R"({"messages": [{"role": "user", "content": "x"}])", C, ""},                 // truncated JSON
        {R"([1, 2, 3])", C, ""},                                                          // not an object
        {R"("hello")", C, ""},
        {R"({})", C, "messages"},                                                         // no messages
        {R"({"messages": []})", C, "messages"},
        {R"({"messages": "hi"})", C, "messages"},
        {R"({"messages": [42]})", C, "messages[0]"},
        {R"({"messages": [{"content": "x"}]})", C, "messages[0].role"},
        {R"({"messages": [{"role": "wizard", "content": "x"}]})", C, "messages[0].role"},
        {R"({"messages": [{"role": "function", "content": "x"}]})", C, "messages[0].role"},
        {R"({"messages": [{"role": "user"}]})", C, "messages[0].content"},
        {R"({"messages": [{"role": "user", "content": 5}]})", C, "messages[0].content"},
        {R"({"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]}]})", C,
         "messages[0].content[0].type"},
        {R"({"messages": [{"role": "user", "content": [{"type": "text"}]}]})", C, "messages[0].content[0].text"},
        {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": 0})", C, "max_tokens"},
        {R"({"messages": [{"role": "user", "content": "x"}], "reasoning_effort": "maximal"})", C, "reasoning_effort"},
        {R"({"messages": [{"role": "user", "content": "x"}], "reasoning_effort": 2})", C, "reasoning_effort"},
        {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": -5})", C, "max_tokens"},
        {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": 2.5})", C, "max_tokens"},
        {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": "10"})", C, "max_tokens"},
        {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": 100000000})", C, "max_tokens"},
        {R"({"messages": [{"role": "user", "content": "x"}], "temperature": 2.5})", C, "temperature"},
        {R"({"messages": [{"role": "user", "content": "x"}], "temperature": -0.1})", C, "temperature"},
        {R"({"messages": [{"role": "user", "content": "x"}], "top_p": 0})", C, "top_p"},
        {R"({"messages": [{"role": "user", "content": "x"}], "top_p": 1.5})", C, "top_p"},
        {R"({"messages": [{"role": "user", "content": "x"}], "top_k": -1})", C, "top_k"},
        {R"({"messages": [{"role": "user", "content": "x"}], "n": 0})", C, "n"},
        {R"({"messages": [{"role": "user", "content": "x"}], "n": 1000})", C, "n"},
        {R"({"messages": [{"role": "user", "content": "x"}], "seed": "abc"})", C, "seed"},
        {R"({"messages": [{"role": "user", "content": "x"}], "stop": 3})", C, "stop"},
        {R"({"messages": [{"role": "user", "content": "x"}], "stop": ["a", "b", "c", "d", "e"]})", C, "stop"},
        {R"({"messages": [{"role": "user", "content": "x"}], "stop": [""]})", C, "stop"},
        {R"({"messages": [{"role": "user", "content": "x"}], "logprobs": "yes"})", C, "logprobs"},
        {R"({"messages": [{"role": "user", "content": "x"}], "top_logprobs": 3})", C, "top_logprobs"},
        {R"({"messages": [{"role": "user", "content": "x"}], "logprobs": true, "top_logprobs": 21})", C, "top_logprobs"},
        {R"({"messages": [{"role": "user", "content": "x"}], "stream": "true"})", C, "stream"},
        {R"({"messages": [{"role": "user", "content": "x"}], "stream_options": {"include_usage": true}})", C, "stream_options"},
        {R"({"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function"}]})", C, "tools[0].function"},
        {R"({"messages": [{"role": "user", "content": "x"}], "tools": {"type": "function"}})", C, "tools"},
        {R"({"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "f"}}],
            "tool_choice": {"type": "function", "function": {"name": "g"}}})", C, "tool_choice"},
        {R"({"messages": [{"role": "user", "content": "x"}], "tool_choice": "required"})", C, "tool_choice"},
        // CI's fuzzer: a "type" that is not a string threw out of the parser.
        {R"({"messages": [{"role": "user", "content": "x"}], "tool_choice": {"type": {"name": "f"}}})", C, "tool_choice"},
        {R"({"messages": [{"role": "user", "content": "x"}], "tool_choice": "sometimes"})", C, "tool_choice"},
        {R"({"messages": [{"role": "user", "content": "x"}], "parallel_tool_calls": "yes"})", C, "parallel_tool_calls"},
        {R"({"messages": [{"role": "user", "content": "x"}], "functions": [{"name": "f"}]})", C, "functions"},
        {R"({"messages": [{"role": "tool", "content": "x", "tool_calls": []}]})", C, "messages[0].tool_calls"},
        {R"({"messages": [{"role": "assistant", "content": null, "tool_calls": [{"id": "a", "function": {"arguments": "{}"}}]}]})", C,
         "messages[0].tool_calls[0].function.name"},
        {R"({"prompt": "x", "tools": [{"type": "function", "function": {"name": "f"}}]})", P, "tools"},
        {R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_xml"}})", C, "response_format"},
        {R"({"messages": [{"role": "user", "content": "x"}], "response_format": "json"})", C, "response_format"},
        {R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_schema"}})", C, "response_format"},
        {R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": "json_schema",
            "json_schema": {"name": "s", "schema": {"type": "array", "uniqueItems": true}}}})", C, "response_format"},
        {R"({"messages": [{"role": "user", "content": "x"}], "grammar": "root ::= missing"})", C, "grammar"},
        {R"({"messages": [{"role": "user", "content": "x"}], "grammar": 5})", C, "grammar"},
        {R"({"messages": [{"role": "user", "content": "x"}], "grammar": "root ::= \"a\"",
            "response_format": {"type": "json_object"}})", C, "grammar"},
        {R"({"messages": [{"role": "user", "content": "x"}], "response_format": {"type": 1}})", C, "response_format"}, // fuzz finding: threw
        {R"({"messages": [{"role": "user", "content": "x"}], "logit_bias": {"50256": -101}})", C, "logit_bias"},
        {R"({"messages": [{"role": "user", "content": "x"}], "logit_bias": {"the": 5}})", C, "logit_bias"},
        {R"({"messages": [{"role": "user", "content": "x"}], "logit_bias": {"-3": 5}})", C, "logit_bias"},
        {R"({"messages": [{"role": "user", "content": "x"}], "logit_bias": {"99999999999": 5}})", C, "logit_bias"},
        {R"({"messages": [{"role": "user", "content": "x"}], "logit_bias": {"5": "up"}})", C, "logit_bias"},
        {R"({"messages": [{"role": "user", "content": "x"}], "logit_bias": [5, 1]})", C, "logit_bias"},
        {R"({"messages": [{"role": "user", "content": "x"}], "frequency_penalty": 2.5})", C, "frequency_penalty"},
        {R"({"messages": [{"role": "user", "content": "x"}], "presence_penalty": -3})", C, "presence_penalty"},
        {R"({"messages": [{"role": "user", "content": "x"}], "min_p": 0.1})", C, "min_p"},
        {R"({"messages": [{"role": "user", "content": "x"}], "model": 7})", C, "model"},
        {R"({"messages": [{"role": "user", "content": "x"}], "prompt": "y"})", C, "prompt"},
        {R"({"messages": [{"role": "user", "content": "x"}], "octoscope": true})", C, "octoscope"},
        {R"({"messages": [{"role": "user", "content": "x"}], "octoscope": {"metric": "vibes"}})", C, "octoscope.metric"},
        {R"({"messages": [{"role": "user", "content": "x"}], "octoscope": {"disable": ["rte-z"]}})", C, "octoscope.disable"},
        {R"({"messages": [{"role": "user", "content": "x"}], "octoscope": {"ablation": "half"}})", C, "octoscope.ablation"},
        {R"({"messages": [{"role": "user", "content": "x"}], "octoscope": {"heads": 1}})", C, "octoscope.heads"},
        {R"({"messages": [{"role": "user", "content": "x"}], "octoscope": {"colour": "red"}})", C, "octoscope.colour"},
        {R"({})", P, "prompt"},
        {R"({"prompt": 12})", P, "prompt"},
        {R"({"prompt": ["a", "b"]})", P, "prompt"},
        {R"({"prompt": "x", "logprobs": true})", P, "logprobs"},
        {R"({"prompt": "x", "logprobs": 6})", P, "logprobs"},
        {R"({"prompt": "x", "echo": true})", P, "echo"},
        {R"({"prompt": "x", "suffix": "y"})", P, "suffix"},
        {R"({"prompt": "x", "best_of": 3})", P, "best_of"},
        {R"({"prompt": "x", "messages": []})", P, "messages"},
    };
    ASSERT_GE(cases.size(), 20u);
    for (const Bad& b : cases) {
        const ApiError e = refused(b.body, b.endpoint);
        EXPECT_EQ(e.status, 400) << b.body;
        EXPECT_EQ(e.type, "invalid_request_error") << b.body;
        EXPECT_EQ(e.param, b.param) << b.body << " → " << e.message;
        EXPECT_FALSE(e.message.empty()) << b.body;
        const nlohmann::json j = error_json(e);
        EXPECT_EQ(j["error"]["message"], e.message);
        EXPECT_EQ(j["error"]["param"].is_null(), e.param.empty());
    }
}

TEST(OpenAiRequest, TooManyMessagesIsPayloadTooLarge) {
    std::string body = R"({"messages": [)";
    for (int i = 0; i < 5; ++i) body += std::string(i ? "," : "") + R"({"role": "user", "content": "x"})";
    body += "]}";
    RequestLimits limits;
    limits.max_messages = 4;
    auto r = parse_completion_request(body, Endpoint::Chat, limits);
    ASSERT_TRUE(std::holds_alternative<ApiError>(r));
    EXPECT_EQ(std::get<ApiError>(r).status, 413);
}

} // namespace
} // namespace octo::serve
