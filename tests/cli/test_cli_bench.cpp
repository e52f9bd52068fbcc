// octoscope-cli bench: the --synthetic shapes with n_head_kv and quantisation mixes, --save-model,
// --precision, and the memory figures (presence and sign only: nothing here is timed).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "engine/model/model.h"
#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"

namespace {

using octo::test::run_cli;

std::vector<uint8_t> read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The spec `bench --synthetic n_embd x n_layer x n_head x n_head_kv:...` stands for (bench_shape.h).
octo::SyntheticModelSpec bench_spec(int64_t n_embd, int64_t n_layer, int64_t n_head, int64_t n_head_kv) {
    octo::SyntheticModelSpec s;
    s.n_vocab = 32000;
    s.n_embd = n_embd;
    s.n_ff = 3 * n_embd;
    s.n_head = n_head;
    s.n_head_kv = n_head_kv;
    s.n_layer = n_layer;
    s.context_length = 4096;
    s.tied_output = true;
    s.seed = 1234;
    return s;
}

// The file bench --save-model wrote holds the very bytes of `want`, and loads (null, with a
// failure recorded, otherwise).
std::unique_ptr<octo::Model> expect_bytes_of(const std::string& path, const octo::SyntheticModelSpec& want) {
    const auto expected = octo::make_synthetic_model(want);
    EXPECT_TRUE(expected) << expected.error().message;
    if (!expected) return nullptr;
    EXPECT_EQ(read_bytes(path), expected.value());
    auto model = octo::Model::load(path);
    EXPECT_TRUE(model) << model.error().message;
    return model ? std::move(model.value()) : nullptr;
}

TEST(CliBench, SyntheticShapes) {
    auto run = run_cli({"bench", "--synthetic", "64x2x4:q8_0", "--prompt-tokens", "4", "--gen-tokens", "1",
                        "--edit-tokens", "20", "--edit-tail", "2", "--read-buffer-mib", "8", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["model"], "synthetic llama 64x2x4:q8_0 (random weights)");
    // Three sizes: n_head_kv = n_head (4 is not a multiple of 3).
    EXPECT_EQ(j["n_params"], octo::synthetic_parameter_count(bench_spec(64, 2, 4, 4)));
    for (const char* shape : {"64x2", "64x2x5:q8_0", "64x2x4:q9_9", "64x2x4:q8_0x"}) {
        auto bad = run_cli({"bench", "--synthetic", shape, "--json"});
        EXPECT_EQ(bad.exit_status, 2) << shape;
        EXPECT_NE(bad.json()["error"].get<std::string>().find("--synthetic"), std::string::npos) << shape;
    }
}

// --depth: decode after a prompt of that many tokens (llama-bench -gp), reported beside the
// other rows; absent, the figure is null. Nothing is timed here: presence and sign only.
TEST(CliBench, DecodeAtDepth) {
    const std::vector<std::string> base = {"bench", "--synthetic", "64x2x4:q8_0", "--prompt-tokens", "4", "--gen-tokens", "2",
                                           "--edit-tokens", "20", "--edit-tail", "2", "--read-buffer-mib", "8", "--json"};
    auto without = run_cli(base);
    ASSERT_EQ(without.exit_status, 0) << without.err;
    EXPECT_TRUE(without.json()["at_depth"].is_null());
    auto args = base;
    args.insert(args.end(), {"--depth", "48"});
    auto with = run_cli(args);
    ASSERT_EQ(with.exit_status, 0) << with.err;
    const auto d = with.json()["at_depth"];
    ASSERT_TRUE(d.is_object()) << d.dump();
    EXPECT_EQ(d["depth"], 48);
    EXPECT_GT(d["prefill_tokens_per_s"].get<double>(), 0.0);
    EXPECT_GT(d["decode_tokens_per_s"].get<double>(), 0.0);
    args.back() = "-1";
    EXPECT_EQ(run_cli(args).exit_status, 2) << "a negative depth is a usage error";
}

// --speed-only: the instrumentation-off run alone (for timing beside llama-bench); the figures
// of the runs left out are null, not zero, and the text names only what ran.
TEST(CliBench, SpeedOnlyLeavesOutTheInstrumentedRuns) {
    const std::vector<std::string> base = {"bench", "--synthetic", "64x2x4:q8_0", "--prompt-tokens", "4", "--gen-tokens", "2",
                                           "--edit-tokens", "20", "--edit-tail", "2", "--read-buffer-mib", "8", "--speed-only"};
    auto args = base;
    args.push_back("--json");
    auto run = run_cli(args);
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    EXPECT_GT(j["instrumentation_off"]["prefill_tokens_per_s"].get<double>(), 0.0);
    EXPECT_GT(j["instrumentation_off"]["decode_tokens_per_s"].get<double>(), 0.0);
    EXPECT_TRUE(j["with_norms"].is_null()) << j["with_norms"].dump();
    EXPECT_TRUE(j["with_norms_and_dla"].is_null());
    EXPECT_TRUE(j["edit_and_rerun"].is_null());
    auto text = run_cli(base);
    ASSERT_EQ(text.exit_status, 0) << text.err;
    EXPECT_NE(text.out.find("instrumentation off"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("with norms"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("edit and rerun"), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find("instrumented runs"), std::string::npos) << text.out;
}

// A mixture-of-experts shape: decode's weight traffic counts the router and the 2 active
// experts of 8 per layer, not the idle ones.
TEST(CliBench, ExpertShapesCountOnlyTheActiveWeights) {
    auto run = run_cli({"bench", "--synthetic", "256x2x4:q8_0:8/2", "--prompt-tokens", "8", "--gen-tokens", "2",
                        "--edit-tokens", "20", "--edit-tail", "2", "--threads", "1", "--read-buffer-mib", "8", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    const auto j = run.json();
    octo::SyntheticModelSpec spec = bench_spec(256, 2, 4, 4);
    spec.n_expert = 8;
    spec.n_expert_used = 2;
    EXPECT_EQ(j["n_params"], octo::synthetic_parameter_count(spec));
    EXPECT_EQ(j["experts"], (nlohmann::json{{"n_expert", 8}, {"n_expert_used", 2}}));
    // Q8_0: 34 bytes per 32 weights. Per layer: q, k, v, o (4 · 256²), the F32 router (8 · 256 · 4
    // bytes) and 2 experts of 3 · 256 · 768; the tied output 32000 · 256.
    const uint64_t q8 = 34, per_layer = (4 * 256 * 256 + 2 * 3 * 256 * 768) / 32 * q8 + 8 * 256 * 4;
    EXPECT_EQ(j["weight_bytes_per_token"], 2 * per_layer + 32000 * 256 / 32 * q8);
    EXPECT_EQ(j["weight_bytes_all_matrices"], 2 * (per_layer + 6 * 3 * 256 * 768 / 32 * q8) + 32000 * 256 / 32 * q8);
    for (const char* shape : {"256x2x4:q8_0:8", "256x2x4:q8_0:2/8", "256x2x4:q8_0:0/0", "256x2x4:q8_0:8/x"}) {
        auto bad = run_cli({"bench", "--synthetic", shape, "--json"});
        EXPECT_EQ(bad.exit_status, 2) << shape;
        EXPECT_NE(bad.json()["error"].get<std::string>().find("experts"), std::string::npos) << shape;
    }
}

// --n-ff and --n-vocab replace the shape's defaults (3 x n_embd, 32,000): the Llama-3.2-1B-like
// shapes of the side-by-side measurements.
TEST(CliBench, SyntheticFeedForwardWidthAndVocabulary) {
    const std::string path = octo::test::temp_path("wide-ff.gguf");
    auto run = run_cli({"bench", "--synthetic", "256x2x8x2:q8_0", "--n-ff", "1024", "--n-vocab", "5000", "--save-model", path,
                        "--no-run", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    octo::SyntheticModelSpec want = bench_spec(256, 2, 8, 2);
    want.weight_type = octo::TensorType::Q8_0;
    want.n_ff = 1024;
    want.n_vocab = 5000;
    const auto model = expect_bytes_of(path, want);
    ASSERT_TRUE(model);
    EXPECT_EQ(model->params().n_ff, 1024);
    EXPECT_EQ(model->params().n_vocab, 5000);
    std::filesystem::remove(path);
    auto with_model = run_cli({"bench", "--model", path, "--n-ff", "1024", "--json"});
    EXPECT_EQ(with_model.exit_status, 2) << "--n-ff is for the synthetic model";
}

TEST(CliBench, SavesTheSyntheticModelWithKvHeadsAndTheQ4KMMix) {
    const std::string path = octo::test::temp_path("q4_k_m.gguf");
    auto run = run_cli({"bench", "--synthetic", "256x8x8x2:q4_k_m", "--save-model", path, "--no-run", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    EXPECT_EQ(run.json()["saved_model"], path);
    EXPECT_EQ(run.json()["model"], "synthetic llama 256x8x8x2:q4_k_m (random weights)");
    // The very bytes of the spec the shape stands for.
    octo::SyntheticModelSpec want = bench_spec(256, 8, 8, 2);
    want.mix = octo::QuantMix::Q4_K_M;
    const auto model = expect_bytes_of(path, want);
    ASSERT_TRUE(model);
    const octo::Model& m = *model;
    EXPECT_EQ(m.params().n_head_kv, 2);
    EXPECT_EQ(m.params().n_layer, 8);
    const auto type_of = [&](const std::string& name) {
        const octo::GgufTensorInfo* t = m.file().find_tensor(name);
        return t ? t->type.name : std::string_view("missing");
    };
    EXPECT_EQ(type_of("token_embd.weight"), "Q6_K"); // the tied output
    EXPECT_EQ(type_of("output.weight"), "missing");
    // 8 layers: n/8 = 1, 7n/8 = 7, so layers 0, 3, 6 and 7 get more bits.
    for (int l = 0; l < 8; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        const bool more = l == 0 || l == 3 || l == 6 || l == 7;
        EXPECT_EQ(type_of(b + "attn_v.weight"), more ? "Q6_K" : "Q4_K") << l;
        EXPECT_EQ(type_of(b + "ffn_down.weight"), more ? "Q6_K" : "Q4_K") << l;
        EXPECT_EQ(type_of(b + "attn_q.weight"), "Q4_K") << l;
        EXPECT_EQ(type_of(b + "ffn_up.weight"), "Q4_K") << l;
        EXPECT_EQ(type_of(b + "ffn_norm.weight"), "F32") << l;
    }
    // The saved file runs as --model.
    auto bench = run_cli({"bench", "--model", path, "--prompt-tokens", "4", "--gen-tokens", "1", "--edit-tokens",
                          "20", "--edit-tail", "2", "--threads", "1", "--read-buffer-mib", "8", "--json"});
    ASSERT_EQ(bench.exit_status, 0) << bench.err;
    EXPECT_DOUBLE_EQ(bench.json()["file_mib"].get<double>(),
                     static_cast<double>(std::filesystem::file_size(path)) / (1024.0 * 1024.0));
    std::filesystem::remove(path);
}

// --arch gpt-oss with MXFP4 experts (the layout of the released files): the saved file is the
// very spec the options stand for (window 128 on even layers, an output matrix of its own), it
// runs as --model; the options' misuses exit 2 naming the problem.
TEST(CliBench, GptOssShapeWithMxfp4Experts) {
    const std::string path = octo::test::temp_path("gpt-oss.gguf");
    auto run = run_cli({"bench", "--synthetic", "256x2x4x2:q8_0:4/2", "--arch", "gpt-oss", "--expert-type", "mxfp4",
                        "--n-ff", "256", "--save-model", path, "--no-run", "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    EXPECT_EQ(run.json()["model"], "synthetic gpt-oss 256x2x4x2:q8_0:4/2 (random weights)");
    octo::SyntheticModelSpec want = bench_spec(256, 2, 4, 2);
    want.architecture = "gpt-oss";
    want.weight_type = octo::TensorType::Q8_0;
    want.n_ff = 256;
    want.n_expert = 4;
    want.n_expert_used = 2;
    want.router_spread = 1.0f;
    want.sliding_window = 128;
    want.tied_output = false;
    want.expert_type = octo::TensorType::MXFP4;
    const auto model = expect_bytes_of(path, want);
    ASSERT_TRUE(model);
    const octo::Model& m = *model;
    EXPECT_EQ(m.params().layer_window(0), 128);
    EXPECT_EQ(m.file().find_tensor("blk.1.ffn_down_exps.weight")->type.type, octo::TensorType::MXFP4);
    EXPECT_EQ(m.file().find_tensor("blk.1.attn_q.weight")->type.type, octo::TensorType::Q8_0);
    EXPECT_FALSE(m.weights().output_tied);
    auto bench = run_cli({"bench", "--model", path, "--prompt-tokens", "4", "--gen-tokens", "2", "--speed-only",
                          "--threads", "1", "--read-buffer-mib", "8", "--json"});
    ASSERT_EQ(bench.exit_status, 0) << bench.err;
    EXPECT_GT(bench.json()["instrumentation_off"]["decode_tokens_per_s"].get<double>(), 0.0);
    std::filesystem::remove(path);
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--synthetic", "256x2x4:q8_0", "--arch", "gpt-oss"},         // no experts
          std::vector<std::string>{"--synthetic", "256x2x4:q8_0", "--arch", "mamba"},           // unknown
          std::vector<std::string>{"--synthetic", "256x2x4:q8_0", "--expert-type", "mxfp4"},    // no experts
          std::vector<std::string>{"--synthetic", "256x2x4:q8_0:4/2", "--expert-type", "q9_9"}}) { // unknown type
        std::vector<std::string> full = {"bench"};
        full.insert(full.end(), args.begin(), args.end());
        full.push_back("--json");
        auto bad = run_cli(full);
        EXPECT_EQ(bad.exit_status, 2) << args[3];
        EXPECT_TRUE(bad.json()["error"].is_string()) << args[3];
    }
}

// --arch deepseek2: multi-head latent attention in DeepSeek's proportions from d = n_embd / n_head
// = 64 (value heads 64, key heads 96 with 32 RoPE, latent 256, query rank 768), one leading dense
// block and a shared expert; the saved file is that spec and runs as --model, with a latent cache.
TEST(CliBench, DeepSeek2ShapeWithLatentAttention) {
    const std::string path = octo::test::temp_path("deepseek2.gguf");
    auto run = run_cli({"bench", "--synthetic", "256x2x4:q8_0:4/2", "--arch", "deepseek2", "--save-model", path, "--no-run",
                        "--json"});
    ASSERT_EQ(run.exit_status, 0) << run.err;
    octo::SyntheticModelSpec want = bench_spec(256, 2, 4, 4);
    want.architecture = "deepseek2";
    want.weight_type = octo::TensorType::Q8_0;
    want.n_expert = 4;
    want.n_expert_used = 2;
    want.router_spread = 1.0f;
    want.tied_output = false;
    want.head_dim_v = 64;
    want.n_rot = 32;
    want.head_dim = 96;
    want.n_lora_kv = 256;
    want.n_lora_q = 768;
    want.n_ff_exp = 128;
    const auto model = expect_bytes_of(path, want);
    ASSERT_TRUE(model);
    const octo::Model& m = *model;
    EXPECT_TRUE(m.params().latent_attention());
    EXPECT_EQ(m.params().kv_head_dim(), 288);
    EXPECT_EQ(octo::synthetic_parameter_count(want), m.n_params());
    EXPECT_FALSE(m.params().layer_has_experts(0));
    auto bench = run_cli({"bench", "--model", path, "--prompt-tokens", "4", "--gen-tokens", "2", "--speed-only", "--threads", "1",
                          "--read-buffer-mib", "8", "--json"});
    ASSERT_EQ(bench.exit_status, 0) << bench.err;
    EXPECT_GT(bench.json()["instrumentation_off"]["decode_tokens_per_s"].get<double>(), 0.0);
    std::filesystem::remove(path);
    auto bad = run_cli({"bench", "--synthetic", "256x2x4:q8_0", "--arch", "deepseek2", "--json"}); // no experts
    EXPECT_EQ(bad.exit_status, 2);
}

TEST(CliBench, ShapeAndOptionErrors) {
    for (const char* shape : {"64x2x4x3:q8_0", "64x2x4x0:q8_0", "64x2x4x2x1:q8_0", "64x2x4x:q8_0", "64x2x4x2",
                              "64x2x4:q4_k_x", "64x2x4x2:"}) {
        auto bad = run_cli({"bench", "--synthetic", shape, "--json"});
        EXPECT_EQ(bad.exit_status, 2) << shape;
        EXPECT_NE(bad.json()["error"].get<std::string>().find("--synthetic"), std::string::npos) << shape;
    }
    const std::string path = octo::test::temp_path("unwritten.gguf");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"bench", "--no-run", "--json"},
          std::vector<std::string>{"bench", "--model", path, "--save-model", path, "--json"},
          std::vector<std::string>{"bench", "--precision", "approximate", "--json"}}) {
        auto bad = run_cli(args);
        EXPECT_EQ(bad.exit_status, 2) << args[1];
        EXPECT_TRUE(bad.json()["error"].is_string()) << args[1];
    }
    EXPECT_FALSE(std::filesystem::exists(path));
    auto kernels = run_cli({"bench", "--kernels", "sse9", "--json"});
    EXPECT_EQ(kernels.exit_status, 2);
    EXPECT_NE(kernels.json()["error"].get<std::string>().find("avxvnni, avx512vnni"), std::string::npos);
}

TEST(CliBench, ReportsPrecisionBandwidthAndResidentMemory) {
    const std::vector<std::string> small = {"bench", "--synthetic", "64x2x4x2:q8_0", "--prompt-tokens", "4",
                                            "--gen-tokens", "2", "--edit-tokens", "20", "--edit-tail", "2",
                                            "--threads", "1", "--read-buffer-mib", "16", "--json"};
    auto run = run_cli(small);
    ASSERT_EQ(run.exit_status, 0) << run.err;
    auto j = run.json();
    EXPECT_EQ(j["precision"], "reference"); // llama's default
    EXPECT_GT(j["memory_read_gb_per_s"].get<double>(), 0.0);
    EXPECT_EQ(j["memory_read_buffer_mib"], 16.0);
    EXPECT_GT(j["decode_gb_per_s"].get<double>(), 0.0);
    EXPECT_GT(j["decode_fraction_of_read_bandwidth"].get<double>(), 0.0);
    EXPECT_NEAR(j["decode_fraction_of_read_bandwidth"].get<double>(),
                j["decode_gb_per_s"].get<double>() / j["memory_read_gb_per_s"].get<double>(), 1e-9);
    const double decode = j["instrumentation_off"]["decode_tokens_per_s"].get<double>();
    const double bytes = j["weight_bytes_per_token"].get<double>();
    EXPECT_NEAR(j["decode_gb_per_s"].get<double>(), bytes * decode / 1e9, 1e-9 * bytes * decode);
    // Per token: 2 layers of q, k, v, o (64x64, 64x32 twice, 64x64) and gate, up, down (64x192),
    // and the tied output (64 x 32,000), all Q8_0 (34 bytes per 32 weights).
    const int64_t weights = 2 * (2 * 64 * 64 + 2 * 64 * 32 + 3 * 64 * 192) + 64 * 32000;
    EXPECT_EQ(j["weight_bytes_per_token"], weights / 32 * 34);
    // Prefill's integer work: 4 prompt tokens through every layer matrix, the output matrix once.
    const double layer_macs = 2 * (2 * 64 * 64 + 2 * 64 * 32 + 3 * 64 * 192), output_macs = 64 * 32000;
    const double prefill = j["instrumentation_off"]["prefill_tokens_per_s"].get<double>();
    EXPECT_NEAR(j["prefill_int8_gops"].get<double>(), 2.0 * (4 * layer_macs + output_macs) * prefill / 4 / 1e9,
                1e-9 * j["prefill_int8_gops"].get<double>());
    if (j["kernels"] == "scalar") {
        EXPECT_TRUE(j["int8_peak_gops"].is_null());
    } else { // 1 thread: a few products per cycle at the least (x86 SIMD paths)
        EXPECT_GT(j["int8_peak_gops"].get<double>(), 10.0);
        EXPECT_NEAR(j["prefill_fraction_of_int8_peak"].get<double>(),
                    j["prefill_int8_gops"].get<double>() / j["int8_peak_gops"].get<double>(), 1e-9);
        EXPECT_LT(j["prefill_fraction_of_int8_peak"].get<double>(), 1.0);
    }
    EXPECT_GT(j["program_resident_mib"].get<double>(), 0.0);
    EXPECT_GT(j["resident_mib"].get<double>(), j["program_resident_mib"].get<double>());
    EXPECT_GE(j["resident_instrumented_mib"].get<double>(), j["resident_mib"].get<double>() * 0.9);
    EXPECT_GE(j["peak_resident_mib"].get<double>(), j["resident_instrumented_mib"].get<double>());
    EXPECT_GT(j["file_mib"].get<double>(), 0.0);
    EXPECT_GT(j["kv_mib"].get<double>(), 0.0);

    std::vector<std::string> exact = small;
    exact.insert(exact.end(), {"--precision", "exact"});
    auto exact_run = run_cli(exact);
    ASSERT_EQ(exact_run.exit_status, 0) << exact_run.err;
    EXPECT_EQ(exact_run.json()["precision"], "exact");
    EXPECT_GT(exact_run.json()["memory_read_gb_per_s"].get<double>(), 0.0);
}

} // namespace
