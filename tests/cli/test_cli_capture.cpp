// octoscope-cli generate --save-capture, replay and capture-info on written random-weight
// models: a capture repeats identically on the CPU backend; a changed setting or recorded token
// is reported as a divergence; another model file, a corrupt or a future capture is refused.
// Covers: app/cli/cmd_capture_info.cpp, app/cli/cmd_replay.cpp
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "engine/capture/capture_io.h"
#include "engine/core/le_bytes.h"
#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;
using octo::test::temp_path;

std::string write_model(const octo::SyntheticModelSpec& spec, const std::string& name) {
    const std::string path = temp_path(name);
    auto bytes = octo::make_synthetic_model(spec).value();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                static_cast<std::streamsize>(bytes.size()));
    return path;
}

class CliCapture : public testing::Test {
protected:
    static void SetUpTestSuite() {
        data_dir_ = temp_path("capture-data");
        setenv("XDG_DATA_HOME", data_dir_.c_str(), 1); // model SHA-256 index of the runs below
        octo::SyntheticModelSpec spec;
        spec.n_head = 8;
        spec.n_head_kv = 4;
        spec.context_length = 128;
        model_ = write_model(spec, "capture-model.gguf");
        spec.seed = 2; // same size, other weights
        twin_ = write_model(spec, "capture-twin.gguf");
        spec.n_layer = 3;
        bigger_ = write_model(spec, "capture-bigger.gguf");
    }
    static void TearDownTestSuite() {
        for (const auto& p : {model_, twin_, bigger_}) std::remove(p.c_str());
        std::filesystem::remove_all(data_dir_);
        unsetenv("XDG_DATA_HOME");
    }

    // generate --save-capture; returns generate's JSON.
    static nlohmann::json generate(const std::string& capture, std::vector<std::string> extra = {}) {
        std::vector<std::string> args = {"generate", "--model", model_, "--prompt", "Tell me 12 + 30.", "--max-tokens",
                                         "6", "--ignore-eos", "--save-capture", capture, "--json"};
        args.insert(args.end(), extra.begin(), extra.end());
        auto run = run_cli(args);
        EXPECT_EQ(run.exit_status, 0) << run.err;
        return run.json();
    }

    static std::string data_dir_, model_, twin_, bigger_;
};
std::string CliCapture::data_dir_, CliCapture::model_, CliCapture::twin_, CliCapture::bigger_;

TEST_F(CliCapture, ReplayOfAGreedyRunIsIdentical) {
    const std::string capture = temp_path("greedy.octo");
    const auto generated = generate(capture, {"--attribution", "dla"});
    auto replay = run_cli({"replay", capture, "--json"});
    ASSERT_EQ(replay.exit_status, 0) << replay.err;
    auto j = replay.json();
    EXPECT_EQ(j["identical"], true);
    EXPECT_TRUE(j["first_divergence"].is_null());
    EXPECT_EQ(j["prompt_identical"], true);
    EXPECT_EQ(j["tokens_compared"], 6);
    EXPECT_EQ(j["replayed_text"], generated["text"]);
    EXPECT_EQ(j["model"], std::filesystem::absolute(model_).lexically_normal().string());
    std::remove(capture.c_str());
}

TEST_F(CliCapture, ReplayOfASampledRunIsIdentical) {
    const std::string capture = temp_path("sampled.octo");
    generate(capture, {"--temperature", "0.9", "--seed", "11", "--top-k", "20", "--disable", "rte-b"});
    auto j = run_cli({"replay", capture, "--model", model_, "--threads", "1", "--json"}).json();
    EXPECT_EQ(j["identical"], true) << j.dump();
    std::remove(capture.c_str());
}

