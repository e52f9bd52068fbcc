// Tool calls over HTTP (docs/server.md, "Tools"): requests in the shape OpenAI's official Python
// client sends (recorded below) to random-weight models whose chat templates carry each family's
// tool format — Qwen/Hermes' <tool_call>, Llama 3.1's JSON call, Mistral's [TOOL_CALLS],
// harmony's (gpt-oss) commentary message to functions.NAME. A
// required or named call is constrained: every answer is a call to the right function whose
// arguments keep its schema, with an id in the family's form and finish_reason "tool_calls",
// whole or streamed. The call's round trip (the assistant's call and the tool's result sent back)
// is rendered and answered; tool_choice "none" answers text; a model without a tool format, or a
// call required together with a response format, is a 400 naming the field.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/serve_harness.h"

namespace octo::test {
namespace {

using nlohmann::json;

// openai-python 1.x, client.chat.completions.create(model=..., messages=[...], tools=[...],
// tool_choice="required"), as sent on the wire (the tool of OpenAI's function-calling guide, its
// location bounded so that a random model's call ends; "model" left out: each test serves its
// own file).
const char* const kClientRequest = R"({
  "messages": [{"role": "user", "content": "What's the weather like in Paris today?"}],
  "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Get current temperature for a given location.",
             "parameters": {"type": "object", "properties": {"location": {"type": "string", "maxLength": 8},
                                                             "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}},
                            "required": ["location", "unit"], "additionalProperties": false}, "strict": true}},
            {"type": "function", "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}}}],
  "tool_choice": "required",
  "max_tokens": 400,
  "seed": 1
})";

