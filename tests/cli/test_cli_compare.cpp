// octoscope-cli compare on the built-in model (docs/cli.md): both runs printed as `generate`
// prints them, first_divergence recomputed here from their token ids, the comparison's deltas
// recomputed from the runs' own figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"
#include "tests/support/shared_data.h"

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

// --model-b: two quantisations of one model (../shared/refdata's stories260K, F32 and Q4_0): the
// first divergence recomputed from both runs' ids, a KL divergence per step of A's tokens, and the
// same file on both sides giving KL 0 at every step.
TEST(CliCompare, AcrossQuantisationsOfOneModel) {
    const auto refdata = octo::test::refdata_dir();
    if (!refdata || !std::filesystem::exists(*refdata / "stories260K-q4_0.gguf")) GTEST_SKIP() << "../shared/refdata is absent";
    const std::string f32 = (*refdata / "stories260K.gguf").string(), q4 = (*refdata / "stories260K-q4_0.gguf").string();
    auto run = run_cli({"compare", "--model", f32, "--model-b", q4, "--prompt", "Once upon a time", "-n", "24", "--threads", "1", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_TRUE(j["same_vocabulary"].get<bool>());
    EXPECT_EQ(j["first_divergence"], expected_divergence(j["a"], j["b"]));
    const auto& d = j["divergence"];
    const size_t steps = j["a"]["generated_ids"].size();
    ASSERT_EQ(d["kl"].size(), steps);
    double sum = 0.0, max = 0.0;
    for (const auto& kl : d["kl"]) {
        EXPECT_GE(kl.get<double>(), 0.0);
        sum += kl.get<double>();
        max = std::max(max, kl.get<double>());
    }
    EXPECT_NEAR(d["mean_kl"].get<double>(), sum / static_cast<double>(steps), 1e-12);
    EXPECT_EQ(d["max_kl"].get<double>(), max);
    EXPECT_GT(max, 0.0); // Q4_0 is not F32
    // Greedy A: its top token is its chosen one, so where B's run still follows A's tokens and
    // chose the same token, the most probable tokens agreed.
    const nlohmann::json first = j["first_divergence"];
    const size_t same = first.is_null() ? steps : first.get<size_t>();
    for (size_t i = 0; i < same; ++i) EXPECT_TRUE(d["top_agrees"][i].get<bool>()) << "step " << i;
    if (!first.is_null() && first.get<size_t>() < steps) {
        EXPECT_FALSE(d["top_agrees"][first.get<size_t>()].get<bool>());
    }
    ASSERT_EQ(j["groups_moved"].size(), 8u);
    EXPECT_GE(std::abs(j["groups_moved"][0]["delta"].get<double>()), std::abs(j["groups_moved"][7]["delta"].get<double>()));

    auto itself = run_cli({"compare", "--model", q4, "--model-b", q4, "--prompt", "Once upon a time", "-n", "8", "--threads", "1", "--json"});
    ASSERT_EQ(itself.exit_status, 0) << itself.err;
    const auto k = itself.json();
    EXPECT_TRUE(k["first_divergence"].is_null());
    for (const auto& kl : k["divergence"]["kl"]) EXPECT_EQ(kl.get<double>(), 0.0);
    EXPECT_EQ(k["divergence"]["top_agreement"], 1.0);

    // Another vocabulary: aligned by text, no KL; a missing file is named.
    const std::string ascii = octo::test::temp_path("ascii-vocab.gguf"); // a synthetic model: printable ASCII tokens
    {
        octo::SyntheticModelSpec spec;
        spec.context_length = 64;
        const auto bytes = octo::make_synthetic_model(spec).value();
        std::ofstream(ascii, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    auto other = run_cli({"compare", "--model", f32, "--model-b", ascii, "--prompt", "Once upon a time", "-n", "4", "--threads", "1", "--json"});
    std::filesystem::remove(ascii);
    ASSERT_EQ(other.exit_status, 0) << other.err;
    EXPECT_FALSE(other.json()["same_vocabulary"].get<bool>());
    EXPECT_TRUE(other.json()["divergence"].is_null());
    auto missing = run_cli({"compare", "--model", f32, "--model-b", "/nonexistent/b.gguf", "--prompt", "x", "--json"});
    EXPECT_NE(missing.exit_status, 0);
    EXPECT_NE(missing.out.find("--model-b"), std::string::npos) << missing.out << missing.err;
}

} // namespace