// The default cache is F16 at reference precision and F32 at exact. A run records the types it
// took (not "default"), and replay opens the model with them: identical only then (the F32
// capture replayed with the default F16 cache would differ in its logprobs).
TEST_F(CliCapture, ReplayRepeatsTheKvTypes) {
    const std::string capture = temp_path("f32-kv.octo");
    const auto f32 = generate(capture, {"--kv-type", "f32", "--precision", "reference"});
    const std::string plain = temp_path("default-kv.octo");
    const auto by_default = generate(plain, {"--precision", "reference"});
    const std::string f16_capture = temp_path("f16-kv.octo");
    const auto f16 = generate(f16_capture, {"--kv-type-k", "f16", "--kv-type-v", "f16", "--precision", "reference"});
    EXPECT_NE(f32["tokens"][0]["logprob"], by_default["tokens"][0]["logprob"]) << "the cache type changes the numbers";
    EXPECT_EQ(f16["tokens"][0]["logprob"], by_default["tokens"][0]["logprob"]) << "reference precision: f16 by default";
    auto c = octo::open_capture(capture);
    ASSERT_TRUE(c.ok()) << c.error().message;
    const octo::RunSpec spec = c->trace.repeat_spec();
    EXPECT_EQ(spec.kv_type_k, octo::TensorType::F32);
    EXPECT_EQ(spec.kv_type_v, octo::TensorType::F32);
    auto p = octo::open_capture(plain);
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(p->trace.repeat_spec().kv_type_k, octo::TensorType::F16) << "the type taken, not \"default\"";
    EXPECT_EQ(p->trace.repeat_spec().kv_type_v, octo::TensorType::F16);
    const std::string exact = temp_path("exact-kv.octo");
    generate(exact, {"--precision", "exact"});
    auto e = octo::open_capture(exact);
    ASSERT_TRUE(e.ok()) << e.error().message;
    EXPECT_EQ(e->trace.repeat_spec().kv_type_k, octo::TensorType::F32) << "exact precision: f32 by default";
    std::remove(exact.c_str());
    std::remove(f16_capture.c_str());
    auto j = run_cli({"replay", capture, "--json"}).json();
    EXPECT_EQ(j["identical"], true) << j.dump();
    auto bad = run_cli({"generate", "--model", model_, "--prompt", "x", "--kv-type", "q4_k"});
    EXPECT_EQ(bad.exit_status, 2);
    // a quantised cache is recorded and repeated too
    const std::string q8 = temp_path("q8-kv.octo");
    generate(q8, {"--kv-type-k", "q8_0", "--kv-type-v", "q4_0"});
    auto q = octo::open_capture(q8);
    ASSERT_TRUE(q.ok()) << q.error().message;
    EXPECT_EQ(q->trace.repeat_spec().kv_type_k, octo::TensorType::Q8_0);
    EXPECT_EQ(q->trace.repeat_spec().kv_type_v, octo::TensorType::Q4_0);
    EXPECT_EQ(run_cli({"replay", q8, "--json"}).json()["identical"], true);
    std::remove(q8.c_str());
    std::remove(capture.c_str());
    std::remove(plain.c_str());
}

TEST_F(CliCapture, CaptureHoldsWhatGenerateReported) {
    const std::string capture = temp_path("info.octo");
    const auto generated = generate(capture, {"--record-attention"});
    auto c = octo::open_capture(capture);
    ASSERT_TRUE(c.ok()) << c.error().message;
    const auto tokens = c->trace.generated();
    ASSERT_EQ(tokens.size(), generated["tokens"].size());
    for (size_t i = 0; i < tokens.size(); ++i) {
        EXPECT_EQ(tokens[i].id, generated["generated_ids"][i]);
        ASSERT_TRUE(tokens[i].logprobs);
        EXPECT_EQ(tokens[i].logprobs->logprob, generated["tokens"][i]["logprob"].get<double>());
        EXPECT_EQ(tokens[i].probe.attention, generated["tokens"][i]["attention"].get<std::vector<float>>());
    }
    ASSERT_EQ(c->trace.n_prompt, generated["prompt_ids"].size());
    EXPECT_EQ(c->trace.spec.prompt, "Tell me 12 + 30.");
    EXPECT_EQ(c->trace.spec.max_tokens, 6);
    EXPECT_FALSE(c->trace.spec.stop_at_eog);
    EXPECT_TRUE(c->trace.spec.record_attention);
    EXPECT_EQ(c->model.n_layer, 2);
    EXPECT_EQ(c->model.n_head, 8);
    EXPECT_EQ(c->model.size, std::filesystem::file_size(model_));
    EXPECT_EQ(c->model.sha256.size(), 64u);
    EXPECT_EQ(c->backend, generated["backend"]);
    ASSERT_TRUE(c->head_map.has_value());
    EXPECT_EQ(c->head_map->describe(), generated["head_map"]);

    auto info = run_cli({"capture-info", capture, "--json"});
    ASSERT_EQ(info.exit_status, 0) << info.err;
    auto j = info.json();
    EXPECT_EQ(j["generated_tokens"], 6);
    EXPECT_EQ(j["text"], generated["text"]);
    EXPECT_EQ(j["file_bytes"], std::filesystem::file_size(capture));
    EXPECT_GT(j["payload_bytes"].get<uint64_t>(), 0u);
    EXPECT_EQ(j["attention"], true);
    std::remove(capture.c_str());
}

