// Tools in OpenAI's JSON, JSON as the templates' tojson writes it, tool calls read back from a
// model's text per family, and the grammar of a required call. Expected JSON texts were written
// by Python's json.dumps (ensure_ascii=False), the function tojson stands for.
// Covers: tool_call_format.cpp
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/chat/chat_recognise.h"
#include "engine/chat/chat_tools.h"
#include "engine/chat/tool_call_format.h"
#include "engine/grammar/gbnf_grammar.h"
#include "engine/grammar/grammar_matcher.h"

namespace octo {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

const char* const kTools = R"([
  {"type": "function", "function": {"name": "get_weather", "description": "Current weather",
   "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1, "maximum": 7}},
                  "required": ["city"], "additionalProperties": false}}},
  {"type": "function", "function": {"name": "now", "strict": true}}
])";

std::vector<ChatTool> tools() {
    std::vector<ChatTool> out;
    const auto problem = chat_tools_from_json(ordered_json::parse(kTools), out);
    EXPECT_FALSE(problem) << (problem ? problem->message : "");
    return out;
}

ChatTemplate family(ChatFamily f, MistralStyle style = MistralStyle::V3) {
    ChatTemplate t;
    t.family = f;
    t.mistral = style;
    t.tools = true;
    return t;
}

TEST(ChatTools, PythonJsonIsJsonDumps) {
    const auto v = ordered_json::parse("{\"a\": [], \"b\": {}, \"c\": [1, 2.5, true, null, \"\xC3\xA9\\n\\u0001\"]}");
    EXPECT_EQ(python_json(v), "{\"a\": [], \"b\": {}, \"c\": [1, 2.5, true, null, \"\xC3\xA9\\n\\u0001\"]}");
    EXPECT_EQ(python_json(v, 2), "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    1,\n    2.5,\n    true,\n    null,\n    \"\xC3\xA9\\n\\u0001\"\n  ]\n}");
    EXPECT_EQ(python_json(ordered_json("{\"temp\": 21}")), "\"{\\\"temp\\\": 21}\"");
    EXPECT_EQ(python_json(ordered_json::parse(R"({"z": 1, "a": 2})")), R"({"z": 1, "a": 2})") << "keys stay in the order sent";
    EXPECT_EQ(python_json_text(R"({"city":"Paris"})"), R"({"city": "Paris"})");
    EXPECT_EQ(python_json_text("not json {"), "not json {");
}

TEST(ChatTools, ToolsAreReadAsSent) {
    const std::vector<ChatTool> t = tools();
    ASSERT_EQ(t.size(), 2u);
    EXPECT_EQ(t[0].name, "get_weather");
    EXPECT_EQ(t[0].description, "Current weather");
    EXPECT_EQ(json::parse(t[0].parameters)["required"], json::array({"city"}));
    EXPECT_EQ(t[0].declaration.find(R"({"type":"function","function":{"name":"get_weather")"), 0u) << t[0].declaration;
    EXPECT_EQ(t[1].parameters, "");

    const struct {
        const char* tools;
        const char* param;
    } bad[] = {
        {R"({"type": "function"})", "tools"},
        {R"([{"type": "retrieval"}])", "tools[0].type"},
        {R"([{"type": "function"}])", "tools[0].function"},
        {R"([{"type": "function", "function": {"name": "has space"}}])", "tools[0].function.name"},
        {R"([{"type": "function", "function": {"name": ""}}])", "tools[0].function.name"},
        {R"([{"type": "function", "function": {"name": "f"}}, {"type": "function", "function": {"name": "f"}}])", "tools[1].function.name"},
        {R"([{"type": "function", "function": {"name": "f", "parameters": "object"}}])", "tools[0].function.parameters"},
        {R"([{"type": "function", "function": {"name": "f", "description": 3}}])", "tools[0].function.description"},
    };
    for (const auto& b : bad) {
        std::vector<ChatTool> out;
        const auto problem = chat_tools_from_json(ordered_json::parse(b.tools), out);
        ASSERT_TRUE(problem) << b.tools;
        EXPECT_EQ(problem->param, b.param) << problem->message;
    }
}

