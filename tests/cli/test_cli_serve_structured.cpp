// Structured output over HTTP (docs/structured-output.md): response_format json_schema in the
// shape OpenAI's official Python client sends (recorded below), json_object, llama.cpp's
// "grammar"; every answer parses and keeps the schema, streamed or whole, several choices at once;
// a budget too small ends as "length"; the extension reports what the mask removed per token; a
// schema the server cannot honour is a 400 naming the keyword.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/serve_harness.h"

namespace octo::test {
namespace {

using nlohmann::json;

// openai-python 1.x, client.chat.completions.create(model=..., messages=[...],
// response_format={"type": "json_schema", "json_schema": {...}}, seed=...), as sent on the wire.
const char* const kClientRequest = R"({
  "messages": [{"role": "system", "content": "Reply with JSON."}, {"role": "user", "content": "Describe a pet."}],
  "model": "octet.gguf",
  "response_format": {"type": "json_schema", "json_schema": {"name": "pet", "strict": true, "schema": {
    "type": "object",
    "properties": {"name": {"type": "string", "maxLength": 10}, "legs": {"type": "integer", "minimum": 0, "maximum": 8},
                   "kind": {"type": "string", "enum": ["cat", "dog", "fish"]}},
    "required": ["name", "legs", "kind"], "additionalProperties": false}}},
  "max_tokens": 80,
  "temperature": 1.0,
  "seed": 3
})";

