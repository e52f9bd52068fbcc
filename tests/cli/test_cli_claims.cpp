// octoscope-cli claims (docs/claims.md): the JSON contract, the report folder, a claim alone
// reproducing the full run's value, errors, and Ctrl+C ending the run with what finished.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "tests/cli/cli_runner.h"
#include "tests/support/shared_data.h"

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
    EXPECT_TRUE(ids.contains("multi-turn-coherence"));
    for (const auto& c : j["claims"]) {
        if (c["id"] == "multi-turn-coherence") {
            EXPECT_EQ(c["protocol"], "multi_turn") << "measured since conversations arrived";
        }
        if (c["id"] == "annotator-agreement") {
            EXPECT_TRUE(c["protocol"].is_null());
            EXPECT_NE(c["not_measurable_here"].get<std::string>().find("No people were asked"), std::string::npos) << c;
        }
    }
}

TEST(CliClaims, WhatCannotBeMeasuredHereIsListedWithItsReason) {
    const std::string dir = temp_path("claims-unmeasurable");
    const auto r = run_cli({"claims", "--claim", "annotator-agreement", "--claim", "router-accuracy", "--items", "2", "--json",
                            "--report", dir, "--chinese"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const auto j = r.json();
    ASSERT_EQ(j["claims"].size(), 2u);
    const auto& listed = j["claims"][0];
    EXPECT_EQ(listed["verdict"], "not measurable here");
    EXPECT_TRUE(listed["measured"].is_null());
    EXPECT_TRUE(listed["holds_if"].is_null());
    EXPECT_NE(listed["reason"].get<std::string>().find("No people were asked"), std::string::npos);
    EXPECT_FALSE(listed["reason_zh"].get<std::string>().empty());
    EXPECT_FALSE(listed.contains("test")) << "no decision, so not in Holm's family";
    EXPECT_EQ(j["claims"][1]["test"]["holm_family"], 1);
    std::ifstream md(std::filesystem::path(dir) / "report.md");
    std::stringstream text;
    text << md.rdbuf();
    EXPECT_NE(text.str().find("无法在此测量 — 没有请人来标注"), std::string::npos) << text.str();
    std::filesystem::remove_all(dir);
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
    const std::set<std::string> verdicts = {"holds", "does not hold", "inconclusive", "not measurable on this model", "uninformative"};
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
        EXPECT_GT(c["ci95"][1].get<double>(), c["ci95"][0].get<double>()) << c["id"] << ": never a zero-width interval";
        EXPECT_FALSE(c["interval_method"].get<std::string>().empty()) << c["id"];
        if (c["verdict"] == "uninformative") {
            EXPECT_FALSE(c["reason"].get<std::string>().empty()) << c["id"];
        }
    }
    EXPECT_EQ(j["claims"][0]["interval_method"], "Wilson score");
    EXPECT_EQ(j["claims"][2]["interval_method"], "Newcombe paired (method 10)");
    EXPECT_TRUE(j["claims"][2]["mcnemar_exact_p"].is_number());
    EXPECT_EQ(j["claims"][0]["n"], 24) << "3 dev probes per subsystem";
    EXPECT_EQ(j["claims"][2]["n"], 3) << "3 rte-c items";
    // The 4- and 16-group variants ship in resources/octet/variants: "why 8" is measured.
    EXPECT_NE(j["claims"][3]["verdict"], "not measurable on this model") << j["claims"][3].value("reason", "");
    EXPECT_EQ(j["claims"][3]["n"], 24) << "3 items per subsystem";

    for (const char* f : {"report.md", "claims.csv", "router-accuracy-probes.csv", "rte-c-after-number-tokens.csv",
                          "compute-beats-analyse-items.csv", "router-accuracy-verdict.svg", "rte-c-after-number-verdict.svg"}) {
        EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / f)) << f;
    }
    std::ifstream md(std::filesystem::path(dir) / "report.md");
    std::stringstream text;
    text << md.rdbuf();
    EXPECT_NE(text.str().find("| router-accuracy | 78.3 % |"), std::string::npos) << text.str().substr(0, 2000);
    EXPECT_NE(text.str().find("![router-accuracy verdict](router-accuracy-verdict.svg)"), std::string::npos);
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