// The templates' tool markers are what recognition reads (chat_recognise.h); the synthetic
// vocabulary spells their text out character by character.
struct Family {
    const char* name;
    const char* jinja;
    size_t id_length;  // the calls' ids
    bool names_first = false; // harmony: a required call must name its function (or be offered one tool)
};
const Family kFamilies[] = {
    {"chatml", "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}<tool_call>", 29},
    {"llama3.1", "<|start_header_id|>system<|end_header_id|>Cutting Knowledge Date: December 2023 ipython {{ messages }}", 29},
    {"mistral-v3", R"({%- for m in messages %}{{- "[AVAILABLE_TOOLS] [" }}{{- "[INST] " + m.content + "[/INST]" }}{%- endfor %})", 9},
    {"harmony", R"({{- "<|start|>system<|message|>" }}{%- for m in messages %}<|channel|>{{ m.content }}{%- endfor %}{{- render_tool_namespace("functions", tools) }})",
     29, true},
};

std::string write_model(const std::string& jinja, const std::string& name) {
    SyntheticModelSpec spec;
    spec.context_length = 2048;
    spec.seed = 5;
    spec.chat_template = jinja;
    const std::string path = temp_path(name + ".gguf");
    auto bytes = make_synthetic_model(spec).value();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
}

// A call to get_weather whose arguments keep its schema.
void expect_weather_call(const json& call, size_t id_length) {
    ASSERT_TRUE(call.is_object()) << call;
    EXPECT_EQ(call["type"], "function");
    ASSERT_TRUE(call["id"].is_string()) << call;
    EXPECT_EQ(call["id"].get<std::string>().size(), id_length) << call;
    EXPECT_EQ(call["function"]["name"], "get_weather") << call;
    const json args = json::parse(call["function"]["arguments"].get<std::string>(), nullptr, false);
    ASSERT_TRUE(args.is_object()) << call;
    EXPECT_EQ(args.size(), 2u) << args;
    ASSERT_TRUE(args["location"].is_string()) << args;
    EXPECT_LE(args["location"].get<std::string>().size(), 8u) << args;
    EXPECT_TRUE(args["unit"] == "celsius" || args["unit"] == "fahrenheit") << args;
}

TEST(ServeTools, ARequiredCallIsACallInEveryFamilysFormat) {
    for (const Family& f : kFamilies) {
        SCOPED_TRACE(f.name);
        ServerProcess server({"--model", write_model(f.jinja, f.name), "--threads", "2", "--parallel", "2"});
        ASSERT_GT(server.port(), 0) << server.err();
        for (int seed = 1; seed <= 3; ++seed) {
            json body = json::parse(kClientRequest);
            body["seed"] = seed;
            body["tool_choice"] = {{"type", "function"}, {"function", {{"name", "get_weather"}}}};
            const Answer a = post(server.port(), "/v1/chat/completions", body);
            ASSERT_EQ(a.status, 200) << a.raw;
            const json& choice = a.body["choices"][0];
            EXPECT_EQ(choice["finish_reason"], "tool_calls") << choice;
            EXPECT_TRUE(choice["message"]["content"].is_null()) << choice;
            ASSERT_EQ(choice["message"]["tool_calls"].size(), 1u) << choice;
            expect_weather_call(choice["message"]["tool_calls"][0], f.id_length);
        }
        // "required": a call to either tool (harmony names the function in its header: refused).
        const Answer any = post(server.port(), "/v1/chat/completions", json::parse(kClientRequest));
        if (f.names_first) {
            EXPECT_EQ(any.status, 400) << any.raw;
            EXPECT_EQ(any.body["error"]["param"], "tool_choice") << any.raw;
        } else {
            ASSERT_EQ(any.status, 200) << any.raw;
            const json& call = any.body["choices"][0]["message"]["tool_calls"][0];
            EXPECT_TRUE(call["function"]["name"] == "get_weather" || call["function"]["name"] == "get_time") << any.body;
        }
        EXPECT_EQ(server.stop(), 0) << server.err();
    }
}

TEST(ServeTools, AStreamSendsTheCallWithItsLastChunk) {
    const Family& f = kFamilies[0];
    ServerProcess server({"--model", write_model(f.jinja, "chatml"), "--threads", "2"});
    ASSERT_GT(server.port(), 0) << server.err();
    json body = json::parse(kClientRequest);
    body["stream"] = true;
    body["tool_choice"] = {{"type", "function"}, {"function", {{"name", "get_weather"}}}};
    const std::vector<json> events = stream(server.port(), "/v1/chat/completions", body);
    ASSERT_GE(events.size(), 3u);
    EXPECT_EQ(events.back(), "[DONE]");
    const json& last = events[events.size() - 2];
    ASSERT_TRUE(last.is_object()) << last;
    EXPECT_EQ(last["choices"][0]["finish_reason"], "tool_calls") << last;
    const json& calls = last["choices"][0]["delta"]["tool_calls"];
    ASSERT_EQ(calls.size(), 1u) << last;
    EXPECT_EQ(calls[0]["index"], 0);
    expect_weather_call(calls[0], f.id_length);
    for (size_t i = 1; i + 2 < events.size(); ++i) {
        EXPECT_FALSE(events[i]["choices"][0]["delta"].contains("content")) << "text is held back until the answer is whole: " << events[i];
    }
    EXPECT_EQ(server.stop(), 0) << server.err();
}

TEST(ServeTools, TheRoundTripIsRenderedAndNoneAnswersText) {
    for (const Family& f : kFamilies) {
        SCOPED_TRACE(f.name);
        ServerProcess server({"--model", write_model(f.jinja, f.name), "--threads", "2"});
        ASSERT_GT(server.port(), 0) << server.err();
        json first = json::parse(kClientRequest);
        first["tool_choice"] = {{"type", "function"}, {"function", {{"name", "get_weather"}}}};
        const Answer a = post(server.port(), "/v1/chat/completions", first);
        ASSERT_EQ(a.status, 200) << a.raw;
        const json call = a.body["choices"][0]["message"]["tool_calls"][0];
        // The client's second request: the assistant's message as it came back, then the result.
        json second = json::parse(kClientRequest);
        second["messages"].push_back(a.body["choices"][0]["message"]);
        second["messages"].push_back({{"role", "tool"}, {"tool_call_id", call["id"]}, {"content", "14"}});
        second["tool_choice"] = "none";
        second["max_tokens"] = 8;
        const Answer b = post(server.port(), "/v1/chat/completions", second);
        ASSERT_EQ(b.status, 200) << b.raw;
        const json& message = b.body["choices"][0]["message"];
        EXPECT_TRUE(message["content"].is_string()) << message;
        EXPECT_FALSE(message.contains("tool_calls")) << message;
        EXPECT_NE(b.body["choices"][0]["finish_reason"], "tool_calls");
        // "auto" lets the model choose: the answer is text or calls, and says which.
        second["tool_choice"] = "auto";
        const Answer c = post(server.port(), "/v1/chat/completions", second);
        ASSERT_EQ(c.status, 200) << c.raw;
        const json& choice = c.body["choices"][0];
        EXPECT_EQ(choice["finish_reason"] == "tool_calls", choice["message"].contains("tool_calls")) << choice;
        EXPECT_EQ(server.stop(), 0) << server.err();
    }
}

TEST(ServeTools, ToolsTheModelCannotTakeAreRefused) {
    // The built-in octet has a prompt template, no chat template: no tool format.
    ServerProcess octet({"--threads", "1"});
    ASSERT_GT(octet.port(), 0) << octet.err();
    const Answer a = post(octet.port(), "/v1/chat/completions", json::parse(kClientRequest));
    EXPECT_EQ(a.status, 400) << a.raw;
    EXPECT_EQ(a.body["error"]["param"], "tools") << a.raw;
    json none = json::parse(kClientRequest);
    none["tool_choice"] = "none";
    none["max_tokens"] = 4;
    EXPECT_EQ(post(octet.port(), "/v1/chat/completions", none).status, 200) << "tools not shown: nothing to refuse";
    EXPECT_EQ(octet.stop(), 0) << octet.err();

    ServerProcess gemma({"--model", write_model("<start_of_turn>user\n{{ messages }}<end_of_turn>", "gemma"), "--threads", "1"});
    ASSERT_GT(gemma.port(), 0) << gemma.err();
    const Answer g = post(gemma.port(), "/v1/chat/completions", json::parse(kClientRequest));
    EXPECT_EQ(g.status, 400) << g.raw;
    EXPECT_EQ(g.body["error"]["param"], "tools") << g.raw;
    EXPECT_NE(g.body["error"]["message"].get<std::string>().find("no tool format"), std::string::npos) << g.raw;

    json both = json::parse(kClientRequest);
    both["response_format"] = {{"type", "json_object"}};
    ServerProcess chatml({"--model", write_model(kFamilies[0].jinja, "chatml"), "--threads", "1"});
    const Answer r = post(chatml.port(), "/v1/chat/completions", both);
    EXPECT_EQ(r.status, 400) << r.raw;
    EXPECT_EQ(r.body["error"]["param"], "tool_choice") << r.raw;
    // A Mistral call id that its format cannot carry.
    ServerProcess mistral({"--model", write_model(kFamilies[2].jinja, "mistral"), "--threads", "1"});
    json bad_id = json::parse(kClientRequest);
    bad_id["messages"].push_back({{"role", "assistant"}, {"content", nullptr},
                                  {"tool_calls", json::array({{{"id", "call_1"}, {"type", "function"},
                                                               {"function", {{"name", "get_time"}, {"arguments", "{}"}}}}})}});
    bad_id["messages"].push_back({{"role", "tool"}, {"tool_call_id", "call_1"}, {"content", "noon"}});
    const Answer m = post(mistral.port(), "/v1/chat/completions", bad_id);
    EXPECT_EQ(m.status, 400) << m.raw;
    EXPECT_NE(m.body["error"]["message"].get<std::string>().find("9 letters and digits"), std::string::npos) << m.raw;
    EXPECT_EQ(gemma.stop(), 0) << gemma.err();
    EXPECT_EQ(chatml.stop(), 0) << chatml.err();
    EXPECT_EQ(mistral.stop(), 0) << mistral.err();
}

} // namespace
} // namespace octo::test