void expect_pet(const std::string& content) {
    const json doc = json::parse(content, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << content;
    EXPECT_EQ(doc.size(), 3u) << content;
    ASSERT_TRUE(doc.contains("name") && doc["name"].is_string()) << content;
    ASSERT_TRUE(doc.contains("legs") && doc["legs"].is_number_integer()) << content;
    EXPECT_GE(doc["legs"].get<int>(), 0);
    EXPECT_LE(doc["legs"].get<int>(), 8);
    ASSERT_TRUE(doc.contains("kind")) << content;
    EXPECT_TRUE(doc["kind"] == "cat" || doc["kind"] == "dog" || doc["kind"] == "fish") << content;
}

class ServeStructured : public ::testing::Test {
protected:
    static void SetUpTestSuite() { server_ = new ServerProcess({"--parallel", "4", "--threads", "2"}); }
    static void TearDownTestSuite() {
        EXPECT_EQ(server_->stop(), 0) << server_->err();
        delete server_;
    }
    int port() const { return server_->port(); }
    static ServerProcess* server_;
};
ServerProcess* ServeStructured::server_ = nullptr;

TEST_F(ServeStructured, TheOfficialClientsSchemaRequestAnswersAKeptDocument) {
    ASSERT_GT(port(), 0) << server_->err();
    for (int seed = 1; seed <= 6; ++seed) {
        json body = json::parse(kClientRequest);
        body["seed"] = seed;
        const Answer a = post(port(), "/v1/chat/completions", body);
        ASSERT_EQ(a.status, 200) << a.raw;
        const json& choice = a.body["choices"][0];
        EXPECT_EQ(choice["finish_reason"], "stop") << choice;
        expect_pet(choice["message"]["content"].get<std::string>());
    }
}

TEST_F(ServeStructured, SeveralChoicesAndAStreamKeepTheSchema) {
    json body = json::parse(kClientRequest);
    body["n"] = 3;
    const Answer a = post(port(), "/v1/chat/completions", body);
    ASSERT_EQ(a.status, 200) << a.raw;
    ASSERT_EQ(a.body["choices"].size(), 3u);
    for (const json& c : a.body["choices"]) expect_pet(c["message"]["content"].get<std::string>());

    json streamed = json::parse(kClientRequest);
    streamed["stream"] = true;
    std::string text;
    std::string finish;
    for (const json& event : stream(port(), "/v1/chat/completions", streamed)) {
        if (!event.is_object() || event["choices"].empty()) continue;
        const json& delta = event["choices"][0]["delta"];
        if (delta.contains("content") && delta["content"].is_string()) text += delta["content"].get<std::string>();
        if (event["choices"][0]["finish_reason"].is_string()) finish = event["choices"][0]["finish_reason"];
    }
    expect_pet(text);
    EXPECT_EQ(finish, "stop");
    json whole = json::parse(kClientRequest);
    EXPECT_EQ(post(port(), "/v1/chat/completions", whole).body["choices"][0]["message"]["content"].get<std::string>(), text)
        << "streamed and whole answers of one seed are the same document";
}

TEST_F(ServeStructured, JsonObjectAndGrammarRequests) {
    const Answer object = post(port(), "/v1/chat/completions", chat("Anything.", {{"response_format", {{"type", "json_object"}}},
                                                                                   {"max_tokens", 120}}));
    ASSERT_EQ(object.status, 200) << object.raw;
    const json& choice = object.body["choices"][0];
    if (choice["finish_reason"] == "stop") {
        EXPECT_TRUE(json::parse(choice["message"]["content"].get<std::string>(), nullptr, false).is_object()) << choice;
    } else {
        EXPECT_EQ(choice["finish_reason"], "length");
    }
    const Answer digits = post(port(), "/v1/completions",
                               {{"prompt", "Count:"}, {"grammar", "root ::= [0-9]{3} \"!\""}, {"max_tokens", 10}, {"temperature", 0}});
    ASSERT_EQ(digits.status, 200) << digits.raw;
    const std::string text = digits.body["choices"][0]["text"];
    ASSERT_EQ(text.size(), 4u) << text;
    EXPECT_EQ(text.back(), '!');
}

TEST_F(ServeStructured, ABudgetTooSmallIsLengthNotADocument) {
    json body = json::parse(kClientRequest);
    body["max_tokens"] = 3;
    const Answer a = post(port(), "/v1/chat/completions", body);
    ASSERT_EQ(a.status, 200) << a.raw;
    EXPECT_EQ(a.body["choices"][0]["finish_reason"], "length");
    EXPECT_TRUE(json::parse(a.body["choices"][0]["message"]["content"].get<std::string>(), nullptr, false).is_discarded())
        << "three tokens cannot hold the document";
}

TEST_F(ServeStructured, TheExtensionReportsWhatTheMaskRemoved) {
    json body = json::parse(kClientRequest);
    body["octoscope"] = {{"metric", "dla"}};
    const Answer a = post(port(), "/v1/chat/completions", body);
    ASSERT_EQ(a.status, 200) << a.raw;
    const json& tokens = a.body["choices"][0]["octoscope"]["tokens"];
    ASSERT_FALSE(tokens.empty());
    bool pulled = false;
    for (const json& t : tokens) {
        ASSERT_TRUE(t.contains("constraint")) << t;
        const double mass = t["constraint"]["removed_mass"];
        EXPECT_TRUE(mass >= 0.0 && mass <= 1.0);
        pulled = pulled || t["constraint"].contains("removed_pull");
    }
    EXPECT_TRUE(pulled) << "with DLA, a step where the schema bent the model names the subsystems' pull";
}

TEST_F(ServeStructured, ASchemaTheServerCannotHonourIsRefused) {
    json body = json::parse(kClientRequest);
    body["response_format"]["json_schema"]["schema"]["properties"]["legs"]["multipleOf"] = 2;
    const Answer a = post(port(), "/v1/chat/completions", body);
    EXPECT_EQ(a.status, 400);
    EXPECT_EQ(a.body["error"]["param"], "response_format");
    EXPECT_NE(a.body["error"]["message"].get<std::string>().find("/properties/legs/multipleOf"), std::string::npos) << a.raw;
    EXPECT_EQ(get(port(), "/health").status, 200) << "still serving";
}

} // namespace
} // namespace octo::test