TEST(ChatTools, ToolChoice) {
    const std::vector<ChatTool> t = tools();
    ToolChoice c;
    EXPECT_FALSE(tool_choice_from_json("required", t, c));
    EXPECT_EQ(c.mode, ToolChoice::Mode::Required);
    EXPECT_FALSE(tool_choice_from_json(json::parse(R"({"type": "function", "function": {"name": "now"}})"), t, c));
    EXPECT_EQ(c.mode, ToolChoice::Mode::Function);
    EXPECT_EQ(c.function, "now");
    EXPECT_EQ(tool_choice_text(c), "function:now");
    EXPECT_EQ(parse_tool_choice_text("function:now"), c);
    EXPECT_FALSE(tool_choice_from_json("none", t, c));
    EXPECT_FALSE(c.forces_call());
    EXPECT_TRUE(tool_choice_from_json(json::parse(R"({"type": "function", "function": {"name": "later"}})"), t, c));
    EXPECT_TRUE(tool_choice_from_json("always", t, c));
    EXPECT_TRUE(tool_choice_from_json(3, t, c));
    // Found by CI's fuzzer: a "type" that is not a string threw out of the request parser.
    EXPECT_TRUE(tool_choice_from_json(json::parse(R"({"type": {"name": "now"}, "function": {"name": "now"}})"), t, c));
    EXPECT_TRUE(tool_choice_from_json(json::parse(R"({"type": 1})"), t, c));
    EXPECT_TRUE(tool_choice_from_json("required", {}, c)) << "nothing to call";
    EXPECT_FALSE(parse_tool_choice_text("function:"));
}

TEST(ToolCallFormat, ChatMLCallsAreRead) {
    const std::vector<ChatTool> t = tools();
    const ChatTemplate chatml = family(ChatFamily::ChatML);
    ParsedToolCalls p = parse_tool_calls(chatml,
                                         "Let me check.\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n"
                                         "<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>",
                                         t);
    EXPECT_EQ(p.content, "Let me check.");
    ASSERT_EQ(p.calls.size(), 2u);
    EXPECT_EQ(p.calls[0].name, "get_weather");
    EXPECT_EQ(p.calls[0].arguments, R"({"city":"Paris"})");
    EXPECT_EQ(p.calls[1].name, "now");
    EXPECT_EQ(p.calls[1].arguments, "{}");

    // Not whole calls to offered tools: the text is the content, untouched.
    for (const std::string& text : {
             std::string("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Par"), // cut short
             std::string("<tool_call>\n{\"name\": \"delete_all\", \"arguments\": {}}\n</tool_call>"), // not offered
             std::string("<tool_call>\n{\"name\": \"now\", \"arguments\": \"{}\"}\n</tool_call>"),   // arguments not an object
             std::string("<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call> and then prose"),
             std::string("Plain prose."),
         }) {
        p = parse_tool_calls(chatml, text, t);
        EXPECT_TRUE(p.calls.empty()) << text;
        EXPECT_EQ(p.content, text);
    }
    EXPECT_TRUE(parse_tool_calls(chatml, "<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>", {}).calls.empty())
        << "no tools offered: no calls";
}

TEST(ToolCallFormat, Llama3AndMistralCallsAreRead) {
    const std::vector<ChatTool> t = tools();
    ParsedToolCalls p = parse_tool_calls(family(ChatFamily::Llama3), " {\"name\": \"get_weather\", \"parameters\": {\"city\": \"Oslo\", \"days\": 2}}", t);
    ASSERT_EQ(p.calls.size(), 1u);
    EXPECT_EQ(p.calls[0].arguments, R"({"city":"Oslo","days":2})");
    EXPECT_EQ(p.content, "");
    p = parse_tool_calls(family(ChatFamily::Llama3), "<|python_tag|>{\"name\": \"now\", \"arguments\": {}}", t);
    ASSERT_EQ(p.calls.size(), 1u);
    EXPECT_EQ(p.calls[0].name, "now");
    p = parse_tool_calls(family(ChatFamily::Llama3), "{\"name\": \"now\", \"parameters\": {}} extra", t);
    EXPECT_TRUE(p.calls.empty());

    const ChatTemplate mistral = family(ChatFamily::Mistral);
    p = parse_tool_calls(mistral, "[TOOL_CALLS] [{\"name\": \"now\", \"arguments\": {}}, {\"name\": \"get_weather\", \"arguments\": {\"city\": \"Rome\"}}]", t);
    ASSERT_EQ(p.calls.size(), 2u);
    EXPECT_EQ(p.calls[1].arguments, R"({"city":"Rome"})");
    p = parse_tool_calls(mistral, " [{\"name\": \"now\", \"arguments\": {}}]", t, "[TOOL_CALLS]");
    ASSERT_EQ(p.calls.size(), 1u);
    p = parse_tool_calls(mistral, " [{\"name\": \"now\", \"arguments\": {}}]", t);
    EXPECT_TRUE(p.calls.empty()) << "a list is not a call unless [TOOL_CALLS] opened it";
    p = parse_tool_calls(mistral, " [{\"name\": \"now\"", t, "[TOOL_CALLS]");
    EXPECT_TRUE(p.calls.empty());
    EXPECT_EQ(p.content, "[TOOL_CALLS] [{\"name\": \"now\"") << "the opened marker is part of what the model said";
}

