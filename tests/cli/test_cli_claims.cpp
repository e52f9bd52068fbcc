// octoscope-cli claims (docs/claims.md): the JSON contract, the report folder, a claim alone
// reproducing the full run's value, errors, and Ctrl+C ending the run with what finished.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;
using octo::test::temp_path;

TEST(CliClaims, ListNamesEveryClaim) {
    const auto r = run_cli({"claims", "--list", "--json"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const auto j = r.json();
    ASSERT_GE(j["claims"].size(), 15u);
    std::set<std::string> ids;
    for (const auto& c : j["claims"]) ids.insert(c["id"].get<std::string>());
    EXPECT_TRUE(ids.contains("rte-c-after-number"));
    EXPECT_TRUE(ids.contains("why-eight-groups"));
}

TEST(CliClaims, JsonContractAndReport) {
    const std::string dir = temp_path("claims-report");
    const auto r = run_cli({"claims", "--claim", "router-accuracy", "--claim", "rte-c-after-number", "--claim", "compute-beats-analyse",
                            "--claim", "why-eight-groups", "--items", "3", "--seed", "9", "--threads", "2", "--json", "--report", dir});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const auto j = r.json();
    EXPECT_NE(j["model"].get<std::string>().find("octet"), std::string::npos);
    EXPECT_EQ(j["map"], "head map stored in the GGUF file");
    EXPECT_NE(j["note"].get<std::string>().find("GPT-4"), std::string::npos);
    EXPECT_EQ(j["seed"], 9);
    EXPECT_TRUE(j["complete"].get<bool>());
    ASSERT_EQ(j["claims"].size(), 4u);
    const std::set<std::string> verdicts = {"holds", "does not hold", "inconclusive", "not measurable on this model"};
    for (const auto& c : j["claims"]) {
        for (const char* key : {"id", "title", "title_zh", "section", "text", "article_figure", "measured", "ci95", "n", "verdict", "method", "details"}) {
            EXPECT_TRUE(c.contains(key)) << c["id"] << " lacks " << key;
        }
        EXPECT_FALSE(c["article_figure"].is_null()) << c["id"];
        EXPECT_TRUE(verdicts.contains(c["verdict"].get<std::string>())) << c["verdict"];
        if (c["verdict"] == "not measurable on this model") {
            EXPECT_TRUE(c["measured"].is_null());
            EXPECT_FALSE(c["reason"].get<std::string>().empty());
            continue;
        }
        const double m = c["measured"].get<double>();
        EXPECT_LE(c["ci95"][0].get<double>(), m) << c["id"];
        EXPECT_GE(c["ci95"][1].get<double>(), m) << c["id"];
        EXPECT_GT(c["n"].get<int>(), 0) << c["id"];
    }
    EXPECT_EQ(j["claims"][0]["n"], 24) << "3 dev probes per subsystem";
    EXPECT_EQ(j["claims"][2]["n"], 3) << "3 rte-c items";
    // The 4- and 16-group variants ship in resources/octet/variants: "why 8" is measured.
    EXPECT_NE(j["claims"][3]["verdict"], "not measurable on this model") << j["claims"][3].value("reason", "");
    EXPECT_EQ(j["claims"][3]["n"], 24) << "3 items per subsystem";

    for (const char* f : {"report.md", "claims.csv", "router-accuracy-probes.csv", "rte-c-after-number-tokens.csv",
                          "compute-beats-analyse-items.csv"}) {
        EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / f)) << f;
    }
    std::ifstream md(std::filesystem::path(dir) / "report.md");
    std::stringstream text;
    text << md.rdbuf();
    EXPECT_NE(text.str().find("| router-accuracy | 78.3 % |"), std::string::npos) << text.str().substr(0, 2000);
    std::filesystem::remove_all(dir);

    // The same claim alone: the same value and interval.
    const auto alone = run_cli({"claims", "--claim", "compute-beats-analyse", "--items", "3", "--seed", "9", "--json"});
    ASSERT_EQ(alone.exit_status, 0) << alone.err;
    EXPECT_EQ(alone.json()["claims"][0]["measured"], j["claims"][2]["measured"]);
    EXPECT_EQ(alone.json()["claims"][0]["ci95"], j["claims"][2]["ci95"]);
}

TEST(CliClaims, UnknownClaimIsAUsageError) {
    const auto r = run_cli({"claims", "--claim", "gpt4-is-eight-models", "--json"});
    EXPECT_EQ(r.exit_status, 2);
    EXPECT_NE(r.json()["error"].get<std::string>().find("gpt4-is-eight-models"), std::string::npos);
}

TEST(CliClaims, BrokenClaimsFileIsAClearError) {
    const std::string file = temp_path("claims.json");
    std::ofstream(file) << R"({"version": 1, "claims": [{"id": "x"}]})";
    const auto r = run_cli({"claims", "--claims-file", file, "--json"});
    EXPECT_EQ(r.exit_status, 1);
    EXPECT_NE(r.json()["error"].get<std::string>().find("claim \"x\""), std::string::npos) << r.out;
    std::filesystem::remove(file);
}

TEST(CliClaims, InterruptStopsWithWhatFinished) {
    // SIGINT after the first claims: exit status 130 and the finished claims in the JSON.
    const std::string out = temp_path("claims-interrupted.json");
    const std::string cmd = "timeout --preserve-status -s INT 4 '" + std::string(OCTOSCOPE_CLI_PATH) + "' claims --threads 2 --json > '" + out + "' 2>/dev/null";
    const int status = std::system(cmd.c_str());
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    std::ifstream in(out);
    const auto j = nlohmann::json::parse(in);
    EXPECT_FALSE(j["complete"].get<bool>());
    EXPECT_GE(j["claims"].size(), 1u);
    EXPECT_LT(j["claims"].size(), 15u);
    std::filesystem::remove(out);
}

} // namespace
