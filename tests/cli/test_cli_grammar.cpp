// generate --grammar (engine/grammar): every token keeps to the grammar, greedy or sampled with
// any seed; once the grammar is complete only an end-of-generation token can follow; a budget
// too small for a whole sentence ends as max_tokens (a document cut short is never a success);
// a bad grammar is a usage error that names it.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/cli/cli_runner.h"

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
    const GrammarFile ok("root ::= [a-z]+\n");
    const CliRun remote = run_cli({"generate", "-p", "x", "--grammar", ok.path, "--engine", "http://127.0.0.1:9"});
    EXPECT_EQ(remote.exit_status, 2) << "a grammar is not sent to servers yet: " << remote.err;
}

} // namespace
} // namespace octo::test