TEST_F(CliCapture, ChangedSettingIsReportedAsADivergence) {
    const std::string capture = temp_path("changed.octo");
    generate(capture);
    auto c = octo::open_capture(capture).value();
    c.trace.spec.max_tokens = 4; // the re-run stops two tokens earlier
    ASSERT_TRUE(octo::save_capture(c, capture).ok());
    auto j = run_cli({"replay", capture, "--json"}).json();
    EXPECT_EQ(j["identical"], false);
    EXPECT_EQ(j["first_divergence"], 4);
    EXPECT_EQ(j["replayed_tokens"], 4);
    EXPECT_EQ(j["recorded_tokens"], 6);

    c.trace.spec.max_tokens = 6;
    octo::TraceToken& third = c.trace.tokens[c.trace.n_prompt + 2];
    third.id = (third.id + 1) % 90; // the record says otherwise
    ASSERT_TRUE(octo::save_capture(c, capture).ok());
    j = run_cli({"replay", capture, "--json"}).json();
    EXPECT_EQ(j["identical"], false);
    EXPECT_EQ(j["first_divergence"], 2);
    EXPECT_EQ(j["recorded_token"]["id"], third.id);

    c = octo::open_capture(capture).value();
    c.trace.spec.prompt = "Something else entirely";
    ASSERT_TRUE(octo::save_capture(c, capture).ok());
    j = run_cli({"replay", capture, "--json"}).json();
    EXPECT_EQ(j["identical"], false);
    EXPECT_EQ(j["prompt_identical"], false);
    std::remove(capture.c_str());
}

TEST_F(CliCapture, AnotherModelFileIsRefused) {
    const std::string capture = temp_path("mismatch.octo");
    generate(capture);
    auto twin = run_cli({"replay", capture, "--model", twin_, "--json"});
    EXPECT_EQ(twin.exit_status, 1);
    const std::string sha_error = twin.json()["error"];
    EXPECT_NE(sha_error.find("is not the captured model"), std::string::npos) << sha_error;
    EXPECT_NE(sha_error.find("SHA-256"), std::string::npos) << sha_error;
    auto bigger = run_cli({"replay", capture, "--model", bigger_, "--json"});
    EXPECT_EQ(bigger.exit_status, 1);
    EXPECT_NE(bigger.json()["error"].get<std::string>().find("bytes"), std::string::npos);
    auto missing = run_cli({"replay", capture, "--model", temp_path("no-such-model.gguf"), "--json"});
    EXPECT_EQ(missing.exit_status, 1);
    std::remove(capture.c_str());
}

TEST_F(CliCapture, CorruptAndFutureCapturesAreRefused) {
    const std::string capture = temp_path("corrupt.octo");
    generate(capture);
    std::vector<char> bytes;
    {
        std::ifstream in(capture, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    auto write = [&](const std::vector<char>& b) {
        std::ofstream(capture, std::ios::binary | std::ios::trunc).write(b.data(), static_cast<std::streamsize>(b.size()));
    };
    std::vector<char> flipped = bytes;
    flipped[flipped.size() / 2] ^= 1;
    write(flipped);
    for (const char* cmd : {"replay", "capture-info"}) {
        auto run = run_cli({cmd, capture, "--json"});
        EXPECT_EQ(run.exit_status, 1) << cmd;
        const std::string e = run.json()["error"];
        EXPECT_NE(e.find(capture), std::string::npos) << e;
        EXPECT_NE(e.find("checksum"), std::string::npos) << e;
    }
    std::vector<char> future = bytes;
    octo::store_le32(reinterpret_cast<uint8_t*>(future.data()) + 8, 7);
    write(future);
    auto run = run_cli({"replay", capture, "--json"});
    EXPECT_EQ(run.exit_status, 1);
    EXPECT_NE(run.json()["error"].get<std::string>().find("capture format version 7 is newer than this Octoscope supports"),
              std::string::npos);
    std::remove(capture.c_str());
}

} // namespace
