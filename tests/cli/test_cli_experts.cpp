// octoscope-cli on a mixture of experts (docs/moe.md): generate --json reports every position's
// routing and the experts' load, --disable-expert takes experts out of the routers' choice, and a
// capture stores the routing that replay then compares.
#include <gtest/gtest.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "engine/capture/capture_io.h"
#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;
using octo::test::temp_path;

constexpr int kLayers = 2, kExperts = 8, kUsed = 2;

class CliExperts : public testing::Test {
protected:
    static void SetUpTestSuite() {
        data_dir_ = temp_path("experts-data");
        setenv("XDG_DATA_HOME", data_dir_.c_str(), 1); // the captures' model index
        octo::SyntheticModelSpec spec{.architecture = "qwen2moe", .n_embd = 256, .n_ff = 128, .n_head = 4, .n_head_kv = 2,
                                      .n_layer = kLayers, .context_length = 128, .seed = 5};
        spec.n_expert = kExperts;
        spec.n_expert_used = kUsed;
        spec.n_ff_exp = 64;
        spec.router_spread = 1.0f;
        model_ = temp_path("experts-model.gguf");
        auto bytes = octo::make_synthetic_model(spec).value();
        std::ofstream(model_, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                      static_cast<std::streamsize>(bytes.size()));
    }
    static void TearDownTestSuite() {
        std::remove(model_.c_str());
        std::filesystem::remove_all(data_dir_);
        unsetenv("XDG_DATA_HOME");
    }

