// Whole forward passes on the CUDA backend against the CPU backend: first-step logits of
// llama.cpp's reference prompts on every ../shared/refdata model (skipped when absent) and on
// synthetic models of every weight type, the per-head instrumentation and router gates of the
// built-in octet model, and 48-token greedy runs on stories260K.gguf, which must be identical.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/common/builtin_model.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "tests/gpu/gpu_backend.h"
#include "tests/support/error_norms.h"
#include "tests/support/loaded_model.h"
#include "tests/support/shared_data.h"

namespace octo {
namespace {

using test::relative_l2;

// F32 weights compute in float on both sides; F16 and quantised weights go through cuBLAS with
// F16 operands in prefill (tests/gpu/test_op_parity.cpp), which the residual stream carries on.
double logit_bound(const Model& model) {
    return model.weights().layers.at(0).attn_output->type.type == TensorType::F32 ? 1e-4 : 5e-3;
}

std::vector<std::vector<int32_t>> reference_prompts(const std::filesystem::path& json_file) {
    std::ifstream in(json_file);
    const auto j = nlohmann::json::parse(in);
    const auto& cases = j.at("cases").is_array() ? j.at("cases") : j.at("cases").begin().value();
    std::vector<std::vector<int32_t>> prompts;
    for (const auto& c : cases) prompts.push_back(c.at("prompt_ids").get<std::vector<int32_t>>());
    return prompts;
}

std::vector<float> first_step_logits(const Model& model, Backend& b, const std::vector<int32_t>& prompt,
                                     const InstrumentOptions& instrument = {}, std::vector<TokenProbe>* probes = nullptr) {
    SessionOptions options;
    options.instrument = instrument;
    options.precision = Precision::Exact; // the CUDA kernels keep activations in float (docs/cuda.md)
    auto session = Session::create(model, b, options);
    EXPECT_TRUE(session) << session.error().message;
    if (!session) return {};
    auto logits = (*session)->eval(prompt);
    EXPECT_TRUE(logits) << logits.error().message;
    if (!logits) return {};
    if (probes) probes->assign((*session)->probes().begin(), (*session)->probes().end());
    return {logits->begin(), logits->end()};
}

std::vector<int32_t> greedy(const Model& model, Backend& b, const std::vector<int32_t>& prompt, size_t n) {
    SessionOptions options;
    options.precision = Precision::Exact;
    auto session = Session::create(model, b, options);
    EXPECT_TRUE(session);
    if (!session) return {};
    std::vector<int32_t> ids;
    auto logits = (*session)->eval(prompt);
    while (logits && ids.size() < n) {
        const auto best = std::max_element(logits->begin(), logits->end()) - logits->begin();
        ids.push_back(static_cast<int32_t>(best));
        const int32_t next = ids.back();
        logits = (*session)->eval(std::span<const int32_t>(&next, 1));
    }
    EXPECT_TRUE(logits) << logits.error().message;
    return ids;
}

void compare_reference_prompts(const std::filesystem::path& model_file, const std::filesystem::path& ref_json) {
    OCTO_CUDA_OR_SKIP(cuda);
    auto cpu = test::make_cpu_backend();
    auto model = Model::load(model_file.string());
    ASSERT_TRUE(model) << model.error().message;
    double worst = 0.0;
    for (const auto& prompt : reference_prompts(ref_json)) {
        const double err = relative_l2(first_step_logits(**model, *cuda, prompt), first_step_logits(**model, *cpu, prompt));
        worst = std::max(worst, err);
        EXPECT_LE(err, logit_bound(**model)) << model_file.filename();
    }
    std::cout << "[ parity ] " << model_file.filename().string() << ": worst first-step logit relative L2 " << worst
              << " (bound " << logit_bound(**model) << ")\n";
}

class GpuModelParity : public ::testing::Test {
protected:
    void SetUp() override {
        auto d = test::refdata_dir();
        if (!d) GTEST_SKIP() << "../shared/refdata is absent (set OCTOSCOPE_SHARED_DIR)";
        dir_ = *d;
    }
    std::filesystem::path dir_;
};

TEST_F(GpuModelParity, Stories260KEveryTypeFirstStepLogits) {
    for (const char* file : {"stories260K.gguf", "stories260K-f16.gguf", "stories260K-q8_0.gguf", "stories260K-q4_0.gguf"}) {
        compare_reference_prompts(dir_ / file, dir_ / "stories260K_ref.json");
    }
}

TEST_F(GpuModelParity, Qwen2TinyEveryTypeFirstStepLogits) {
    for (const char* file : {"qwen2-tiny-f32.gguf", "qwen2-tiny-q8_0.gguf", "qwen2-tiny-q4_k_m.gguf",
                             "qwen2-tiny-q5_k_m.gguf", "qwen2-tiny-q6_k.gguf"}) {
        compare_reference_prompts(dir_ / file, dir_ / "qwen2_tiny_ref.json");
    }
}

// phi3 (README "archs/"): fused QKV and gate/up split into row ranges of one uploaded tensor.
TEST_F(GpuModelParity, Phi3TinyEveryTypeFirstStepLogits) {
    for (const char* file : {"phi3-tiny-f32.gguf", "phi3-tiny-q8_0.gguf", "phi3-tiny-q4_k_m.gguf"}) {
        compare_reference_prompts(dir_ / "archs" / file, dir_ / "archs" / "phi3_tiny_ref.json");
    }
}

TEST_F(GpuModelParity, Stories260KGreedyTokensIdentical) {
    OCTO_CUDA_OR_SKIP(cuda);
    auto cpu = test::make_cpu_backend();
    auto model = Model::load((dir_ / "stories260K.gguf").string());
    ASSERT_TRUE(model) << model.error().message;
    for (const auto& prompt : reference_prompts(dir_ / "stories260K_ref.json")) {
        EXPECT_EQ(greedy(**model, *cuda, prompt, 48), greedy(**model, *cpu, prompt, 48));
    }
}

// qwen3 with a head size that is not n_embd / n_head; phi3 with LongRoPE's long factors and
// attention factor (a context above the original one).
TEST(GpuSyntheticParity, EveryWeightTypeEveryArchitecture) {
    OCTO_CUDA_OR_SKIP(cuda);
    auto cpu = test::make_cpu_backend();
    const std::vector<int32_t> prompt = {1, 17, 42, 5, 88, 63, 2, 30, 30, 71, 9, 12};
    for (const std::string arch : {"llama", "qwen2", "qwen3", "phi3"}) {
        for (TensorType type : test::cuda_weight_types()) {
            SyntheticModelSpec spec;
            spec.architecture = arch;
            spec.weight_type = type;
            if (arch == "qwen3") spec.head_dim = 128;
            if (arch == "phi3") {
                spec.long_rope_original_context = 32;
                spec.sliding_window = 64; // the whole context: nothing to mask
            }
            auto m = test::load_synthetic(spec);
            ASSERT_TRUE(m.model);
            // One device backend per loaded model (cuda_backend.h): it keeps weights uploaded by
            // their host address, which the next model's bytes may reuse once this one is freed.
            std::string reason;
            auto device = test::make_cuda_backend(reason);
            ASSERT_TRUE(device) << reason;
            const double err = relative_l2(first_step_logits(*m.model, *device, prompt), first_step_logits(*m.model, *cpu, prompt));
            EXPECT_LE(err, logit_bound(*m.model)) << arch << " " << tensor_type_info(static_cast<uint32_t>(type))->name;
        }
    }
}

// The built-in teaching model: router gates and per-head contribution norms computed on the
// device must match the CPU's (they are what the workbench shows).
TEST(GpuSyntheticParity, OctetInstrumentationAndGates) {
    OCTO_CUDA_OR_SKIP(cuda);
    auto cpu = test::make_cpu_backend();
    auto path = model_path_or_builtin("");
    ASSERT_TRUE(path) << path.error().message;
    auto model = Model::load(path.value());
    ASSERT_TRUE(model) << model.error().message;
    const std::vector<int32_t> prompt = {1, 300, 301, 302, 40, 41, 42, 43};
    InstrumentOptions instrument;
    instrument.head_norms = true;
    std::vector<TokenProbe> on_gpu, on_cpu;
    const auto g = first_step_logits(**model, *cuda, prompt, instrument, &on_gpu);
    const auto c = first_step_logits(**model, *cpu, prompt, instrument, &on_cpu);
    EXPECT_LE(relative_l2(g, c), logit_bound(**model));
    ASSERT_EQ(on_gpu.size(), on_cpu.size());
    // Over all positions at once (the first position's gates are all zero by design).
    auto all = [](const std::vector<TokenProbe>& probes, std::vector<float> TokenProbe::*field) {
        std::vector<float> v;
        for (const TokenProbe& p : probes) v.insert(v.end(), (p.*field).begin(), (p.*field).end());
        return v;
    };
    const auto cpu_norms = all(on_cpu, &TokenProbe::head_norms), cpu_gates = all(on_cpu, &TokenProbe::gates);
    ASSERT_EQ(cpu_norms.size(), prompt.size() * static_cast<size_t>((*model)->params().n_layer * (*model)->params().n_head));
    ASSERT_FALSE(cpu_gates.empty());
    EXPECT_LE(relative_l2(all(on_gpu, &TokenProbe::head_norms), cpu_norms), 5e-3);
    EXPECT_LE(relative_l2(all(on_gpu, &TokenProbe::gates), cpu_gates), 5e-3);
}

} // namespace
} // namespace octo
