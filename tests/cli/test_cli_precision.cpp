// --precision reference|exact on the commands that run a model (docs/cli.md, "Precision"): the
// model's default without it (reference for llama, exact for the built-in octet), the precision
// taken in the JSON, other log-probs on a Q8_0 model, a usage error for anything else; captures
// record it, capture-info shows it, replay repeats it, and a version-1 capture replays as exact.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "engine/capture/capture_container.h"
#include "engine/capture/capture_io.h"
#include "engine/capture/capture_payload.h"
#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;
using octo::test::temp_path;

class CliPrecision : public testing::Test {
protected:
    static void SetUpTestSuite() {
        data_dir_ = temp_path("precision-data");
        setenv("XDG_DATA_HOME", data_dir_.c_str(), 1); // model SHA-256 index of the captures
        octo::SyntheticModelSpec spec;
        spec.weight_type = octo::TensorType::Q8_0; // reference quantises the activations to Q8_0
        spec.n_head = 8;
        spec.n_head_kv = 4;
        spec.context_length = 128;
        model_ = temp_path("precision-q8.gguf");
        auto bytes = octo::make_synthetic_model(spec).value();
        std::ofstream(model_, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    static void TearDownTestSuite() {
        std::remove(model_.c_str());
        std::filesystem::remove_all(data_dir_);
        unsetenv("XDG_DATA_HOME");
    }

    static nlohmann::json generate(std::vector<std::string> extra) {
        std::vector<std::string> args = {"generate", "--model", model_, "--prompt", "Tell me 12 + 30.",
                                         "--max-tokens", "4", "--ignore-eos", "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto run = run_cli(args);
        EXPECT_EQ(run.exit_status, 0) << run.err;
        return run.json();
    }

    static std::string data_dir_, model_;
};
std::string CliPrecision::data_dir_, CliPrecision::model_;

TEST_F(CliPrecision, GenerateReportsThePrecisionItTook) {
    const auto by_default = generate({});
    const auto reference = generate({"--precision", "reference"});
    const auto exact = generate({"--precision", "exact"});
    EXPECT_EQ(by_default["precision"], "reference") << "a llama model's default";
    EXPECT_EQ(reference["precision"], "reference");
    EXPECT_EQ(exact["precision"], "exact");
    EXPECT_EQ(by_default["tokens"][0]["logprob"], reference["tokens"][0]["logprob"]);
    EXPECT_NE(reference["tokens"][0]["logprob"], exact["tokens"][0]["logprob"]) << "Q8_0 activations change the logits";

    auto octet = run_cli({"generate", "--prompt", "What is 2 + 3?", "--max-tokens", "1", "--json"});
    ASSERT_EQ(octet.exit_status, 0) << octet.err;
    EXPECT_EQ(octet.json()["precision"], "exact") << "the built-in octet model's default";
}

TEST_F(CliPrecision, AnotherValueIsAUsageError) {
    const std::string data = temp_path("precision-tasks.jsonl");
    std::ofstream(data) << R"({"prompt": "1+1=", "answer": "2", "subsystem": "rte-c"})" << '\n';
    const std::vector<std::vector<std::string>> commands = {
        {"generate", "--model", model_, "--prompt", "hi"},
        {"eval", "--model", model_, "--data", data},
        {"compare", "--model", model_, "--prompt", "hi"},
        {"calibrate", "--model", model_},
        {"route", "--prompt", "hi", "--embedding", "model", "--model", model_},
        {"eval-router", "--data", data, "--embedding", "model", "--model", model_},
    };
    for (auto args : commands) {
        args.insert(args.end(), {"--precision", "fast", "--json"});
        auto run = run_cli(args);
        EXPECT_EQ(run.exit_status, 2) << args[0];
        const std::string e = run.json()["error"];
        EXPECT_NE(e.find("--precision"), std::string::npos) << args[0] << ": " << e;
        EXPECT_NE(e.find("reference"), std::string::npos) << args[0] << ": " << e;
        EXPECT_NE(e.find("exact"), std::string::npos) << args[0] << ": " << e;
    }
    auto b = run_cli({"compare", "--model", model_, "--prompt", "hi", "--precision-b", "float", "--json"});
    EXPECT_EQ(b.exit_status, 2);
    EXPECT_NE(b.json()["error"].get<std::string>().find("--precision-b"), std::string::npos) << b.out;
    std::remove(data.c_str());
}

TEST_F(CliPrecision, EvalAndCompareTakeIt) {
    const std::string data = temp_path("precision-eval.jsonl");
    std::ofstream(data) << R"({"prompt": "1+1=", "answer": "2", "subsystem": "rte-c"})" << '\n';
    for (const char* p : {"reference", "exact"}) {
        auto eval = run_cli({"eval", "--model", model_, "--data", data, "--max-tokens", "2", "--precision", p, "--json"});
        ASSERT_EQ(eval.exit_status, 0) << eval.err;
        EXPECT_EQ(eval.json()["precision"], p);
    }
    std::remove(data.c_str());

    auto compare = run_cli({"compare", "--model", model_, "--prompt", "Tell me 12 + 30.", "--max-tokens", "2",
                            "--precision", "exact", "--precision-b", "reference", "--json"});
    ASSERT_EQ(compare.exit_status, 0) << compare.err;
    const auto j = compare.json();
    EXPECT_EQ(j["a"]["precision"], "exact");
    EXPECT_EQ(j["b"]["precision"], "reference");
    EXPECT_NE(j["a"]["tokens"][0]["logprob"], j["b"]["tokens"][0]["logprob"]);
    auto same = run_cli({"compare", "--model", model_, "--prompt", "hi", "--max-tokens", "1", "--precision", "exact", "--json"});
    ASSERT_EQ(same.exit_status, 0) << same.err;
    EXPECT_EQ(same.json()["b"]["precision"], "exact") << "B takes A's unless --precision-b";
}

TEST_F(CliPrecision, CaptureRecordsItAndReplayRepeatsIt) {
    const std::string capture = temp_path("precision.octo");
    generate({"--precision", "exact", "--save-capture", capture});
    auto c = octo::open_capture(capture);
    ASSERT_TRUE(c.ok()) << c.error().message;
    EXPECT_EQ(c->trace.precision, octo::Precision::Exact);
    EXPECT_EQ(c->trace.spec.precision, octo::Precision::Exact);

    auto info = run_cli({"capture-info", capture, "--json"});
    ASSERT_EQ(info.exit_status, 0) << info.err;
    EXPECT_EQ(info.json()["settings"]["precision"], "exact");
    EXPECT_EQ(info.json()["format_version"], octo::kCaptureFormatVersion);
    auto text = run_cli({"capture-info", capture});
    EXPECT_NE(text.out.find("exact precision"), std::string::npos) << text.out;

    auto replay = run_cli({"replay", capture, "--json"});
    ASSERT_EQ(replay.exit_status, 0) << replay.err;
    EXPECT_EQ(replay.json()["precision"], "exact") << "not the model's default";
    EXPECT_EQ(replay.json()["identical"], true) << replay.out;

    // The default run records what it took, not "the default".
    generate({"--save-capture", capture});
    EXPECT_EQ(octo::open_capture(capture).value().trace.precision, octo::Precision::Reference);
    EXPECT_EQ(run_cli({"replay", capture, "--json"}).json()["precision"], "reference");
    std::remove(capture.c_str());
}

// A capture written before the precision existed (format version 1, no settings.precision):
// its run kept the activations in float, so it reads and replays as exact.
TEST_F(CliPrecision, VersionOneCaptureReplaysAsExact) {
    const std::string capture = temp_path("precision-v1.octo");
    generate({"--precision", "exact", "--save-capture", capture});
    nlohmann::json payload = octo::encode_capture(octo::open_capture(capture).value());
    payload["settings"].erase("precision");
    const std::vector<uint8_t> cbor = nlohmann::json::to_cbor(payload);
    const std::string old = octo::pack_capture_container({reinterpret_cast<const char*>(cbor.data()), cbor.size()}, 1).value();
    std::ofstream(capture, std::ios::binary | std::ios::trunc).write(old.data(), static_cast<std::streamsize>(old.size()));

    auto info = run_cli({"capture-info", capture, "--json"});
    ASSERT_EQ(info.exit_status, 0) << info.err;
    EXPECT_EQ(info.json()["format_version"], 1) << "the file's version, not this build's";
    EXPECT_EQ(info.json()["settings"]["precision"], "exact");
    auto replay = run_cli({"replay", capture, "--json"});
    ASSERT_EQ(replay.exit_status, 0) << replay.err;
    EXPECT_EQ(replay.json()["precision"], "exact");
    EXPECT_EQ(replay.json()["identical"], true) << replay.out;
    std::remove(capture.c_str());
}

} // namespace