    static octo::test::CliRun generate(std::vector<std::string> extra) {
        std::vector<std::string> args = {"generate", "--model", model_, "--prompt", "Tell me 12 + 30.", "--max-tokens", "5",
                                         "--ignore-eos", "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_cli(args);
    }

    static std::string data_dir_, model_;
};
std::string CliExperts::data_dir_, CliExperts::model_;

// The layers' choices of one position as generate printed them.
void expect_routing(const nlohmann::json& experts, bool with_probs) {
    ASSERT_EQ(experts.size(), static_cast<size_t>(kLayers));
    for (int l = 0; l < kLayers; ++l) {
        const nlohmann::json& layer = experts[static_cast<size_t>(l)];
        EXPECT_EQ(layer["layer"], l);
        ASSERT_EQ(layer["chosen"].size(), static_cast<size_t>(kUsed));
        EXPECT_GT(layer["shared_gate"].get<double>(), 0.0);
        EXPECT_EQ(layer.contains("probs"), with_probs);
        if (!with_probs) continue;
        ASSERT_EQ(layer["probs"].size(), static_cast<size_t>(kExperts));
        for (const auto& c : layer["chosen"]) { // qwen2moe applies the probabilities as they are
            EXPECT_EQ(c["weight"], layer["probs"][c["id"].get<size_t>()]);
        }
    }
}

TEST_F(CliExperts, GenerateReportsEveryPositionsRoutingAndTheLoad) {
    const auto run = generate({"--record-router-probs"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    ASSERT_EQ(j["tokens"].size(), 5u);
    for (const auto& t : j["tokens"]) expect_routing(t["experts"], true);
    ASSERT_EQ(j["prompt_experts"].size(), j["prompt_ids"].size());
    for (const auto& p : j["prompt_experts"]) expect_routing(p, true);
    // The last prompt position chose the first token: the same routing.
    EXPECT_EQ(j["prompt_experts"].back(), j["tokens"][0]["experts"]);
    const size_t positions = j["prompt_ids"].size() + 5 - 1;
    EXPECT_EQ(j["expert_load"]["positions"], positions);
    for (const auto& layer : j["expert_load"]["layers"]) {
        int64_t sum = 0;
        for (const auto& n : layer) sum += n.get<int64_t>();
        EXPECT_EQ(sum, static_cast<int64_t>(positions) * kUsed);
    }
    const auto plain = generate({});
    ASSERT_EQ(plain.exit_status, 0);
    expect_routing(plain.json()["tokens"][0]["experts"], false);
}

TEST_F(CliExperts, DisabledExpertsAreNeverChosen) {
    const auto before = generate({}).json();
    // the busiest expert of layer 0
    const auto& load = before["expert_load"]["layers"][0];
    const auto busiest = std::max_element(load.begin(), load.end()) - load.begin();
    const std::string every_layer = "*:" + std::to_string(busiest);
    const auto run = generate({"--disable-expert", every_layer, "--disable-expert", "1:0"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_EQ(j["ablation"]["experts"], (nlohmann::json{every_layer, "1:0"}));
    for (int l = 0; l < kLayers; ++l) EXPECT_EQ(j["expert_load"]["layers"][l][busiest], 0);
    EXPECT_EQ(j["expert_load"]["layers"][1][0], 0);
    EXPECT_NE(j["prompt_experts"], before["prompt_experts"]);

    const auto missing = generate({"--disable-expert", "2:0"});
    EXPECT_EQ(missing.exit_status, 1);
    EXPECT_NE(missing.json()["error"].get<std::string>().find("expert 2:0 does not exist"), std::string::npos);
    const auto malformed = generate({"--disable-expert", "first"});
    EXPECT_EQ(malformed.exit_status, 2);
    EXPECT_NE(malformed.json()["error"].get<std::string>().find("LAYER:EXPERT"), std::string::npos);
}

TEST_F(CliExperts, CapturesKeepTheRoutingAndReplayComparesIt) {
    const std::string capture = temp_path("experts.octo");
    const auto run = generate({"--disable-expert", "*:3", "--record-router-probs", "--save-capture", capture});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto c = octo::open_capture(capture);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->model.n_expert, kExperts);
    EXPECT_EQ(c->model.n_expert_used, kUsed);
    EXPECT_EQ(c->trace.spec.disabled_experts, (std::vector<octo::ExpertSwitch>{{-1, 3}}));
    EXPECT_TRUE(c->trace.spec.record_router_probs);
    const auto generated = c->trace.generated();
    ASSERT_EQ(generated.size(), 5u);
    const nlohmann::json first = run.json()["tokens"][0]["experts"];
    for (int l = 0; l < kLayers; ++l) {
        for (int k = 0; k < kUsed; ++k) {
            EXPECT_EQ(generated[0].probe.expert_ids[static_cast<size_t>(l * kUsed + k)], first[l]["chosen"][k]["id"]);
        }
    }
    EXPECT_EQ(generated[0].probe.router_probs.size(), static_cast<size_t>(kLayers * kExperts));
    EXPECT_EQ(generated[0].probe.shared_gate.size(), static_cast<size_t>(kLayers));

    auto replay = run_cli({"replay", capture, "--json"});
    ASSERT_EQ(replay.exit_status, 0) << replay.err;
    EXPECT_EQ(replay.json()["identical"], true) << replay.out;
    EXPECT_EQ(replay.json()["routing_identical"], true);

    // A capture whose second prompt position recorded other experts: the tokens repeat, the
    // routing does not, and replay says where.
    octo::Capture edited = c.value();
    std::swap(edited.trace.tokens[1].probe.expert_ids[0], edited.trace.tokens[1].probe.expert_ids[1]);
    ASSERT_TRUE(octo::save_capture(edited, capture));
    replay = run_cli({"replay", capture, "--json"});
    ASSERT_EQ(replay.exit_status, 0) << replay.err;
    const auto j = replay.json();
    EXPECT_EQ(j["identical"], false);
    EXPECT_TRUE(j["first_divergence"].is_null());
    EXPECT_EQ(j["routing_identical"], false);
    EXPECT_EQ(j["first_routing_divergence"], 1);
    const auto text = run_cli({"replay", capture});
    EXPECT_NE(text.out.find("position 1 (prompt first) chose other experts"), std::string::npos) << text.out;
    std::remove(capture.c_str());
}

// calibrate --experts maps each layer's experts to subsystems on a probe set (one expert per
// subsystem here: 8 experts), says whether they beat the shuffled-label null, and later runs fill
// the experts metric from it.
TEST_F(CliExperts, CalibratedExpertsFeedTheExpertsMetric) {
    const std::string dir = temp_path("experts-probes");
    std::filesystem::create_directories(dir);
    const char* ids[] = {"rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h"};
    octo::test::write_probe_files(dir);
    const auto before = generate({"--metric", "experts"});
    EXPECT_EQ(before.exit_status, 2);
    EXPECT_NE(before.json()["error"].get<std::string>().find("calibrate --experts"), std::string::npos);

    auto run = run_cli({"calibrate", "--experts", "--model", model_, "--train", dir + "/train.jsonl", "--dev",
                        dir + "/dev.jsonl", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_EQ(j["n_train"], 24);
    EXPECT_NE(j["map_path"].get<std::string>().find(".experts.json"), std::string::npos);
    const auto& layers = j["expert_map"]["layers"];
    ASSERT_EQ(layers.size(), static_cast<size_t>(kLayers));
    for (const auto& layer : layers) { // 8 experts, 8 subsystems: one each
        ASSERT_EQ(layer.size(), static_cast<size_t>(kExperts));
        std::set<std::string> seen;
        for (const auto& id : layer) seen.insert(id.get<std::string>());
        EXPECT_EQ(seen.size(), 8u);
    }
    const double separation = j["separation"], null_separation = j["null_separation"], token_null = j["token_null_separation"];
    EXPECT_EQ(j["experts_specialise"], separation >= std::max(null_separation, token_null) + 0.05 && separation > 0.125);
    EXPECT_EQ(j["map_earned"], j["experts_specialise"]);
    const auto text = run_cli({"calibrate", "--experts", "--model", model_, "--train", dir + "/train.jsonl", "--dev",
                               dir + "/dev.jsonl"});
    EXPECT_NE(text.out.find(j["experts_specialise"].get<bool>() ? "the experts specialise" : "the experts do not specialise"),
              std::string::npos)
        << text.out;

    // The experts metric: each subsystem's share of the routing weight of its experts.
    const auto gen = generate({"--metric", "experts"});
    ASSERT_EQ(gen.exit_status, 0) << gen.err;
    const auto g = gen.json();
    EXPECT_EQ(g["metric"], "experts");
    for (const auto& t : g["tokens"]) {
        std::map<std::string, double> share;
        double total = 0.0;
        for (int l = 0; l < kLayers; ++l) {
            for (const auto& c : t["experts"][l]["chosen"]) {
                share[layers[l][c["id"].get<size_t>()].get<std::string>()] += c["weight"].get<double>();
                total += c["weight"].get<double>();
            }
        }
        ASSERT_EQ(t["subsystems"], t["metrics"]["experts"]);
        for (int s = 0; s < 8; ++s) EXPECT_NEAR(t["subsystems"][s].get<double>(), share[ids[s]] / total, 1e-6) << ids[s];
    }

    // The subsystem switches on experts: rte-c's experts (one per layer) are never chosen, its
    // heads keep running.
    const auto off = generate({"--disable", "rte-c", "--disable-target", "experts"});
    ASSERT_EQ(off.exit_status, 0) << off.err;
    const auto o = off.json();
    EXPECT_EQ(o["ablation"]["target"], "experts");
    for (int l = 0; l < kLayers; ++l) {
        for (int e = 0; e < kExperts; ++e) {
            if (layers[l][e] == "rte-c") {
                EXPECT_EQ(o["expert_load"]["layers"][l][e], 0) << l << ":" << e;
            }
        }
    }
    EXPECT_GT(o["tokens"][0]["metrics"]["norm_share"][2].get<double>(), 0.0);
    const auto heads = generate({"--disable", "rte-c"}).json();
    EXPECT_EQ(heads["ablation"]["target"], "heads");
    EXPECT_EQ(heads["tokens"][0]["metrics"]["norm_share"][2].get<double>(), 0.0);
    std::filesystem::remove_all(dir);
}

} // namespace
