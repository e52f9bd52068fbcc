// open_model(): the one model set-up of the workbench's engine thread and the CLI commands, and
// run_instrumented's callbacks, which hand on the metrics the result keeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "engine/generation/instrumented_generation.h"
#include "engine/host/model_setup.h"
#include "engine/model/synthetic_model.h"
#include "tests/support/test_temp.h"

namespace octo {
namespace {

std::string write(const std::string& name, const std::vector<uint8_t>& bytes) {
    const std::string path = test::test_temp_path(name);
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return path;
}

std::string synthetic_file(const std::string& architecture) {
    SyntheticModelSpec spec;
    spec.architecture = architecture;
    spec.n_layer = 3;
    spec.router_groups = 2; // octet: two head groups of 2 heads
    return write(architecture + ".gguf", make_synthetic_model(spec).value());
}

TEST(ModelSetup, OpensEverythingARunNeedsAndDescribesIt) {
    const std::string path = synthetic_file("llama");
    std::vector<std::string> steps;
    OpenOptions o;
    o.backend = "cpu";
    o.threads = 1;
    o.n_ctx = 32;
    o.on_estimate = [&](const MemoryEstimate& e) {
        EXPECT_GT(e.weights_bytes, 0u);
        steps.push_back("estimate");
    };
    o.progress = [&](double f) {
        if (steps.back() != "progress") steps.push_back("progress");
        EXPECT_GE(f, 0.0);
        EXPECT_LE(f, 1.0);
        return true;
    };
    auto opened = open_model(path, o);
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ(steps, (std::vector<std::string>{"estimate", "progress"})) << "the estimate comes before the weights";
    ASSERT_TRUE(opened->model && opened->tokenizer && opened->backend && opened->kv);
    EXPECT_EQ(opened->map().n_layer(), 3);
    EXPECT_EQ(opened->map().n_head(), 4);
    const ModelInfo& info = opened->info;
    EXPECT_EQ(info.path, path);
    EXPECT_EQ(info.architecture, "llama");
    EXPECT_EQ(info.n_layer, 3);
    EXPECT_EQ(info.n_head, 4);
    EXPECT_EQ(info.n_ctx, 32);
    EXPECT_FALSE(info.has_router);
    EXPECT_EQ(info.router_groups, 0);
    EXPECT_EQ(info.default_metric, Metric::NormShare);
    EXPECT_EQ(info.default_precision, Precision::Reference);
    EXPECT_EQ(info.kv_bytes, static_cast<uint64_t>(opened->kv->cache().bytes()));
    EXPECT_GT(info.kv_blocks, 0);
    EXPECT_EQ(info.backend.rfind("cpu", 0), 0u) << info.backend;
    EXPECT_TRUE(info.backend_note.empty());
    ASSERT_TRUE(info.head_map.has_value());
}

TEST(ModelSetup, ARouterModelIsShownByItsGates) {
    auto opened = open_model(synthetic_file("octet"), {.backend = "cpu", .threads = 1});
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_TRUE(opened->info.has_router);
    EXPECT_EQ(opened->info.router_groups, 2);
    EXPECT_EQ(opened->info.default_metric, Metric::Gates);
    EXPECT_EQ(opened->info.default_precision, Precision::Exact);
}

TEST(ModelSetup, ErrorsCarryTheirCodeAndNameTheFile) {
    const auto missing = open_model(test::test_temp_path("missing.gguf"), {.backend = "cpu"});
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, ErrorCode::Io);
    EXPECT_NE(missing.error().message.find("missing.gguf"), std::string::npos);

    const std::string garbage = write("garbage.gguf", {'G', 'G', 'U', 'F', 3, 0, 0, 0, 1, 2, 3});
    const auto bad = open_model(garbage, {.backend = "cpu"});
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, ErrorCode::Format);
    EXPECT_EQ(bad.error().message.rfind(garbage + ": ", 0), 0u) << bad.error().message;
    EXPECT_EQ(bad.error().message.find(garbage, 1), std::string::npos) << "named once: " << bad.error().message;

    SyntheticModelSpec uneven; // a model the loader refuses after the file parsed
    uneven.architecture = "octet";
    uneven.router_groups = 3;
    const std::string refused = write("uneven.gguf", make_synthetic_model(uneven).value());
    const auto invalid = open_model(refused, {.backend = "cpu"});
    ASSERT_FALSE(invalid);
    EXPECT_EQ(invalid.error().code, ErrorCode::InvalidModel) << invalid.error().message;
    EXPECT_EQ(invalid.error().message.rfind(refused + ": ", 0), 0u) << invalid.error().message;
    EXPECT_EQ(invalid.error().message.find(refused, 1), std::string::npos) << "named once: " << invalid.error().message;