TEST(CliClaims, AShortContextModelCompletesTheRun) {
    // stories260K holds 128 tokens: the claims whose prompts are longer are "not measurable" with
    // the reason, and every other claim still runs (it used to exit 1 and lose the finished ones).
    const auto dir = octo::test::refdata_dir();
    if (!dir || !std::filesystem::exists(*dir / "stories260K.gguf")) GTEST_SKIP() << "../shared/refdata is absent";
    const auto r = run_cli({"claims", "-m", (*dir / "stories260K.gguf").string(), "--items", "2", "--threads", "2", "--json"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const auto j = r.json();
    EXPECT_TRUE(j["complete"].get<bool>());
    const auto listed = run_cli({"claims", "--list", "--json"}).json()["claims"].size();
    ASSERT_EQ(j["claims"].size(), listed);
    bool context_named = false;
    size_t measured = 0;
    for (const auto& c : j["claims"]) {
        if (c["verdict"] == "not measurable on this model") {
            context_named = context_named || c["reason"].get<std::string>().find("context holds 128") != std::string::npos;
        } else {
            ++measured;
        }
    }
    EXPECT_TRUE(context_named) << "a prompt past the context is named as the reason";
    EXPECT_GE(measured, 2u) << "the router's claims and the A/B claims still run";
}

TEST(CliClaims, ARandomWeightModelEarnsNoHolds) {
    // olmoe-tiny (../shared/refdata/archs) has random weights. Its calibrated expert map tells the
    // probes apart only as well as units that respond to token identity alone, so its JSON flag is
    // false and the lab does not read subsystem shares through it; with the fixed seed and
    // α = 0.05 (and Holm over the run) no claim about the model holds. The router's and the KV
    // pool's claims do not depend on the model and say so.
    const auto dir = octo::test::refdata_dir();
    const auto model = dir ? *dir / "archs" / "olmoe-tiny-f32.gguf" : std::filesystem::path();
    if (!dir || !std::filesystem::exists(model)) GTEST_SKIP() << "../shared/refdata is absent";
    const std::string data = temp_path("claims-random-data");
    setenv("XDG_DATA_HOME", data.c_str(), 1); // where calibrate saves the expert map
    const auto cal = run_cli({"calibrate", "--experts", "-m", model.string(), "--threads", "2", "--json"});
    const auto r = run_cli({"claims", "-m", model.string(), "--items", "6", "--seed", "1", "--threads", "2", "--json"});
    unsetenv("XDG_DATA_HOME");
    std::filesystem::remove_all(data);
    ASSERT_EQ(cal.exit_status, 0) << cal.err;
    const auto c = cal.json();
    EXPECT_FALSE(c["experts_specialise"].get<bool>()) << "separation " << c["separation"] << ", token-identity null "
                                                       << c["token_null_separation"];
    EXPECT_GT(c["separation"].get<double>(), c["null_separation"].get<double>() + 0.05)
        << "it does beat shuffled labels — which is why that null alone was not enough";
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const auto j = r.json();
    EXPECT_EQ(j["map"], "calibrated expert map");
    bool nulls_named = false;
    for (const auto& claim : j["claims"]) {
        if (claim["subject"] != "model") {
            EXPECT_NE(claim["verdict_line"].get<std::string>().find("not the loaded model"), std::string::npos) << claim["id"];
            continue;
        }
        // latency-bimodal times this machine, which other tests load at the same time (ctest -j): a
        // second mode of its times there would be real — the load's, not the model's — so its
        // verdict is not asserted here (alone: 0.66 [0.45, 1.05] of the dip null's 95 % point).
        if (claim["id"] == "latency-bimodal") continue;
        EXPECT_NE(claim["verdict"], "holds") << claim["id"] << ": " << claim["verdict_line"];
        if (claim["id"] == "rte-a-at-start") {
            EXPECT_EQ(claim["verdict"], "not measurable on this model");
            nulls_named = claim.value("reason", "").find("does not beat its nulls") != std::string::npos;
        }
    }
    EXPECT_TRUE(nulls_named) << "the subsystem claims say the map is not earned";
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
    const auto listed = run_cli({"claims", "--list", "--json"}).json()["claims"].size();
    ASSERT_EQ(j["claims"].size(), listed) << "every claim is listed, run or not";
    size_t finished = 0, not_run = 0;
    for (const auto& c : j["claims"]) {
        if (c["verdict"] == "not run") {
            ++not_run;
            EXPECT_TRUE(c["measured"].is_null());
        } else {
            EXPECT_EQ(not_run, 0u) << "finished claims come first";
            ++finished;
        }
    }
    EXPECT_GE(finished, 1u);
    EXPECT_GE(not_run, 1u);
    std::filesystem::remove(out);
}

} // namespace
