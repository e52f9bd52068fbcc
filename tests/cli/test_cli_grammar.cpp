// generate --grammar (engine/grammar): every token keeps to the grammar, greedy or sampled with
// any seed; once the grammar is complete only an end-of-generation token can follow; a budget
// too small for a whole sentence ends as max_tokens (a document cut short is never a success);
// a bad grammar is a usage error that names it.
// Covers: engine/generation/grammar_constraint.cpp
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"
#include "tests/cli/serve_harness.h"

namespace octo::test {
namespace {

struct GrammarFile {
    explicit GrammarFile(const std::string& text) : path(temp_path("grammar.gbnf")) { std::ofstream(path) << text; }
    ~GrammarFile() { std::remove(path.c_str()); }
    std::string path;
};

TEST(CliGrammar, EveryOutputKeepsToTheGrammarOverManySeeds) {
    const GrammarFile g(R"(root ::= "The answer is " ("-"? [0-9]{1,3}) "." (" It is " ("even" | "odd") ".")?)");
    const std::regex sentence(R"(The answer is -?[0-9]{1,3}\.( It is (even|odd)\.)?)");
    for (int seed = 1; seed <= 12; ++seed) {
        const CliRun r = run_cli({"generate", "-p", "Add 17 and 26.", "--grammar", g.path, "-n", "40", "--temperature", "1.5",
                                  "--seed", std::to_string(seed), "--json"});
        ASSERT_EQ(r.exit_status, 0) << r.err;
        const nlohmann::json j = r.json();
        const std::string text = j["text"];
        EXPECT_TRUE(std::regex_match(text, sentence)) << "seed " << seed << ": '" << text << "'";
        EXPECT_EQ(j["stop_reason"], "end_of_generation") << "seed " << seed << ": the grammar was complete";
    }
    const CliRun greedy = run_cli({"generate", "-p", "Add 17 and 26.", "--grammar", g.path, "-n", "40", "--json"});
    ASSERT_EQ(greedy.exit_status, 0) << greedy.err;
    EXPECT_TRUE(std::regex_match(greedy.json()["text"].get<std::string>(), sentence)) << greedy.json()["text"];
}

TEST(CliGrammar, ABudgetTooSmallEndsAsMaxTokensNotAsADocument) {
    const GrammarFile g(R"(root ::= "{\"answer\": " [0-9]+ "}")");
    const CliRun r = run_cli({"generate", "-p", "Add 17 and 26.", "--grammar", g.path, "-n", "3", "--json"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    EXPECT_EQ(r.json()["stop_reason"], "max_tokens");
    const std::string text = r.json()["text"];
    EXPECT_EQ(std::string("{\"answer\": ").rfind(text.substr(0, 11), 0), 0u) << "a prefix of a sentence: " << text;
}

TEST(CliGrammar, ABadGrammarIsAUsageErrorNamingIt) {
    const GrammarFile g("root ::= missing\n");
    const CliRun r = run_cli({"generate", "-p", "x", "--grammar", g.path});
    EXPECT_EQ(r.exit_status, 2);
    EXPECT_NE(r.err.find("'missing' is used but never defined"), std::string::npos) << r.err;
    const CliRun absent = run_cli({"generate", "-p", "x", "--grammar", "/nonexistent/g.gbnf"});
    EXPECT_NE(absent.exit_status, 0);
}

const char* const kPersonSchema = R"({"type": "object", "properties": {
    "name": {"type": "string", "minLength": 1, "maxLength": 12},
    "age": {"type": "integer", "minimum": 0, "maximum": 120},
    "pet": {"enum": ["cat", "dog", "none"]},
    "tags": {"type": "array", "items": {"type": "string", "maxLength": 6}, "maxItems": 2}},
    "required": ["name", "age", "pet"], "additionalProperties": false})";

// generate --json-schema: every output over many seeds parses and keeps every field's rule; with
// --json each token says what the mask removed.
TEST(CliGrammar, JsonSchemaOutputsKeepTheSchemaOverManySeeds) {
    const GrammarFile schema(kPersonSchema);
    for (int seed = 1; seed <= 10; ++seed) {
        const CliRun r = run_cli({"generate", "-p", "Describe a person as JSON.", "--json-schema", schema.path, "-n", "80",
                                  "--temperature", "1.2", "--seed", std::to_string(seed), "--json"});
        ASSERT_EQ(r.exit_status, 0) << r.err;
        const nlohmann::json out = r.json();
        ASSERT_EQ(out["stop_reason"], "end_of_generation") << "seed " << seed << ": " << out["text"];
        const auto doc = nlohmann::json::parse(out["text"].get<std::string>(), nullptr, false);
        ASSERT_TRUE(doc.is_object()) << "seed " << seed << ": " << out["text"];
        for (const auto& [key, v] : doc.items()) {
            EXPECT_TRUE(key == "name" || key == "age" || key == "pet" || key == "tags") << key;
        }
        ASSERT_TRUE(doc.contains("name") && doc.contains("age") && doc.contains("pet")) << doc;
        EXPECT_TRUE(doc["age"].is_number_integer() && doc["age"] >= 0 && doc["age"] <= 120) << doc;
        EXPECT_TRUE(doc["pet"] == "cat" || doc["pet"] == "dog" || doc["pet"] == "none") << doc;
        if (doc.contains("tags")) {
            EXPECT_LE(doc["tags"].size(), 2u) << doc;
        }
        for (const auto& t : out["tokens"]) {
            ASSERT_TRUE(t.contains("constraint"));
            const double removed = t["constraint"]["removed_mass"];
            EXPECT_TRUE(removed >= 0.0 && removed <= 1.0) << removed;
        }
    }
}

// Where the model wanted something else, the mass is large and the first removed token is one
// the schema forbids there; with DLA the subsystems' pull toward it is reported.
TEST(CliGrammar, TheLensShowsWhatTheSchemaRemoved) {
    const GrammarFile schema(R"({"type": "object", "properties": {"pet": {"enum": ["hedgehog"]}}, "required": ["pet"]})");
    const CliRun r = run_cli({"generate", "-p", "Add 17 and 26.", "--json-schema", schema.path, "-n", "30",
                              "--attribution", "dla", "--json"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const nlohmann::json out = r.json();
    EXPECT_EQ(nlohmann::json::parse(out["text"].get<std::string>()), nlohmann::json({{"pet", "hedgehog"}}));
    double most = 0.0;
    bool pulled = false;
    for (const auto& t : out["tokens"]) {
        const auto& c = t["constraint"];
        most = std::max(most, c["removed_mass"].get<double>());
        if (c.contains("removed_pull")) {
            pulled = true;
            EXPECT_EQ(c["removed_pull"].size(), 8u);
            EXPECT_GE(c["removed_mass"].get<double>(), 0.05);
        }
        if (c["removed_mass"].get<double>() > 0.0) {
            ASSERT_FALSE(c["removed"].empty());
            EXPECT_NE(c["removed"][0]["id"], t["id"]) << "the chosen token was not removed";
        }
    }
    EXPECT_GT(most, 0.5) << "an arithmetic prompt does not lead to a hedgehog by itself";
    EXPECT_TRUE(pulled);
}

// generate --engine sends the schema as response_format: an Octoscope server constrains the run
// exactly as the local engine does (greedy: the same document, token for token).
TEST(CliGrammar, ASchemaGoesToTheServer) {
    ServerProcess server({"--threads", "1"});
    ASSERT_GT(server.port(), 0) << server.err();
    const GrammarFile schema(kPersonSchema);
    const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
    const CliRun local = run_cli({"generate", "-p", "Describe someone.", "--json-schema", schema.path, "-n", "80", "--json"});
    const CliRun remote = run_cli({"generate", "--engine", url, "-p", "Describe someone.", "--json-schema", schema.path, "-n", "80", "--json"});
    ASSERT_EQ(local.exit_status, 0) << local.err;
    ASSERT_EQ(remote.exit_status, 0) << remote.err;
    const std::string text = remote.json()["text"];
    EXPECT_EQ(text, local.json()["text"].get<std::string>());
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << text;
    EXPECT_TRUE(doc.contains("name") && doc.contains("age") && doc.contains("pet")) << text;
    EXPECT_EQ(server.stop(), 0) << server.err();
}

TEST(CliGrammar, ABadSchemaIsAUsageErrorNamingTheKeyword) {
    const GrammarFile schema(R"({"type": "object", "properties": {"a": {"type": "array", "uniqueItems": true}}})");
    const CliRun r = run_cli({"generate", "-p", "x", "--json-schema", schema.path});
    EXPECT_EQ(r.exit_status, 2);
    EXPECT_NE(r.err.find("/properties/a/uniqueItems"), std::string::npos) << r.err;
    const GrammarFile g("root ::= [a-z]+\n");
    const CliRun both = run_cli({"generate", "-p", "x", "--json-schema", schema.path, "--grammar", g.path});
    EXPECT_EQ(both.exit_status, 2) << "one constraint at a time";
}

} // namespace
} // namespace octo::test