bool matches(const std::string& gbnf, const std::string& text) {
    auto g = Grammar::parse(gbnf);
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message) << "\n" << gbnf;
    if (!g.ok()) return false;
    GrammarMatcher m(*g);
    return m.advance(text) && m.can_end();
}

TEST(ToolCallFormat, RequiredCallGrammars) {
    const std::vector<ChatTool> t = tools();
    ToolChoice required;
    required.mode = ToolChoice::Mode::Required;
    ToolChoice now;
    now.mode = ToolChoice::Mode::Function;
    now.function = "now";

    auto chatml = tool_call_grammar(family(ChatFamily::ChatML), t, required);
    ASSERT_TRUE(chatml.ok()) << chatml.error().message;
    EXPECT_TRUE(matches(*chatml, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"days\": 3}}\n</tool_call>"));
    EXPECT_TRUE(matches(*chatml, "<tool_call>\n{\"name\": \"now\", \"arguments\": {\"any\": [1]}}\n</tool_call>"));
    EXPECT_FALSE(matches(*chatml, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"days\": 3}}\n</tool_call>")) << "city is required";
    EXPECT_FALSE(matches(*chatml, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"P\", \"days\": 9}}\n</tool_call>"))
        << "days is at most 7";
    EXPECT_FALSE(matches(*chatml, "<tool_call>\n{\"name\": \"other\", \"arguments\": {}}\n</tool_call>"));
    EXPECT_FALSE(matches(*chatml, "Sure! <tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"));

    auto named = tool_call_grammar(family(ChatFamily::ChatML), t, now);
    ASSERT_TRUE(named.ok());
    EXPECT_TRUE(matches(*named, "<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>"));
    EXPECT_FALSE(matches(*named, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"));

    auto llama = tool_call_grammar(family(ChatFamily::Llama3), t, required);
    ASSERT_TRUE(llama.ok());
    EXPECT_TRUE(matches(*llama, "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}"));
    EXPECT_FALSE(matches(*llama, "{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}"));

    auto mistral = tool_call_grammar(family(ChatFamily::Mistral), t, required);
    ASSERT_TRUE(mistral.ok());
    EXPECT_TRUE(matches(*mistral, " [{\"name\": \"now\", \"arguments\": {}}]"));
    auto tekken = tool_call_grammar(family(ChatFamily::Mistral, MistralStyle::Tekken), t, required);
    ASSERT_TRUE(tekken.ok());
    EXPECT_TRUE(matches(*tekken, "[{\"name\": \"now\", \"arguments\": {}}]"));
    EXPECT_EQ(tool_call_opening(family(ChatFamily::Mistral), t, required).value(), "[TOOL_CALLS]");
    EXPECT_EQ(tool_call_opening(family(ChatFamily::ChatML), t, required).value(), "");

    // Every text a grammar accepts is read back as the call.
    const std::string call = "<tool_call>\n{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Paris\"}}\n</tool_call>";
    ASSERT_TRUE(matches(*chatml, call));
    EXPECT_EQ(parse_tool_calls(family(ChatFamily::ChatML), call, t).calls.size(), 1u);

    std::vector<ChatTool> unenforceable = t;
    unenforceable[0].parameters = R"({"type": "object", "properties": {"n": {"type": "number", "multipleOf": 3}}})";
    auto refused = tool_call_grammar(family(ChatFamily::ChatML), unenforceable, now);
    EXPECT_TRUE(refused.ok()) << "the named tool's schema is the only one compiled";
    refused = tool_call_grammar(family(ChatFamily::ChatML), unenforceable, required);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("multipleOf"), std::string::npos) << refused.error().message;
    EXPECT_FALSE(tool_call_grammar(family(ChatFamily::Gemma), t, required).ok());
}

TEST(ToolCallFormat, HarmonyCallsAreReadAndRequiredOnesNamed) {
    const std::vector<ChatTool> t = tools();
    const ChatTemplate harmony = family(ChatFamily::Harmony);
    ParsedToolCalls p = parse_tool_calls(harmony,
                                         "<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary "
                                         "to=functions.get_weather <|constrain|>json<|message|>{\"city\": \"Oslo\"}<|call|>",
                                         t);
    ASSERT_EQ(p.calls.size(), 1u);
    EXPECT_EQ(p.calls[0].name, "get_weather");
    EXPECT_EQ(p.calls[0].arguments, R"({"city":"Oslo"})");
    EXPECT_EQ(p.content, "<|channel|>analysis<|message|>Need the weather.<|end|>");
    p = parse_tool_calls(harmony, " to=functions.now<|channel|>commentary json<|message|>{}", t);
    ASSERT_EQ(p.calls.size(), 1u) << "the header's other order, the call's end left to the stop token";
    EXPECT_EQ(p.content, "");
    for (const std::string& text : {std::string("<|channel|>final<|message|>Sunny."),
                                    std::string("<|channel|>commentary to=functions.rm <|constrain|>json<|message|>{}"),
                                    std::string("<|channel|>commentary to=functions.now <|constrain|>json<|message|>{\"a\":")}) {
        p = parse_tool_calls(harmony, text, t);
        EXPECT_TRUE(p.calls.empty()) << text;
        EXPECT_EQ(p.content, text);
    }

    ToolChoice now;
    now.mode = ToolChoice::Mode::Function;
    now.function = "now";
    const auto opening = tool_call_opening(harmony, t, now);
    ASSERT_TRUE(opening.ok());
    EXPECT_EQ(*opening, "<|channel|>commentary to=functions.now <|constrain|>json<|message|>");
    ToolChoice weather = now;
    weather.function = "get_weather";
    auto gbnf = tool_call_grammar(harmony, t, weather);
    ASSERT_TRUE(gbnf.ok()) << gbnf.error().message;
    EXPECT_TRUE(matches(*gbnf, R"({"city": "Oslo", "days": 2})")) << "the header named the function: the grammar is the arguments'";
    EXPECT_FALSE(matches(*gbnf, R"({"days": 2})"));
    // The model writes the arguments after the opening: read back together.
    p = parse_tool_calls(harmony, R"({"city": "Oslo"})", t, *tool_call_opening(harmony, t, weather));
    ASSERT_EQ(p.calls.size(), 1u);
    EXPECT_EQ(p.calls[0].name, "get_weather");
    ToolChoice required;
    required.mode = ToolChoice::Mode::Required;
    EXPECT_FALSE(tool_call_opening(harmony, t, required).ok()) << "two tools: harmony cannot let the grammar pick the name";
    EXPECT_FALSE(tool_call_grammar(harmony, t, required).ok());
    EXPECT_TRUE(tool_call_opening(harmony, std::span(t).first(1), required).ok()) << "one tool: that one";
}

TEST(ToolCallFormat, CallIds) {
    uint64_t state = 42;
    const std::string a = tool_call_id_for(family(ChatFamily::ChatML), state);
    const std::string b = tool_call_id_for(family(ChatFamily::ChatML), state);
    EXPECT_EQ(a.size(), 29u);
    EXPECT_EQ(a.rfind("call_", 0), 0u);
    EXPECT_NE(a, b);
    const std::string m = tool_call_id_for(family(ChatFamily::Mistral), state);
    EXPECT_EQ(m.size(), 9u);
    for (const char c : m) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c))) << m;
}

} // namespace
} // namespace octo