    const auto backend = open_model(synthetic_file("llama"), {.backend = "tpu"});
    ASSERT_FALSE(backend);
    EXPECT_EQ(backend.error().code, ErrorCode::InvalidArgument);

    OpenOptions cancelled;
    cancelled.backend = "cpu";
    cancelled.progress = [](double) { return false; };
    const auto stopped = open_model(synthetic_file("llama"), cancelled);
    ASSERT_FALSE(stopped);
    EXPECT_EQ(stopped.error().code, ErrorCode::Cancelled);
}

// What the callbacks hand on is what the result keeps: each position's metrics computed once.
// What the workbench shows of a family (Help → About, the heatmap's sliding layers) comes from
// open_model: the architecture's features and each layer's window within the context.
TEST(ModelSetup, DescribesTheFamilysFeaturesAndSlidingLayers) {
    SyntheticModelSpec spec;
    spec.architecture = "gemma2";
    spec.n_layer = 4;
    spec.sliding_window = 8;
    const std::string path = write("gemma2.gguf", make_synthetic_model(spec).value());
    auto opened = open_model(path, {.backend = "cpu", .threads = 1});
    ASSERT_TRUE(opened) << opened.error().message;
    const ModelInfo& info = opened->info;
    EXPECT_EQ(info.layer_windows, (std::vector<int64_t>{8, 0, 8, 0}));
    const auto has = [&](const std::string& f) { return std::find(info.features.begin(), info.features.end(), f) != info.features.end(); };
    EXPECT_TRUE(has("sliding window 8 on even layers"));
    EXPECT_TRUE(has("GELU gated FFN"));
    EXPECT_TRUE(has("attention soft-cap 50")) << "the reader's default";
    // A window as long as the context masks nothing: no layer is marked.
    auto whole = open_model(path, {.backend = "cpu", .threads = 1, .n_ctx = 8});
    ASSERT_TRUE(whole) << whole.error().message;
    EXPECT_EQ(whole->info.layer_windows, (std::vector<int64_t>{0, 0, 0, 0}));
}

// What bench and the claims lab ask of the set-up: an in-memory image, a forced kernel path, a
// batch size, no KV pool, and a second model on the backend of a first.
TEST(ModelSetup, OpensImagesOntoGivenBackendsWithoutAPool) {
    SyntheticModelSpec spec;
    spec.n_layer = 2;
    auto image = std::make_shared<const std::vector<uint8_t>>(make_synthetic_model(spec).value());
    auto bench = open_model_image(image, "synthetic 2 layers",
                                  {.backend = "cpu", .threads = 1, .kernels = CpuPath::Scalar, .n_ctx = 64, .n_batch = 16, .kv_sequences = 0});
    ASSERT_TRUE(bench) << bench.error().message;
    EXPECT_EQ(bench->image, image) << "the model reads the image: the opened model keeps it";
    EXPECT_EQ(bench->info.path, "synthetic 2 layers");
    EXPECT_EQ(bench->model->n_batch(), 16);
    EXPECT_EQ(bench->model->n_ctx(), 64);
    EXPECT_FALSE(bench->kv) << "no pool was asked for";
    EXPECT_EQ(bench->info.kv_bytes, 0u);
    ASSERT_TRUE(bench->backend);
    EXPECT_NE(bench->backend->name().find("scalar"), std::string::npos) << bench->backend->name();
    EXPECT_EQ(bench->tokenizer->n_tokens(), spec.n_vocab);

    // A second model on the first one's backend: it owns none, its pool lives there.
    auto second = open_model(write("on-backend.gguf", *image), {.on_backend = bench->backend.get()});
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_FALSE(second->backend);
    EXPECT_EQ(second->info.backend, bench->backend->name());
    ASSERT_TRUE(second->kv);
    EXPECT_GT(second->info.kv_bytes, 0u);

    EXPECT_EQ(open_model_image(nullptr, "nothing").error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(open_model_image(image, "negative pool", {.kv_sequences = -1}).error().code, ErrorCode::InvalidArgument);
    auto garbage = std::make_shared<const std::vector<uint8_t>>(std::vector<uint8_t>{'G', 'G', 'U', 'F', 1, 2, 3});
    auto bad = open_model_image(garbage, "garbage.gguf", {.backend = "cpu", .threads = 1});
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("garbage.gguf"), std::string::npos) << "the error names the image: " << bad.error().message;
}

