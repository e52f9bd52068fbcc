// octoscope-cli route and eval-router on the shipped probe set and rule file (docs/cli.md).
// Covers: app/cli/cmd_route.cpp, app/cli/cmd_eval_router.cpp, app/cli/cmd_calibrate.cpp
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;

TEST(CliRoute, DecisionWithEvidence) {
    const std::string prompt = "计算苹果2023年营收同比增长率";
    auto run = run_cli({"route", "--prompt", prompt, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["route"], "rte-c");
    ASSERT_EQ(j["top3"].size(), 3u);
    for (const auto& c : j["top3"]) {
        EXPECT_TRUE(c.contains("stage1") && c.contains("stage2") && c.contains("score"));
    }
    ASSERT_EQ(j["scores"].size(), 8u);
    double total = 0.0;
    for (const auto& c : j["composition"]) total += c.get<double>();
    EXPECT_NEAR(total, 1.0, 1e-9);
    bool digits = false;
    for (const auto& f : j["features"]) {
        for (const auto& s : f["spans"]) {
            const size_t start = s["start"], end = s["end"];
            EXPECT_EQ(prompt.substr(start, end - start), s["text"].get<std::string>()); // UTF-8 byte offsets
            digits = digits || s["text"] == "2023";
        }
    }
    EXPECT_TRUE(digits);
    auto missing = run_cli({"route", "--prompt", "x", "--embedding", "model", "--model", "/nonexistent.gguf", "--json"});
    EXPECT_EQ(missing.exit_status, 1);
}

TEST(CliEvalRouter, AccuracyPerClassAndConfusion) {
    auto run = run_cli({"eval-router", "--data", std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/probes/probes_dev.jsonl",
                        "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_GE(j["n"].get<int>(), 240);
    EXPECT_GE(j["accuracy"].get<double>(), 0.90); // the target (docs/router.md: 95.8% measured)
    // Without the concept dimensions stage 1 is character n-grams alone: it is weaker, and
    // stage 2 lifts it.
    auto ngrams = run_cli({"eval-router", "--data", std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/probes/probes_dev.jsonl",
                           "--concept-weight", "0", "--json"});
    ASSERT_EQ(ngrams.exit_status, 0) << ngrams.err;
    auto n = ngrams.json();
    EXPECT_LT(n["stage1_accuracy"].get<double>(), j["stage1_accuracy"].get<double>());
    EXPECT_GT(n["accuracy"].get<double>(), n["stage1_accuracy"].get<double>() + 0.1);
    ASSERT_EQ(j["confusion"].size(), 8u);
    int64_t total = 0;
    for (const auto& row : j["confusion"]) {
        for (const auto& v : row) total += v.get<int64_t>();
    }
    EXPECT_EQ(total, j["n"].get<int64_t>());
    EXPECT_TRUE(j["per_class"]["rte-e"].contains("precision"));
    auto bad = run_cli({"eval-router", "--data", "/nonexistent.jsonl", "--json"});
    EXPECT_EQ(bad.exit_status, 1);
}

} // namespace

#include <cstdlib>
#include <fstream>

#include "engine/model/synthetic_model.h"

namespace {

TEST(CliCalibrate, WritesAMapThatLaterRunsUse) {
    const std::string dir = octo::test::temp_path("calibrate");
    std::filesystem::create_directories(dir);
    ASSERT_EQ(setenv("XDG_DATA_HOME", (dir + "/data").c_str(), 1), 0); // inherited by the CLI
    octo::SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    const std::string model = dir + "/m.gguf";
    {
        auto bytes = octo::make_synthetic_model(spec).value();
        std::ofstream(model, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    octo::test::write_probe_files(dir);
    auto run = run_cli({"calibrate", "--model", model, "--train", dir + "/train.jsonl", "--dev", dir + "/dev.jsonl", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["n_train"], 24);
    EXPECT_EQ(j["n_dev"], 8);
    EXPECT_GE(j["separation"].get<double>(), 0.0);
    EXPECT_LE(j["separation"].get<double>(), 1.0);
    EXPECT_TRUE(std::filesystem::exists(j["map_path"].get<std::string>()));
    auto gen = run_cli({"generate", "--model", model, "--prompt", "x", "-n", "1", "--json"});
    EXPECT_EQ(gen.json()["head_map"]["source"], "calibrated");
    EXPECT_EQ(gen.json()["head_map"]["path"], j["map_path"]);
    unsetenv("XDG_DATA_HOME");
    std::filesystem::remove_all(dir);
}

void write_probes(const std::string& path, int per_subsystem, const std::string& stem) {
    const char* ids[] = {"rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h"};
    std::ofstream out(path);
    for (int s = 0; s < 8; ++s) {
        for (int i = 0; i < per_subsystem; ++i) {
            out << "{\"text\": \"" << stem << " " << s << " number " << i << "\", \"lang\": \"en\", \"label\": \"" << ids[s]
                << "\"}\n";
        }
    }
}

TEST(CliRouterCache, ModelCentroidsCachedPerModelLayerAndProbeSet) {
    const std::filesystem::path dir = octo::test::temp_path("router-cache");
    std::filesystem::create_directories(dir);
    ASSERT_EQ(setenv("XDG_DATA_HOME", (dir / "data").c_str(), 1), 0); // inherited by the CLI
    const std::string model = (dir / "m.gguf").string();
    {
        auto bytes = octo::make_synthetic_model(octo::SyntheticModelSpec{}).value();
        std::ofstream(model, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    const std::vector<std::string> route = {"route", "--prompt", "What is 12% of 80?", "--embedding", "model",
                                            "--model", model, "--json"};
    const auto with = [](std::vector<std::string> args, std::initializer_list<std::string> more) {
        args.insert(args.end(), more);
        return args;
    };
    const auto first = run_cli(route);
    ASSERT_EQ(first.exit_status, 0) << first.err;
    EXPECT_EQ(first.json()["embedding"], "model");
    EXPECT_EQ(first.json()["centroids"], "computed");
    const auto second = run_cli(route);
    EXPECT_EQ(second.json()["centroids"], "cached");
    for (const char* field : {"route", "top3", "scores", "composition"}) EXPECT_EQ(second.json()[field], first.json()[field]) << field;
    EXPECT_EQ(run_cli(with(route, {"--layer", "0"})).json()["centroids"], "computed"); // another layer
    EXPECT_EQ(run_cli(with(route, {"--no-cache"})).json()["centroids"], "computed");
    EXPECT_EQ(run_cli(route).json()["centroids"], "cached");

    // A corrupt cache file is ignored: recomputed, rewritten, then read again.
    for (const auto& f : std::filesystem::directory_iterator(dir / "data" / "octoscope" / "router-centroids")) {
        std::ofstream(f.path(), std::ios::trunc) << "{\"version\": 1, \"centroids\": [[0.1,";
    }
    const auto repaired = run_cli(route);
    EXPECT_EQ(repaired.json()["centroids"], "computed");
    EXPECT_EQ(repaired.json()["scores"], first.json()["scores"]);
    EXPECT_EQ(run_cli(route).json()["centroids"], "cached");

    // eval-router: the same cache, keyed by the train probes it fits on.
    const std::string train = (dir / "train.jsonl").string(), dev = (dir / "dev.jsonl").string();
    write_probes(train, 2, "probe");
    write_probes(dev, 1, "dev probe");
    const std::vector<std::string> eval = {"eval-router", "--data", dev, "--train", train, "--embedding", "model",
                                           "--model", model, "--json"};
    const auto e1 = run_cli(eval);
    ASSERT_EQ(e1.exit_status, 0) << e1.err;
    EXPECT_EQ(e1.json()["embedding"], "model");
    EXPECT_EQ(e1.json()["centroids"], "computed");
    const auto e2 = run_cli(eval);
    EXPECT_EQ(e2.json()["centroids"], "cached");
    EXPECT_EQ(e2.json()["confusion"], e1.json()["confusion"]);
    EXPECT_EQ(e2.json()["stage1_confusion"], e1.json()["stage1_confusion"]);
    write_probes(train, 3, "probe"); // another probe set
    EXPECT_EQ(run_cli(eval).json()["centroids"], "computed");

    // The lexical embedding is never cached.
    const auto lexical = run_cli({"route", "--prompt", "What is 12% of 80?", "--json"});
    EXPECT_EQ(lexical.json()["embedding"], "lexical");
    EXPECT_EQ(lexical.json()["centroids"], "computed");
    unsetenv("XDG_DATA_HOME");
    std::filesystem::remove_all(dir);
}

} // namespace
