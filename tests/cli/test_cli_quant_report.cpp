// octoscope-cli quant-report (docs/cli.md) on two quantisations of one model in ../shared/refdata
// (stories260K F32 and Q4_0): the summary recomputed here from the items it lists, each prompt's
// first divergence against the two answers, the same file on both sides parting nowhere; the
// prompts file as written; the usage errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/cli_runner.h"
#include "tests/support/shared_data.h"

namespace {

using octo::test::run_cli;

TEST(CliQuantReport, TwoQuantisationsOfOneModel) {
    const auto refdata = octo::test::refdata_dir();
    if (!refdata || !std::filesystem::exists(*refdata / "stories260K-q4_0.gguf")) GTEST_SKIP() << "../shared/refdata is absent";
    const std::string f32 = (*refdata / "stories260K.gguf").string(), q4 = (*refdata / "stories260K-q4_0.gguf").string();
    const std::string prompts = octo::test::temp_path("quant-prompts.txt");
    std::ofstream(prompts) << "# three prompts\nOnce upon a time\n\nThe little dog\nLily and Tom\\nwent to";
    auto run = run_cli({"quant-report", "--model", f32, "--model-b", q4, "--prompts", prompts, "-n", "12", "--threads", "1", "--json"});
    std::filesystem::remove(prompts); // read by now: gone whatever the assertions say
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_EQ(j["model_a"], f32);
    EXPECT_EQ(j["model_b"], q4);
    ASSERT_EQ(j["items"].size(), 3u);
    EXPECT_EQ(j["items"][2]["prompt"], "Lily and Tom\nwent to");
    double sum = 0.0, max = 0.0;
    size_t steps = 0, same = 0;
    for (const auto& item : j["items"]) {
        ASSERT_EQ(item["kl"].size(), item["tokens_a"].get<size_t>());
        for (const auto& kl : item["kl"]) {
            EXPECT_GT(kl.get<double>(), 0.0); // Q4_0 is not F32
            sum += kl.get<double>();
            max = std::max(max, kl.get<double>());
            ++steps;
        }
        // The same answer text exactly when no step parted.
        if (item["first_token_divergence"].is_null()) {
            ++same;
            EXPECT_EQ(item["answer_a"], item["answer_b"]);
        } else {
            EXPECT_LE(item["first_token_divergence"].get<size_t>(), std::min(item["tokens_a"].get<size_t>(), item["tokens_b"].get<size_t>()));
        }
    }
    EXPECT_EQ(j["steps"], steps);
    EXPECT_EQ(j["same_answers"], same);
    EXPECT_NEAR(j["mean_kl"].get<double>(), sum / static_cast<double>(steps), 1e-12);
    EXPECT_EQ(j["max_kl"].get<double>(), max);
    ASSERT_EQ(j["groups_moved"].size(), 8u);

    auto itself = run_cli({"quant-report", "--model", q4, "--model-b", q4, "-p", "Once upon a time", "-p", "The cat", "-n", "8",
                           "--threads", "1", "--json"});
    ASSERT_EQ(itself.exit_status, 0) << itself.err;
    const auto k = itself.json();
    EXPECT_EQ(k["same_answers"], 2);
    EXPECT_EQ(k["mean_kl"].get<double>(), 0.0);
    EXPECT_EQ(k["top_agreement"].get<double>(), 1.0);
    for (const auto& g : k["groups_moved"]) EXPECT_EQ(g["delta"].get<double>(), 0.0);

    auto text = run_cli({"quant-report", "--model", f32, "--model-b", q4, "-p", "Once upon a time", "-n", "6", "--threads", "1"});
    ASSERT_EQ(text.exit_status, 0) << text.err;
    EXPECT_NE(text.out.find("most probable tokens agree at"), std::string::npos) << text.out;
}

// A mixture of experts (../shared/refdata/archs' mixtral-tiny): how often the same experts were
// chosen where the context is the same; a file against itself routes identically.
TEST(CliQuantReport, ExpertRoutingOfTwoQuantisations) {
    const auto refdata = octo::test::refdata_dir();
    if (!refdata || !std::filesystem::exists(*refdata / "archs" / "mixtral-tiny-q4_k_m.gguf")) GTEST_SKIP() << "../shared/refdata is absent";
    const std::string f32 = (*refdata / "archs" / "mixtral-tiny-f32.gguf").string();
    const std::string q4 = (*refdata / "archs" / "mixtral-tiny-q4_k_m.gguf").string();
    auto compare = run_cli({"compare", "--model", f32, "--model-b", q4, "-p", "Once upon a time", "-n", "8", "--threads", "1", "--json"});
    ASSERT_EQ(compare.exit_status, 0) << compare.err;
    const auto j = compare.json();
    const auto& c = j["comparison"];
    ASSERT_TRUE(c["expert_overlap"].is_array());
    double sum = 0.0;
    size_t layers = 0;
    for (const auto& v : c["expert_overlap"]) {
        if (v.get<double>() < 0.0) continue; // a dense layer
        EXPECT_LE(v.get<double>(), 1.0);
        sum += v.get<double>();
        ++layers;
    }
    ASSERT_GT(layers, 0u);
    EXPECT_NEAR(c["mean_expert_overlap"].get<double>(), sum / static_cast<double>(layers), 1e-12);
    EXPECT_LT(c["mean_expert_overlap"].get<double>(), 1.0); // Q4_K_M routes some positions elsewhere
    auto itself = run_cli({"quant-report", "--model", q4, "--model-b", q4, "-p", "Once upon a time", "-n", "6", "--threads", "1", "--json"});
    ASSERT_EQ(itself.exit_status, 0) << itself.err;
    EXPECT_EQ(itself.json()["mean_expert_overlap"].get<double>(), 1.0);
    EXPECT_EQ(itself.json()["items"][0]["expert_overlap"].get<double>(), 1.0);
}

TEST(CliQuantReport, UsageErrors) {
    auto none = run_cli({"quant-report", "--model-b", "/nonexistent/b.gguf", "--json"});
    EXPECT_EQ(none.exit_status, 2);
    EXPECT_NE(none.out.find("--prompt"), std::string::npos) << none.out;
    auto missing_file = run_cli({"quant-report", "--model-b", "/nonexistent/b.gguf", "--prompts", "/nonexistent/p.txt", "--json"});
    EXPECT_EQ(missing_file.exit_status, 1);
    EXPECT_NE(missing_file.out.find("/nonexistent/p.txt"), std::string::npos) << missing_file.out;
    auto missing_b = run_cli({"quant-report", "--model-b", "/nonexistent/b.gguf", "-p", "x", "--json"});
    EXPECT_EQ(missing_b.exit_status, 1);
    EXPECT_NE(missing_b.out.find("--model-b"), std::string::npos) << missing_b.out;
    auto no_b = run_cli({"quant-report", "-p", "x"});
    EXPECT_EQ(no_b.exit_status, 2);
}

} // namespace