// The KV types: the default for the model's precision (F16 for llama, F32 for octet); a quantised
// type the heads cannot fill is refused, naming why — or, with kv_fallback (the workbench's
// remembered choice), replaced by the default and said in kv_note.
TEST(ModelSetup, KvTypesTakeTheDefaultOrFallBackWhenHeadsCannotBeQuantised) {
    SyntheticModelSpec spec;
    spec.n_embd = 256;
    spec.n_head = 16; // heads of 16 values
    auto image = std::make_shared<const std::vector<uint8_t>>(make_synthetic_model(spec).value());
    auto plain = open_model_image(image, "heads of 16", {.backend = "cpu", .threads = 1});
    ASSERT_TRUE(plain) << plain.error().message;
    EXPECT_EQ(plain->info.kv_types, (KvTypes{TensorType::F16, TensorType::F16}));
    EXPECT_TRUE(plain->info.kv_note.empty());
    const KvTypeChoice q8{TensorType::Q8_0, std::nullopt};
    auto refused = open_model_image(image, "heads of 16", {.backend = "cpu", .threads = 1, .kv_types = q8});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, ErrorCode::Unsupported);
    EXPECT_NE(refused.error().message.find("head of 16 values"), std::string::npos) << refused.error().message;
    auto fallback = open_model_image(image, "heads of 16", {.backend = "cpu", .threads = 1, .kv_types = q8, .kv_fallback = true});
    ASSERT_TRUE(fallback) << fallback.error().message;
    EXPECT_EQ(fallback->info.kv_types, (KvTypes{TensorType::F16, TensorType::F16}));
    EXPECT_NE(fallback->info.kv_note.find("q8_0 needs heads of a multiple of 32"), std::string::npos) << fallback->info.kv_note;
    spec.n_head = 8; // heads of 32: stored as asked
    auto fits = std::make_shared<const std::vector<uint8_t>>(make_synthetic_model(spec).value());
    auto q8_cache = open_model_image(fits, "heads of 32", {.backend = "cpu", .threads = 1, .kv_types = q8, .kv_fallback = true});
    ASSERT_TRUE(q8_cache) << q8_cache.error().message;
    EXPECT_EQ(q8_cache->info.kv_types, (KvTypes{TensorType::Q8_0, TensorType::F16}));
    EXPECT_TRUE(q8_cache->info.kv_note.empty());
    spec.architecture = "octet"; // exact precision by default: F32
    spec.router_groups = 2;
    auto octet = std::make_shared<const std::vector<uint8_t>>(make_synthetic_model(spec).value());
    auto exact = open_model_image(octet, "octet", {.backend = "cpu", .threads = 1});
    ASSERT_TRUE(exact) << exact.error().message;
    EXPECT_EQ(exact->info.kv_types, (KvTypes{TensorType::F32, TensorType::F32}));
}

TEST(ModelSetup, RunCallbacksCarryTheResultsMetrics) {
    auto opened = open_model(synthetic_file("llama"), {.backend = "cpu", .threads = 1});
    ASSERT_TRUE(opened) << opened.error().message;
    RunSpec spec;
    spec.max_tokens = 4;
    spec.stop_at_eog = false;
    spec.record_attention = false;
    const std::vector<int32_t> prompt_ids = {1, 40, 41, 42, 43};
    std::vector<TokenMetrics> prompt_seen, tokens_seen;
    int prompt_calls = 0;
    InstrumentedCallbacks callbacks;
    callbacks.on_prompt = [&](const std::vector<TokenProbe>& probes, const std::vector<TokenMetrics>& metrics) {
        ++prompt_calls;
        EXPECT_EQ(probes.size(), metrics.size());
        EXPECT_TRUE(tokens_seen.empty()) << "the prompt comes before the first token";
        prompt_seen = metrics;
    };
    callbacks.on_token = [&](const TokenEvent&, const TokenMetrics& metrics) { tokens_seen.push_back(metrics); };
    auto run = run_instrumented(*opened->model, *opened->backend, *opened->tokenizer, opened->map(), *opened->kv, spec,
                                {.prompt_ids = prompt_ids}, callbacks);
    ASSERT_TRUE(run) << run.error().message;
    EXPECT_EQ(prompt_calls, 1);
    ASSERT_EQ(prompt_seen.size(), 5u);
    ASSERT_EQ(tokens_seen.size(), 4u);
    ASSERT_EQ(run->prompt_metrics.size(), 5u);
    ASSERT_EQ(run->token_metrics.size(), 4u);
    for (size_t i = 0; i < 5; ++i) {
        ASSERT_TRUE(prompt_seen[i].norm_share.has_value());
        EXPECT_EQ(*prompt_seen[i].norm_share, *run->prompt_metrics[i].norm_share) << i;
    }
    for (size_t i = 0; i < 4; ++i) {
        ASSERT_TRUE(tokens_seen[i].norm_share && tokens_seen[i].relative) << i;
        EXPECT_EQ(*tokens_seen[i].norm_share, *run->token_metrics[i].norm_share) << i;
        EXPECT_EQ(*tokens_seen[i].relative, *run->token_metrics[i].relative) << i;
    }
    EXPECT_EQ(run->default_metric, Metric::NormShare);
}

} // namespace
} // namespace octo
