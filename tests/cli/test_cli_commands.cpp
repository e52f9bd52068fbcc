// octoscope-cli info, bench, paths and the error conventions of docs/cli.md.
// Covers: app/cli/cmd_info.cpp, app/cli/cmd_paths.cpp
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/gguf/gguf_writer.h"
#include "tests/cli/cli_runner.h"
#include "engine/model/synthetic_model.h"

namespace {

using octo::test::run_cli;

std::string write_bytes(const std::vector<uint8_t>& bytes, const std::string& name) {
    const std::string path = octo::test::temp_path(name);
    std::FILE* f = std::fopen(path.c_str(), "wb");
    EXPECT_NE(f, nullptr);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
    return path;
}

TEST(CliInfo, ReportsHyperparametersAndTensorTypes) {
    octo::SyntheticModelSpec spec;
    spec.weight_type = octo::TensorType::Q8_0;
    spec.n_layer = 3;
    const std::string path = write_bytes(octo::make_synthetic_model(spec).value(), "info.gguf");
    auto run = run_cli({"info", "--model", path, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["architecture"], "llama");
    EXPECT_EQ(j["n_layer"], 3);
    EXPECT_EQ(j["n_head"], spec.n_head);
    EXPECT_EQ(j["n_head_kv"], spec.n_head_kv);
    EXPECT_EQ(j["n_embd"], spec.n_embd);
    EXPECT_EQ(j["n_vocab"], spec.n_vocab);
    EXPECT_EQ(j["context_length"], spec.context_length);
    // 7 matrices per layer + embedding + output are Q8_0; 2 norms per layer + output norm are F32.
    EXPECT_EQ(j["tensor_types"]["Q8_0"], 7 * 3 + 2);
    EXPECT_EQ(j["tensor_types"]["F32"], 2 * 3 + 1);
    EXPECT_EQ(j["unsupported"], nlohmann::json::array());
    EXPECT_EQ(j["n_params"], octo::synthetic_parameter_count(spec));
    EXPECT_TRUE(j["load_error"].is_null()) << j["load_error"];
    for (const char* key : {"tokenizer", "pre", "load_error"}) EXPECT_TRUE(j.contains(key)) << key;
    std::filesystem::remove(path);
}

// What opening the file would take, before any run: the whole trained context by default, the
// KV types a run would take (F16 at llama's reference precision), and the estimate's parts.
TEST(CliInfo, ShowsTheContextAndMemoryBeforeARun) {
    octo::SyntheticModelSpec spec;
    spec.n_layer = 3;
    spec.context_length = 8192;
    const std::string path = write_bytes(octo::make_synthetic_model(spec).value(), "info-memory.gguf");
    auto run = run_cli({"info", "--model", path, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto m = run.json()["memory"];
    ASSERT_TRUE(m.is_object()) << m.dump();
    EXPECT_EQ(m["context"], 8192) << "the whole context, not 4096";
    EXPECT_EQ(m["context_shortened"], false);
    EXPECT_EQ(m["kv_types"]["k"], "f16");
    EXPECT_EQ(m["kv_types"]["v"], "f16");
    const int64_t n_embd_kv = spec.n_head_kv * (spec.n_embd / spec.n_head);
    EXPECT_EQ(m["kv_bytes"], 3 * 8192 * n_embd_kv * (2 + 2));
    EXPECT_EQ(m["total_bytes"].get<uint64_t>(),
              m["weights_bytes"].get<uint64_t>() + m["kv_bytes"].get<uint64_t>() + m["scratch_bytes"].get<uint64_t>());
    auto asked = run_cli({"info", "--model", path, "--ctx-size", "100", "--kv-type-k", "f32", "--json"});
    ASSERT_EQ(asked.exit_status, 0) << asked.err;
    EXPECT_EQ(asked.json()["memory"]["kv_bytes"], 3 * 100 * n_embd_kv * (4 + 2));
    auto text = run_cli({"info", "--model", path});
    EXPECT_NE(text.out.find("memory: context 8192, KV f16/f16: weights"), std::string::npos) << text.out;
    std::filesystem::remove(path);
}

TEST(CliInfo, ListsTheArchitecturesFeatures) {
    octo::SyntheticModelSpec spec;
    spec.architecture = "phi3";
    spec.sliding_window = 63;
    const std::string path = write_bytes(octo::make_synthetic_model(spec).value(), "phi3.gguf");
    auto run = run_cli({"info", "--model", path, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["architecture"], "phi3");
    EXPECT_EQ(j["supported"], true);
    EXPECT_EQ(j["features"], (nlohmann::json{"NeoX RoPE", "fused QKV", "fused gate/up", "grouped-query attention (2 KV heads)",
                                             "sliding window 63"}));
    auto text = run_cli({"info", "--model", path});
    EXPECT_NE(text.out.find("features:\n  - NeoX RoPE\n  - fused QKV\n"), std::string::npos) << text.out;
    std::filesystem::remove(path);
}

TEST(CliInfo, UnsupportedArchitectureIsOneSentence) {
    octo::GgufWriter w;
    w.add_string("general.architecture", "mamba");
    w.add_tensor_raw("blk.0.ffn_down.weight", {256, 2}, 10 /* Q2_K */, std::vector<uint8_t>(2 * 84));
    const std::string path = write_bytes(w.to_bytes(), "mamba.gguf");
    auto run = run_cli({"info", "--model", path, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["supported"], false);
    EXPECT_TRUE(j["features"].is_null());
    EXPECT_EQ(j["load_error"], "architecture 'mamba' is not supported (supported: llama, qwen2, qwen3, phi3, gemma2, gemma3, qwen2moe, olmoe, qwen3moe, gpt-oss, deepseek2, octet)");
    std::filesystem::remove(path);
}

// ggml's internal activation types (Q8_1, Q8_K) are recognised by name but never weights.
TEST(CliInfo, NamesUnsupportedTypes) {
    octo::GgufWriter w;
    w.add_string("general.architecture", "llama");
    w.add_tensor_raw("blk.0.ffn_down.weight", {256, 2}, 15 /* Q8_K */, std::vector<uint8_t>(2 * 292));
    w.add_tensor_raw("blk.0.ffn_up.weight", {32, 2}, 9 /* Q8_1 */, std::vector<uint8_t>(2 * 36));
    const std::string path = write_bytes(w.to_bytes(), "unsupported.gguf");
    auto run = run_cli({"info", "--model", path, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["unsupported"], (nlohmann::json{"Q8_1", "Q8_K"}));
    EXPECT_EQ(j["tensor_types"]["Q8_K"], 1);
    const std::string load_error = j["load_error"];
    EXPECT_NE(load_error.find("'blk.0.ffn_down.weight' has type Q8_K"), std::string::npos) << load_error;
    std::filesystem::remove(path);
}

// The low-bit types of the usual downloads are listed and none is unsupported.
TEST(CliInfo, ListsTheLowBitTypes) {
    octo::GgufWriter w;
    w.add_string("general.architecture", "llama");
    w.add_tensor_raw("blk.0.ffn_down.weight", {256, 2}, 10 /* Q2_K */, std::vector<uint8_t>(2 * 84));
    w.add_tensor_raw("blk.0.ffn_up.weight", {32, 2}, 20 /* IQ4_NL */, std::vector<uint8_t>(2 * 18));
    w.add_tensor_raw("blk.0.ffn_gate.weight", {256, 2}, 19 /* IQ1_S */, std::vector<uint8_t>(2 * 50));
    const std::string path = write_bytes(w.to_bytes(), "low_bit.gguf");
    auto run = run_cli({"info", "--model", path, "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["unsupported"], nlohmann::json::array());
    EXPECT_EQ(j["tensor_types"], (nlohmann::json{{"IQ1_S", 1}, {"IQ4_NL", 1}, {"Q2_K", 1}}));
    std::filesystem::remove(path);
}

TEST(CliErrors, MalformedFileIsOneLineAndJson) {
    const std::string path = std::string(OCTOSCOPE_TESTS_DIR) + "/data/malformed/offset_past_end.gguf";
    auto run = run_cli({"info", "--model", path, "--json"});
    EXPECT_EQ(run.exit_status, 1);
    auto j = run.json();
    const std::string error = j["error"];
    EXPECT_NE(error.find("runs past the end of the file"), std::string::npos) << error;
    EXPECT_EQ(run.err, "octoscope-cli: error: " + error + "\n");
}

// Without --model, info describes the built-in octet, as every command that takes a model does.
TEST(CliInfo, DescribesTheBuiltInModelByDefault) {
    auto run = run_cli({"info", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_EQ(j["architecture"], "octet");
    const std::string file = j["file"].get<std::string>();
    EXPECT_EQ(file.substr(file.size() - std::string("octet/octet.gguf").size()), "octet/octet.gguf") << file;
}

TEST(CliErrors, PlainErrorGoesToStderrOnly) {
    auto run = run_cli({"info", "--model", "/nonexistent/model.gguf"});
    EXPECT_EQ(run.exit_status, 1);
    EXPECT_TRUE(run.out.empty()) << run.out;
    EXPECT_NE(run.err.find("/nonexistent/model.gguf"), std::string::npos) << run.err;
}

TEST(CliErrors, UsageErrorsExitWithTwo) {
    auto missing = run_cli({"advise", "--json"}); // --prompt is required
    EXPECT_EQ(missing.exit_status, 2);
    EXPECT_TRUE(missing.json().contains("error"));
    auto unknown = run_cli({"frobnicate"});
    EXPECT_EQ(unknown.exit_status, 2);
    auto no_text = run_cli({"tokenize", "--model", "x.gguf"});
    EXPECT_EQ(no_text.exit_status, 2);
    EXPECT_NE(no_text.err.find("--text"), std::string::npos) << no_text.err;
}

TEST(CliPaths, FindsResourcesFromAnyDirectory) {
    auto run = run_cli({"paths", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const std::string dir = run.json()["resources"];
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / "README.md")) << dir;
}

} // namespace

namespace {

TEST(CliBench, ReportsFiguresForAGivenModel) {
    const std::string path = write_bytes(octo::make_synthetic_model({}).value(), "bench.gguf");
    auto run = octo::test::run_cli({"bench", "--model", path, "--prompt-tokens", "4", "--gen-tokens", "2",
                                    "--edit-tokens", "40", "--edit-tail", "8", "--threads", "1", "--read-buffer-mib", "8",
                                    "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["threads"], 1);
    EXPECT_EQ(j["prompt_tokens"], 4);
    EXPECT_EQ(j["gen_tokens"], 2);
    EXPECT_EQ(j["n_params"], octo::synthetic_parameter_count({}));
    for (const char* config : {"instrumentation_off", "with_norms", "with_norms_and_dla"}) {
        EXPECT_GT(j[config]["prefill_tokens_per_s"].get<double>(), 0.0) << config;
        EXPECT_GT(j[config]["decode_tokens_per_s"].get<double>(), 0.0) << config;
    }
    const auto& edit = j["edit_and_rerun"];
    EXPECT_EQ(edit["prompt_tokens"], 40);
    EXPECT_EQ(edit["reused_tokens"], 32); // two full blocks of 16 before the 8 changed tokens
    EXPECT_GT(edit["cold_first_token_ms"].get<double>(), 0.0);
    EXPECT_GT(edit["reuse_first_token_ms"].get<double>(), 0.0);
    auto bad = octo::test::run_cli({"bench", "--model", path, "--kernels", "sse9", "--json"});
    EXPECT_EQ(bad.exit_status, 2);
    EXPECT_NE(bad.json()["error"].get<std::string>().find("unknown kernel path 'sse9'"), std::string::npos);
    std::filesystem::remove(path);
}

} // namespace
