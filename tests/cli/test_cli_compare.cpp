// octoscope-cli compare on the built-in model (docs/cli.md): both runs printed as `generate`
// prints them, first_divergence recomputed here from their token ids, the comparison's deltas
// recomputed from the runs' own figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;

nlohmann::json expected_divergence(const nlohmann::json& a, const nlohmann::json& b) {
    const auto& ia = a["generated_ids"];
    const auto& ib = b["generated_ids"];
    const size_t common = std::min(ia.size(), ib.size());
    for (size_t i = 0; i < common; ++i) {
        if (ia[i] != ib[i]) return i;
    }
    return ia.size() == ib.size() ? nlohmann::json(nullptr) : nlohmann::json(common);
}

TEST(CliCompare, SameVariantTwiceIsIdentical) {
    auto run = run_cli({"compare", "--prompt", "What is 12% of 300?", "-n", "6", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_TRUE(j["first_divergence"].is_null());
    EXPECT_EQ(j["a"]["generated_ids"], j["b"]["generated_ids"]);
    for (const auto& d : j["comparison"]["logprob_delta"]) EXPECT_EQ(d.get<double>(), 0.0);
    EXPECT_EQ(j["comparison"]["logprob_delta"].size(), j["a"]["generated_ids"].size());
    // The same answer twice: the advisor's verdict is "no change".
    EXPECT_EQ(j["verdict"]["kind"], "no_change");
    EXPECT_EQ(j["verdict"]["summary"], "No change: both prompts gave the same answer.");
    EXPECT_TRUE(j["verdict"]["worse"].empty());
}

TEST(CliCompare, DisabledSubsystemsInB) {
    auto run = run_cli({"compare", "--prompt", "What is 12% of 300?", "-n", "6", "--disable-b",
                        "rte-a,rte-b,rte-c,rte-d,rte-e,rte-f,rte-g,rte-h", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_TRUE(j["a"]["ablation"]["disabled"].empty());
    EXPECT_EQ(j["b"]["ablation"]["disabled"].size(), 8u);
    EXPECT_EQ(j["first_divergence"], expected_divergence(j["a"], j["b"]));
    // Every head off: B's answer cannot be A's token for token with the same log-probs.
    EXPECT_NE(j["a"]["tokens"][0]["logprob"], j["b"]["tokens"][0]["logprob"]);
    const auto& delta = j["comparison"]["logprob_delta"];
    ASSERT_FALSE(delta.empty());
    EXPECT_NEAR(delta[0].get<double>(),
                j["b"]["tokens"][0]["logprob"].get<double>() - j["a"]["tokens"][0]["logprob"].get<double>(), 1e-9);
    // Mean subsystem shares over the generated tokens, b − a.
    for (size_t k = 0; k < 8; ++k) {
        double mean_a = 0.0, mean_b = 0.0;
        for (const auto& t : j["a"]["tokens"]) mean_a += t["subsystems"][k].get<double>();
        for (const auto& t : j["b"]["tokens"]) mean_b += t["subsystems"][k].get<double>();
        mean_a /= static_cast<double>(j["a"]["tokens"].size());
        mean_b /= static_cast<double>(j["b"]["tokens"].size());
        EXPECT_NEAR(j["comparison"]["subsystems_delta"][k].get<double>(), mean_b - mean_a, 1e-5) << k;
    }
}

TEST(CliCompare, AnotherPromptInB) {
    auto run = run_cli({"compare", "--prompt", "How many min is 3 h?", "--prompt-b", "How many min is 5 h?", "-n", "4",
                        "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_NE(j["a"]["prompt_text"].get<std::string>().find("3 h"), std::string::npos);
    EXPECT_NE(j["b"]["prompt_text"].get<std::string>().find("5 h"), std::string::npos);
    EXPECT_EQ(j["first_divergence"], expected_divergence(j["a"], j["b"]));
    EXPECT_TRUE(j["comparison"]["largest_head_change"].is_object());
}

TEST(CliCompare, BadSubsystemIsAUsageError) {
    auto run = run_cli({"compare", "--prompt", "x", "--disable-b", "rte-z", "--json"});
    EXPECT_NE(run.exit_status, 0);
    EXPECT_NE((run.out + run.err).find("rte-z"), std::string::npos) << run.out << run.err;
}

} // namespace
