// octoscope-cli generate's instrumentation fields on a written model: subsystems and metrics per
// token, the head map's source, ablation, attention recording and the KV pool report.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;

// 8 heads per layer: head k of every layer is subsystem k under the default map.
class CliInstrumentation : public testing::Test {
protected:
    static void SetUpTestSuite() {
        octo::SyntheticModelSpec spec;
        spec.n_head = 8;
        spec.n_head_kv = 4;
        spec.context_length = 128;
        path_ = octo::test::temp_path("instrumented.gguf");
        auto bytes = octo::make_synthetic_model(spec).value();
        std::ofstream(path_, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                     static_cast<std::streamsize>(bytes.size()));
    }
    static void TearDownTestSuite() { std::remove(path_.c_str()); }
    static std::string path_;
};
std::string CliInstrumentation::path_;

void expect_shares(const nlohmann::json& v, const std::string& what) {
    ASSERT_TRUE(v.is_array()) << what;
    ASSERT_EQ(v.size(), 8u) << what;
    double sum = 0.0;
    for (const auto& x : v) {
        EXPECT_GE(x.get<double>(), 0.0) << what;
        sum += x.get<double>();
    }
    EXPECT_NEAR(sum, 1.0, 1e-5) << what;
}

TEST_F(CliInstrumentation, ReportsSubsystemsMetricsHeadMapAndKv) {
    auto run = run_cli({"generate", "--model", path_, "--prompt", "Tell me 12 + 30.", "--max-tokens", "3",
                        "--ignore-eos", "--attribution", "dla", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["metric"], "norm_share");
    EXPECT_EQ(j["head_map"]["source"], "default");
    EXPECT_TRUE(j["head_map"]["path"].is_null());
    const size_t n_prompt = j["prompt_ids"].size();
    ASSERT_EQ(j["prompt_subsystems"].size(), n_prompt);
    for (size_t i = 0; i < n_prompt; ++i) expect_shares(j["prompt_subsystems"][i], "prompt token " + std::to_string(i));
    ASSERT_EQ(j["tokens"].size(), 3u);
    for (const auto& t : j["tokens"]) {
        expect_shares(t["subsystems"], "token");
        EXPECT_EQ(t["subsystems"], t["metrics"]["norm_share"]);
        expect_shares(t["metrics"]["relative"], "relative");
        expect_shares(t["metrics"]["dla"], "dla");
    }
    EXPECT_EQ(j["kv"]["block_size"], 16);
    EXPECT_EQ(j["kv"]["reused_tokens"], 0);
    EXPECT_EQ(j["kv"]["evaluated_tokens"], n_prompt + 2);
    EXPECT_GE(j["kv"]["blocks_total"].get<int>(), 8);
    EXPECT_GE(j["kv"]["blocks_used"].get<int>(), 1);
}

// --logit-lens K: per generated token, each layer's top K at the position that chose it; after
// the last layer the chosen token (greedy) is the top one, with the probability the run gave it;
// with a subsystem ablated the lens is the ablated model's. In text, a table after the answer.
TEST_F(CliInstrumentation, LogitLensPerGeneratedToken) {
    const std::vector<std::string> base = {"generate", "--model", path_, "--prompt", "Tell me 12 + 30.", "--max-tokens", "3",
                                           "--ignore-eos", "--logit-lens", "4", "--json"};
    auto run = run_cli(base);
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    const auto n_prompt = static_cast<int64_t>(j["prompt_ids"].size());
    ASSERT_EQ(j["logit_lens"].size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        const auto& lens = j["logit_lens"][i];
        const auto& token = j["tokens"][i];
        EXPECT_EQ(lens["position"], n_prompt - 1 + static_cast<int64_t>(i));
        EXPECT_EQ(lens["chosen"], token["id"]);
        ASSERT_EQ(lens["layers"].size(), 2u); // the synthetic model's layers
        for (const auto& layer : lens["layers"]) {
            ASSERT_EQ(layer["top"].size(), 4u);
            EXPECT_GE(layer["chosen_rank"].get<int>(), 1);
            EXPECT_GE(layer["top"][0]["prob"].get<double>(), layer["top"][3]["prob"].get<double>());
        }
        const auto& last = lens["layers"].back();
        EXPECT_EQ(last["chosen_rank"], 1);
        EXPECT_EQ(last["top"][0]["token"], token["id"]);
        EXPECT_NEAR(last["chosen_prob"].get<double>(), std::exp(token["logprob"].get<double>()), 1e-5);
    }
    std::vector<std::string> ablated = base;
    ablated.insert(ablated.end(), {"--disable", "rte-a,rte-b,rte-c,rte-d"});
    auto other = run_cli(ablated);
    ASSERT_EQ(other.exit_status, 0) << other.err;
    EXPECT_NE(other.json()["logit_lens"][0]["layers"][0]["top"], j["logit_lens"][0]["layers"][0]["top"]);

    std::vector<std::string> text = base;
    text.pop_back();
    auto table = run_cli(text);
    ASSERT_EQ(table.exit_status, 0) << table.err;
    EXPECT_NE(table.out.find("logit lens:"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("  layer  1  rank 1 "), std::string::npos) << table.out;
    auto zero = run_cli({"generate", "--model", path_, "--prompt", "x", "--logit-lens", "0"});
    EXPECT_NE(zero.exit_status, 0);
}

TEST_F(CliInstrumentation, ZeroAblationSilencesTheSubsystem) {
    auto run = run_cli({"generate", "--model", path_, "--prompt", "abc def", "--max-tokens", "2", "--ignore-eos",
                        "--disable", "rte-c,rte-f", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["ablation"]["disabled"], nlohmann::json({"rte-c", "rte-f"}));
    for (const auto& t : j["tokens"]) {
        EXPECT_EQ(t["subsystems"][2], 0.0);
        EXPECT_EQ(t["subsystems"][5], 0.0);
        EXPECT_GT(t["subsystems"][0].get<double>(), 0.0);
    }
    auto plain = run_cli({"generate", "--model", path_, "--prompt", "abc def", "--max-tokens", "2", "--ignore-eos",
                          "--json"});
    EXPECT_NE(plain.json()["tokens"][0]["logprob"], j["tokens"][0]["logprob"]);
    auto mean = run_cli({"generate", "--model", path_, "--prompt", "abc def", "--max-tokens", "2", "--ignore-eos",
                         "--disable", "rte-c", "--ablation", "mean", "--json"});
    ASSERT_EQ(mean.exit_status, 0) << mean.err;
    EXPECT_GT(mean.json()["tokens"][0]["subsystems"][2].get<double>(), 0.0); // the mean, not zero
}

TEST_F(CliInstrumentation, HeadMapFileAndErrors) {
    const std::string map_path = octo::test::temp_path("map.json");
    nlohmann::json layers = nlohmann::json::array();
    for (int l = 0; l < 2; ++l) layers.push_back({"rte-h", "rte-h", "rte-a", "rte-a", "rte-b", "rte-b", "rte-c", "rte-c"});
    std::ofstream(map_path) << nlohmann::json({{"version", 1}, {"layers", layers}}).dump();
    auto run = run_cli({"generate", "--model", path_, "--prompt", "x", "--max-tokens", "1", "--head-map", map_path,
                        "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["head_map"]["source"], "file");
    EXPECT_EQ(j["head_map"]["path"], map_path);
    EXPECT_EQ(j["empty_subsystems"], nlohmann::json({"rte-d", "rte-e", "rte-f", "rte-g"}));
    EXPECT_EQ(j["tokens"][0]["subsystems"][4], 0.0);

    std::ofstream(map_path) << R"({"version": 1, "layers": [["rte-a"]]})";
    auto bad = run_cli({"generate", "--model", path_, "--prompt", "x", "--head-map", map_path, "--json"});
    EXPECT_EQ(bad.exit_status, 1);
    EXPECT_FALSE(bad.json()["error"].get<std::string>().empty());
    std::remove(map_path.c_str());

    auto unknown = run_cli({"generate", "--model", path_, "--prompt", "x", "--disable", "rte-z", "--json"});
    EXPECT_EQ(unknown.exit_status, 2);
    EXPECT_NE(unknown.json()["error"].get<std::string>().find("rte-z"), std::string::npos);
    auto one_token_mean = run_cli({"generate", "--model", path_, "--prompt", "", "--disable", "rte-a", "--ablation",
                                   "mean", "--json"});
    EXPECT_EQ(one_token_mean.exit_status, 1);
}

TEST_F(CliInstrumentation, RecordsAttention) {
    auto run = run_cli({"generate", "--model", path_, "--prompt", "hello", "--max-tokens", "2", "--ignore-eos",
                        "--record-attention", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    const size_t n_prompt = j["prompt_ids"].size();
    // The first generated token was chosen at the last prompt position, which sees n_prompt positions.
    const auto& a = j["tokens"][0]["attention"];
    ASSERT_EQ(a.size(), 2u * 8u * n_prompt);
    double sum = 0.0;
    for (size_t p = 0; p < n_prompt; ++p) sum += a[p].get<double>();
    EXPECT_NEAR(sum, 1.0, 1e-5);
}

} // namespace
