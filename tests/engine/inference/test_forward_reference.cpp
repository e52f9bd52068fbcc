// The forward pass against llama.cpp's outputs on real and random models (../shared/refdata,
// README there): greedy generations token for token and first-step logits within stated
// relative-L2 bounds. Skips when ../shared is absent.
// Covers: llama_forward.cpp, session.cpp
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/gguf/dequantize.h"
#include "engine/gguf/gguf_file.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "tests/support/error_norms.h"
#include "tests/support/forward64.h"
#include "tests/support/shared_data.h"

namespace octo {
namespace {

using test::relative_l2;

struct RefCase {
    std::vector<int32_t> prompt_ids;
    std::vector<int32_t> generated_ids;
    std::vector<float> first_step_logits; // [n_vocab]
};

std::vector<RefCase> read_cases(const nlohmann::json& cases, const std::string& logits_key) {
    std::vector<RefCase> out;
    for (const auto& c : cases) {
        out.push_back({c.at("prompt_ids").get<std::vector<int32_t>>(), c.at("generated_ids").get<std::vector<int32_t>>(),
                       c.at(logits_key).get<std::vector<float>>()});
    }
    return out;
}

nlohmann::json read_json(const std::filesystem::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

struct GreedyRun {
    std::vector<int32_t> ids;
    std::vector<float> first_step_logits;
};

int32_t argmax(std::span<const float> logits) {
    size_t best = 0;
    for (size_t i = 1; i < logits.size(); ++i) {
        if (logits[i] > logits[best]) best = i;
    }
    return static_cast<int32_t>(best);
}

// Prompt as one batch, then one token per step; no stop at end-of-sequence.
GreedyRun greedy(Session& session, const std::vector<int32_t>& prompt, size_t n_steps) {
    GreedyRun run;
    session.reset();
    auto logits = session.eval(prompt);
    EXPECT_TRUE(logits) << logits.error().message;
    if (!logits) return run;
    run.first_step_logits.assign(logits->begin(), logits->end());
    for (size_t step = 0; step < n_steps; ++step) {
        const int32_t next = argmax(*logits);
        run.ids.push_back(next);
        if (step + 1 == n_steps) break;
        logits = session.eval(std::span<const int32_t>(&next, 1));
        if (!logits) {
            ADD_FAILURE() << logits.error().message;
            break;
        }
    }
    return run;
}

struct Expectation {
    std::string model_file;
    double max_logit_error;    // bound on the relative L2 error of the first-step logits (every case)
    size_t n_compared_tokens;  // leading generated tokens compared per case
    int min_identical_runs;    // cases whose compared tokens must all match
    Precision precision = Precision::Reference;
    double max_median_error = 1.0; // bound on the median over cases of that error
    KvTypes kv_types = {};         // the KV cache the reference ran with
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0.0 : (n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]));
}

// Runs every case and checks the expectation; prints the measured figures and, for every run
// that leaves the reference's tokens, the step where it does.
void check_against_reference(const std::filesystem::path& dir, const Expectation& e, const std::vector<RefCase>& cases,
                             std::optional<CpuPath> path = std::nullopt) {
    auto model = Model::load((dir / e.model_file).string());
    ASSERT_TRUE(model) << model.error().message;
    auto backend = CpuBackend::create({2, path});
    ASSERT_TRUE(backend);
    SessionOptions options;
    options.precision = e.precision;
    options.kv_types = kv_types_exactly(e.kv_types);
    auto session = Session::create(**model, **backend, options);
    ASSERT_TRUE(session) << session.error().message;
    int identical = 0;
    std::vector<double> errors;
    const std::string name = e.model_file + " (" + std::string(cpu_path_name((*backend)->path())) + ", " +
                             std::string(precision_name(e.precision)) + ")";
    for (size_t i = 0; i < cases.size(); ++i) {
        const RefCase& c = cases[i];
        const GreedyRun run = greedy(**session, c.prompt_ids, e.n_compared_tokens);
        const std::vector<int32_t> want(c.generated_ids.begin(), c.generated_ids.begin() + e.n_compared_tokens);
        if (run.ids == want) {
            ++identical;
        } else {
            const size_t step = static_cast<size_t>(std::mismatch(run.ids.begin(), run.ids.end(), want.begin()).first - run.ids.begin());
            std::cout << "[ diverges  ] " << name << " case " << i << " at step " << step << ": " << run.ids[step]
                      << " where the reference has " << want[step] << "\n";
        }
        const double err = relative_l2(run.first_step_logits, c.first_step_logits);
        errors.push_back(err);
        EXPECT_LT(err, e.max_logit_error) << e.model_file << " case " << i;
    }
    const double worst = *std::max_element(errors.begin(), errors.end());
    const double mid = median(errors);
    std::cout << "[ reference ] " << name << ": ";
    if (e.n_compared_tokens > 0) {
        std::cout << identical << "/" << cases.size() << " runs identical over " << e.n_compared_tokens << " tokens; ";
    }
    std::cout << "first-step logit relative L2 error: median " << mid << ", worst " << worst << " (bounds " << e.max_median_error
              << ", " << e.max_logit_error << ")\n";
    EXPECT_GE(identical, e.min_identical_runs) << name;
    EXPECT_LE(mid, e.max_median_error) << name;
}

class ForwardReference : public ::testing::Test {
protected:
    void SetUp() override {
        auto d = test::refdata_dir();
        if (!d) GTEST_SKIP() << "../shared/refdata is absent; reference comparisons skipped";
        dir_ = *d;
    }
    std::filesystem::path dir_;
};

// F32 weights, F32 KV cache: llama.cpp's logits agree with a float64 forward pass to ~1e-6.
TEST_F(ForwardReference, Stories260KF32AllGreedyRuns) {
    const auto cases = read_cases(read_json(dir_ / "stories260K_ref.json").at("cases"), "first_step_logits_kv_f32");
    check_against_reference(dir_, {"stories260K.gguf", 1e-5, 48, 9}, cases);
}

// An F16 KV cache, as the reference's default: the query rounded to F16 for q·k (in its tiled order
// for the prompt's tokens), the softmax weights rounded to F16 for the values. Against the
// F16-cache logits: median 2.5e-7 (the file's six decimals), 7 of 9 cases under 2.4e-6, two at
// 2.0e-5 and 6.7e-5 (not explained yet: neither the other score order nor the other value order
// moves them). Leaving out either rounding gives a median of 1e-4 - 2e-4, as far as the F32-cache
// logits are from these (5e-5 - 4.8e-4), so the median bound tells the cache types apart.
TEST_F(ForwardReference, Stories260KF16KvCache) {
    const auto json = read_json(dir_ / "stories260K_ref.json").at("cases");
    const KvTypes f16{TensorType::F16, TensorType::F16};
    check_against_reference(dir_, {"stories260K.gguf", 1e-4, 48, 9, Precision::Reference, 1e-6, f16},
                            read_cases(json, "first_step_logits_kv_f16"));
    check_against_reference(dir_, {"stories260K.gguf", 1e-4, 48, 9, Precision::Reference, 1e-6, f16},
                            read_cases(json, "first_step_logits_kv_f16"), CpuPath::Scalar);
}

// The scalar reference kernels on the same data.
TEST_F(ForwardReference, Stories260KF32ScalarPath) {
    const auto cases = read_cases(read_json(dir_ / "stories260K_ref.json").at("cases"), "first_step_logits_kv_f32");
    check_against_reference(dir_, {"stories260K.gguf", 1e-5, 48, 9}, cases, CpuPath::Scalar);
}

// llama.cpp rounds activations to F16 inside F16 products; reference precision does the same.
TEST_F(ForwardReference, Stories260KF16AllGreedyRuns) {
    const auto cases = read_cases(read_json(dir_ / "stories260K_quant_ref.json").at("cases").at("f16"), "first_step_logits");
    check_against_reference(dir_, {"stories260K-f16.gguf", 1e-3, 48, 9, Precision::Reference, 3e-4}, cases);
}

// Exact precision keeps F32 activations (README: 1e-4 - 3e-4 expected).
TEST_F(ForwardReference, Stories260KF16Exact) {
    const auto cases = read_cases(read_json(dir_ / "stories260K_quant_ref.json").at("cases").at("f16"), "first_step_logits");
    check_against_reference(dir_, {"stories260K-f16.gguf", 1e-3, 48, 9, Precision::Exact}, cases);
}

// Reference precision quantises the activations to Q8_0 as llama.cpp does: at least 8 of the 9
// 48-token runs are identical and the median first-step error is at float rounding (a single
// activation rounding to the neighbouring quantum can still move one case by ~1e-2).
TEST_F(ForwardReference, Stories260KQ8_0) {
    const auto cases = read_cases(read_json(dir_ / "stories260K_quant_ref.json").at("cases").at("q8_0"), "first_step_logits");
    check_against_reference(dir_, {"stories260K-q8_0.gguf", 2e-2, 48, 8, Precision::Reference, 1e-5}, cases);
}

TEST_F(ForwardReference, Stories260KQ4_0) {
    const auto cases = read_cases(read_json(dir_ / "stories260K_quant_ref.json").at("cases").at("q4_0"), "first_step_logits");
    check_against_reference(dir_, {"stories260K-q4_0.gguf", 2e-2, 48, 8, Precision::Reference, 1e-5}, cases);
}

// The same files at exact precision (F32 activations; README: 3e-3 - 1.6e-2 and 7/9 expected).
// Measured here: 2.9e-3 - 1.1e-2 for Q8_0 with weights that dequantise exactly.
TEST_F(ForwardReference, Stories260KQ8_0Exact) {
    const auto cases = read_cases(read_json(dir_ / "stories260K_quant_ref.json").at("cases").at("q8_0"), "first_step_logits");
    check_against_reference(dir_, {"stories260K-q8_0.gguf", 1.5e-2, 48, 7, Precision::Exact}, cases);
}

TEST_F(ForwardReference, Stories260KQ4_0Exact) {
    const auto cases = read_cases(read_json(dir_ / "stories260K_quant_ref.json").at("cases").at("q4_0"), "first_step_logits");
    check_against_reference(dir_, {"stories260K-q4_0.gguf", 2.5e-2, 48, 7, Precision::Exact}, cases);
}

// Random weights are chaotic: only the first 12 tokens are robust (README).
TEST_F(ForwardReference, Qwen2TinyF32First12Tokens) {
    const auto cases = read_cases(read_json(dir_ / "qwen2_tiny_ref.json").at("cases").at("f32"), "first_step_logits");
    check_against_reference(dir_, {"qwen2-tiny-f32.gguf", 1e-5, 12, 9}, cases);
}

// Reference precision (Q8_0 and Q8_K activations): median first-step error <= 1e-3 on every
// quantised file (measured: ~8e-8); a case whose activation rounds to the neighbouring quantum
// stays within 3e-2. The greedy runs are printed where they diverge. The reference data was not
// made by an AVX2 build of llama.cpp: the AVX2 build (whose float steps reference precision
// follows, backend/cpu/reference_float.h) itself parts from it in Q8_0 case 6 at step 8 and Q6_K
// case 4 at step 11 — where Octoscope parts from it too, while agreeing with that build bit for
// bit over all 40 steps of all 9 cases (docs/performance.md).
TEST_F(ForwardReference, Qwen2TinyQuantisedFirstStepLogits) {
    const auto all = read_json(dir_ / "qwen2_tiny_ref.json").at("cases");
    for (const char* type : {"q8_0", "q6_k", "q5_k_m", "q4_k_m"}) {
        const auto cases = read_cases(all.at(type), "first_step_logits");
        check_against_reference(dir_, {std::string("qwen2-tiny-") + type + ".gguf", 3e-2, 12, 7, Precision::Reference, 1e-3},
                                cases);
    }
}

// Exact precision: README 2.5e-2 - 4.3e-2 (llama.cpp quantises activations); a wrong block layout
// gives errors near 1.
TEST_F(ForwardReference, Qwen2TinyQuantisedExact) {
    const auto all = read_json(dir_ / "qwen2_tiny_ref.json").at("cases");
    for (const char* type : {"q8_0", "q6_k", "q5_k_m", "q4_k_m"}) {
        const auto cases = read_cases(all.at(type), "first_step_logits");
        check_against_reference(dir_, {std::string("qwen2-tiny-") + type + ".gguf", 6e-2, 0, 0, Precision::Exact}, cases);
    }
}

// Every kernel path at reference precision, on every weight type of the quantised files.
TEST_F(ForwardReference, Qwen2TinyQuantisedEveryPath) {
    const auto all = read_json(dir_ / "qwen2_tiny_ref.json").at("cases");
    for (const char* type : {"q8_0", "q5_k_m", "q4_k_m"}) {
        const auto cases = read_cases(all.at(type), "first_step_logits");
        for (CpuPath path : kCpuPaths) {
            if (!cpu_supports(path)) continue;
            check_against_reference(dir_, {std::string("qwen2-tiny-") + type + ".gguf", 3e-2, 12, 7, Precision::Reference, 1e-3},
                                    cases, path);
        }
    }
}

// phi3 (fused QKV and gate/up, NeoX RoPE; README "archs/"): every one of the 40 greedy tokens is
// robust on the F32 file, and llama.cpp's first-step logits agree with float64 to ~5e-7
// (measured here: 5.6e-7 median, 6.6e-7 worst).
TEST_F(ForwardReference, Phi3TinyF32AllGreedyRuns) {
    const auto cases = read_cases(read_json(dir_ / "archs" / "phi3_tiny_ref.json").at("cases").at("f32"), "first_step_logits");
    check_against_reference(dir_ / "archs", {"phi3-tiny-f32.gguf", 3e-6, 40, 9}, cases);
}

// qwen3, gemma3 and qwen3moe (README "archs/" section 2): ik_llama.cpp 8337e4cd3 ran them with
// keys F32 and values F16 (it refuses an F32 V cache without flash attention), so the sessions
// here pin that cache. ik multiplies the F16 values by float softmax weights, where llama.cpp
// c392e50 (whose order reference precision follows) rounds the weights to F16 too, so these run
// at exact precision: first-step error median 2.0e-5 / 1.5e-6 / 6.9e-6, worst 4.1e-5 / 1.2e-4 /
// 1.1e-4 (reference precision: 3.3e-4 / 6.1e-4 / 5.3e-4 — the README's "~5e-4 from an exact
// engine" is the weights' rounding). Robust leading tokens per prompt (top-2 gap >= 0.007):
// qwen3 40 in 6 of 9, gemma3 40 in 9, qwen3moe 40 in 7, which bound the identical runs. Measured:
// 9/9 identical over 40 tokens for all three.
TEST_F(ForwardReference, IkArchitecturesWithTheirF16ValueCache) {
    const KvTypes ik_cache{TensorType::F32, TensorType::F16};
    for (const auto& [arch, min_identical] : {std::pair{"qwen3", 6}, std::pair{"gemma3", 9}, std::pair{"qwen3moe", 7}}) {
        const auto cases =
            read_cases(read_json(dir_ / "archs" / (std::string(arch) + "_tiny_ref.json")).at("cases").at("f32"), "first_step_logits");
        check_against_reference(dir_ / "archs",
                                {std::string(arch) + "-tiny-f32.gguf", 3e-4, 40, min_identical, Precision::Exact, 5e-5, ik_cache},
                                cases);
    }
}

// The quantised copies at reference precision (Q8_0 activations for Q8_0 weights, Q8_K for
// the K-quants of Q4_K_M: attn_qkv Q5_K, ffn_down Q4_K/Q6_K, ...): median first-step error at
// float rounding (measured 1.2e-7 and 1.3e-7); a case whose activation rounds to the
// neighbouring quantum reaches 1.2e-2 / 2.0e-2. Measured 5/9 (Q8_0) and 8/9 (Q4_K_M) identical
// 40-token runs (README: 2-9 of 9 with the activation quantisation emulated); the divergences
// are printed.
TEST_F(ForwardReference, Phi3TinyQuantised) {
    const auto all = read_json(dir_ / "archs" / "phi3_tiny_ref.json").at("cases");
    for (const auto& [type, min_identical] : {std::pair{"q8_0", 4}, std::pair{"q4_k_m", 7}}) {
        const auto cases = read_cases(all.at(type), "first_step_logits");
        check_against_reference(dir_ / "archs",
                                {std::string("phi3-tiny-") + type + ".gguf", 3e-2, 40, min_identical, Precision::Reference, 1e-3},
                                cases);
    }
}

// gemma2 (README "archs/": 26 layers, embeddings x sqrt(n_embd), GELU gated FFN, post-norms,
// attention soft-cap 10, final soft-cap 15, a sliding window of 16 on the even layers, tied
// output): 39 robust tokens. Reference precision computes GELU from the fp16 table as llama.cpp
// does (README: <= 5e-4 with the table emulated; measured 3.0e-4 median, 4.2e-4 worst); exact
// precision computes it in float (README: ~1e-3 expected; measured 1.5e-3 median, 3.1e-3 worst).
// Both repeat all 9 runs over the 39 robust tokens.
TEST_F(ForwardReference, Gemma2TinyF32) {
    const auto cases = read_cases(read_json(dir_ / "archs" / "gemma2_tiny_ref.json").at("cases").at("f32"), "first_step_logits");
    check_against_reference(dir_ / "archs", {"gemma2-tiny-f32.gguf", 1e-3, 39, 9, Precision::Reference, 5e-4}, cases);
    check_against_reference(dir_ / "archs", {"gemma2-tiny-f32.gguf", 6e-3, 39, 9, Precision::Exact, 3e-3}, cases);
}

// The quantised copies (Q8_0; Q5_0/Q8_0 in -q4_k_m, as no row is a multiple of 256) at
// reference precision: median first-step error at float rounding (measured 1.1e-7 for both; one
// Q4_K_M case 2.4e-2). The 26 random layers are chaotic: measured 4/9 and 2/9 identical runs
// over 39 tokens, the others leaving at steps 11-35 (README: 0-3 of 9 without the activation
// quantisation, 2-9 with it); divergences are printed.
TEST_F(ForwardReference, Gemma2TinyQuantised) {
    const auto all = read_json(dir_ / "archs" / "gemma2_tiny_ref.json").at("cases");
    for (const auto& [type, min_identical] : {std::pair{"q8_0", 3}, std::pair{"q4_k_m", 1}}) {
        const auto cases = read_cases(all.at(type), "first_step_logits");
        check_against_reference(dir_ / "archs",
                                {std::string("gemma2-tiny-") + type + ".gguf", 3e-2, 39, min_identical, Precision::Reference, 1e-5},
                                cases);
    }
}

// Mixtral-style mixture of experts (architecture llama, README "archs/": 8 experts, 2 used,
// probabilities renormalised to sum 1): the 16 robust tokens. Measured: F32 9/9 identical,
// first-step error 5.8e-7 median / 9.3e-7 worst (README's float64: 2.9e-7 - 6.1e-7); at reference
// precision Q8_0 9/9 (median 1.2e-7, worst 1.1e-2) and Q4_K_M 8/9 (1.4e-7, 8.7e-3; one case
// leaves at step 6 — README: 6/9 and 7/9 over 40 tokens with the activation quantisation).
TEST_F(ForwardReference, MixtralTiny) {
    const auto all = read_json(dir_ / "archs" / "mixtral_tiny_ref.json").at("cases");
    check_against_reference(dir_ / "archs", {"mixtral-tiny-f32.gguf", 3e-6, 16, 9, Precision::Reference, 1e-6},
                            read_cases(all.at("f32"), "first_step_logits"));
    for (const auto& [type, min_identical] : {std::pair{"q8_0", 8}, std::pair{"q4_k_m", 7}}) {
        check_against_reference(dir_ / "archs",
                                {std::string("mixtral-tiny-") + type + ".gguf", 3e-2, 16, min_identical, Precision::Reference, 1e-5},
                                read_cases(all.at(type), "first_step_logits"));
    }
}

// Qwen-MoE (README "archs/": 8 routed experts of width 32, 2 used, weights NOT renormalised,
// plus a shared expert of width 64 behind a sigmoid gate): the 12 robust tokens. Measured: F32
// 9/9 identical, first-step error 5.4e-7 median / 6.7e-7 worst (README's float64: 4.5e-7 median);
// reference precision Q8_0 9/9 (1.3e-7, 1.4e-2), Q4_K_M 9/9 (1.0e-7, 1.7e-2).
TEST_F(ForwardReference, Qwen2MoeTiny) {
    const auto all = read_json(dir_ / "archs" / "qwen2moe_tiny_ref.json").at("cases");
    check_against_reference(dir_ / "archs", {"qwen2moe-tiny-f32.gguf", 3e-6, 12, 9, Precision::Reference, 1e-6},
                            read_cases(all.at("f32"), "first_step_logits"));
    for (const auto& [type, min_identical] : {std::pair{"q8_0", 8}, std::pair{"q4_k_m", 8}}) {
        check_against_reference(dir_ / "archs",
                                {std::string("qwen2moe-tiny-") + type + ".gguf", 3e-2, 12, min_identical, Precision::Reference, 1e-5},
                                read_cases(all.at(type), "first_step_logits"));
    }
}

// OLMoE (README "archs/": RMSNorm over the whole Q and K projections, 8 experts, 2 used, weights
// NOT renormalised): the 40 robust tokens. Measured: F32 9/9 identical, 4.3e-7 median / 6.3e-7
// worst (README: 3.3e-7); reference precision Q8_0 8/9 (1.2e-7, 1.3e-7; one case leaves at step
// 20) and Q4_K_M 8/9 (9.6e-8, 1.5e-2; one at step 15) — README: 8/9 and 8/9 with the activation
// quantisation emulated.
TEST_F(ForwardReference, OlmoeTiny) {
    const auto all = read_json(dir_ / "archs" / "olmoe_tiny_ref.json").at("cases");
    check_against_reference(dir_ / "archs", {"olmoe-tiny-f32.gguf", 3e-6, 40, 9, Precision::Reference, 1e-6},
                            read_cases(all.at("f32"), "first_step_logits"));
    for (const auto& [type, min_identical] : {std::pair{"q8_0", 7}, std::pair{"q4_k_m", 7}}) {
        check_against_reference(dir_ / "archs",
                                {std::string("olmoe-tiny-") + type + ".gguf", 3e-2, 40, min_identical, Precision::Reference, 1e-5},
                                read_cases(all.at(type), "first_step_logits"));
    }
}

// The low-bit weight types (README "archs/ (additions)", sections 1 and 1b): files that llama.cpp
// c392e50 quantised, against its runs, each case over its robust tokens (top-2 gap >= 0.007,
// meta.robust_tokens_per_prompt). The integer kernels take the float steps of the reference's
// x86 kernels for these types (checked bit for bit against ggml's own code outside this
// repository, and by ReferencePrecision.*LowBit* / Iq4Nl* / Q2_K* here); the reference runs were
// made by an AVX-512 build, whose other float steps (F32 products, exp, softmax) differ from the
// AVX2 build's that Octoscope follows, so a case whose activation rounds to the neighbouring
// 8-bit quantum somewhere differs by 1e-2 to 3e-2 and may part. Measured on the AVX-512 VNNI path:
// first-step logits within a median relative L2 of 0.7e-7 to 2.5e-7 on all 16 files (a wrong
// block layout or grid gives ~1); identical runs of 9: 9 for IQ3_S, IQ2_XXS, IQ2_M, IQ3_XXS,
// IQ1_S, TQ1_0, TQ2_0; 8 for Q3_K_M, IQ4_XS, IQ4_NL, IQ2_XS, IQ2_S; 7 for IQ3_M; 6 for Q2_K;
// 5 for IQ1_M and mixtral IQ4_XS (130 of 153; 113 with the per-block float order before). The
// bounds below are those counts.
struct LowBitResult {
    int identical = 0;
    int late = 0;  // cases parting in the second half of their robust tokens
    int early = 0; // cases parting sooner
    double median_error = 0.0;
    double worst_error = 0.0;
};

LowBitResult run_low_bit_file(const std::filesystem::path& dir, const std::string& json_file, const std::string& type,
                              std::optional<CpuPath> path = std::nullopt) {
    LowBitResult result;
    const auto all = read_json(dir / json_file);
    const std::string file = all.at("meta").at("files").at(type).at("file").get<std::string>();
    const auto robust = all.at("meta").at("robust_tokens_per_prompt").at(type).get<std::vector<size_t>>();
    const auto cases = read_cases(all.at("cases").at(type), "first_step_logits");
    auto model = Model::load((dir / file).string());
    EXPECT_TRUE(model) << file << ": " << model.error().message;
    if (!model) return result;
    auto backend = CpuBackend::create({2, path});
    EXPECT_TRUE(backend);
    if (!backend) return result;
    SessionOptions options;
    options.kv_types = {TensorType::F32, TensorType::F32}; // the reference's cache (README: llama.cpp c392e50, F32 KV)
    auto session = Session::create(**model, **backend, options);
    EXPECT_TRUE(session) << session.error().message;
    if (!session) return result;
    std::vector<double> errors;
    const std::string name = file + " (" + std::string(cpu_path_name((*backend)->path())) + ")";
    for (size_t i = 0; i < cases.size(); ++i) {
        const size_t n = std::min(robust.at(i), cases[i].generated_ids.size());
        const GreedyRun run = greedy(**session, cases[i].prompt_ids, n);
        const std::vector<int32_t> want(cases[i].generated_ids.begin(), cases[i].generated_ids.begin() + static_cast<std::ptrdiff_t>(n));
        if (run.ids == want) {
            ++result.identical;
        } else {
            const size_t step = static_cast<size_t>(std::mismatch(run.ids.begin(), run.ids.end(), want.begin()).first - run.ids.begin());
            (2 * step >= n ? result.late : result.early) += 1;
            std::cout << "[ diverges  ] " << name << " case " << i << " at step " << step << " of " << n << " robust\n";
        }
        errors.push_back(relative_l2(run.first_step_logits, cases[i].first_step_logits));
    }
    result.median_error = median(errors);
    result.worst_error = *std::max_element(errors.begin(), errors.end());
    std::cout << "[ low-bit   ] " << name << ": " << result.identical << "/" << cases.size()
              << " runs identical over their robust tokens; first-step logit relative L2 error: median "
              << result.median_error << ", worst " << result.worst_error << "\n";
    return result;
}

void expect_low_bit_file_matches(const std::filesystem::path& dir, const std::string& json_file, const std::string& type,
                                 int min_identical) {
    const LowBitResult r = run_low_bit_file(dir, json_file, type);
    EXPECT_GE(r.identical, min_identical) << type;
    EXPECT_LE(r.median_error, 3e-7) << type;
    EXPECT_LT(r.worst_error, 5e-2) << type;
}

// Q2_K, Q3_K, IQ4_XS, IQ4_NL, IQ3_S without an importance matrix (section 1).
TEST_F(ForwardReference, LowBitQwen2TinyWithoutImportanceMatrix) {
    for (const auto& [type, min_identical] : {std::pair{"q2_k", 6}, std::pair{"q3_k_m", 8}, std::pair{"iq4_xs", 8},
                                              std::pair{"iq4_nl", 8}, std::pair{"iq3_s", 9}}) {
        expect_low_bit_file_matches(dir_ / "archs", "qwen2-tiny-iquants_ref.json", type, min_identical);
    }
}

// IQ2_XXS, IQ2_XS, IQ2_S, IQ3_XXS, IQ1_S, IQ1_M, TQ1_0, TQ2_0 (section 1b; file names are
// quantiser presets: iq2_s holds IQ2_XS and IQ3_S, iq2_m IQ2_S, iq3_m IQ3_S).
TEST_F(ForwardReference, LowBitQwen2TinyWithImportanceMatrix) {
    for (const auto& [type, min_identical] :
         {std::pair{"iq2_xxs", 9}, std::pair{"iq2_xs", 8}, std::pair{"iq2_s", 8}, std::pair{"iq2_m", 9}, std::pair{"iq3_xxs", 9},
          std::pair{"iq3_m", 7}, std::pair{"iq1_s", 9}, std::pair{"iq1_m", 5}, std::pair{"tq1_0", 9}, std::pair{"tq2_0", 9}}) {
        expect_low_bit_file_matches(dir_ / "archs", "qwen2-tiny-lowbit_ref.json", type, min_identical);
    }
}

// Mixture of experts with IQ4_XS experts and IQ4_NL down projections (rows of 32).
TEST_F(ForwardReference, LowBitMixtralTinyIq4Xs) {
    expect_low_bit_file_matches(dir_ / "archs", "mixtral-tiny-iquants_ref.json", "iq4_xs", 5);
}


// gpt-oss against ik_llama.cpp 8337e4cd3's runs (README "archs/" section 2; K cache F32, V cache
// F16 as it ran). The README finds ~5e-4 relative error in those runs against a float64 pass:
// that is their F16 value cache. ik multiplies the F16 values by float softmax weights (llama.cpp
// c392e50, which reference precision follows, rounds the weights to F16 as well: 5.6e-4 from ik
// here), so the F32 file runs at exact precision with the same cache: measured 9/9 runs equal,
// first-step error median 1.0e-6, worst 6.6e-5 (with an F32 value cache instead: 8/9, 4.7e-4 —
// the float64 pass's figures). A step is compared where ik's top-2 gap is >= 0.02 (its
// `top_logits_per_step`), up to the first that is not; the issue allows one divergent prompt.
// The quantised files were quantised by ik, whose quantised dot products (activations rounded
// its own way) are not llama.cpp's: at the default precision their first token must agree
// wherever ik's first-step gap is >= 0.3 (measured: all 6, 5 and 4), and the first-step logits lie
// within a few percent of ik's (median 2.8e-2..4.0e-2, worst 8.9e-2 — beside the quantisation's
// own distance from F32 in ik's runs, 3e-2..7e-1).
struct IkFile {
    std::string type;       // the key in the reference JSON
    double min_first_gap;   // first-step gap from which the first token must agree (0: compare robust steps)
    double max_logit_error; // bound on every first-step logit relative L2 error
    double max_median_error;
    Precision precision;
};

// Leading steps whose top-2 gap in the reference is >= min_gap.
size_t steps_with_gap(const nlohmann::json& c, double min_gap) {
    size_t n = 0;
    for (const auto& step : c.at("top_logits_per_step")) {
        if (step.at(0).at(1).get<double>() - step.at(1).at(1).get<double>() < min_gap) break;
        ++n;
    }
    return n;
}

// One architecture's tiny files against ik's runs (the reference JSON `json`): F32 runs equal over
// the steps where ik's top-2 gap is >= 0.02, at most one prompt apart; quantised files' first token
// where ik's first-step gap is >= min_first_gap; first-step logits within the bounds. `kv`: the
// cache ik ran with, where the default is not it.
void expect_ik_runs(const std::filesystem::path& dir, const char* json, const char* label, std::initializer_list<IkFile> files,
                    std::optional<KvTypes> kv = std::nullopt) {
    const auto all = read_json(dir / "archs" / json);
    auto backend = CpuBackend::create({2, std::nullopt});
    ASSERT_TRUE(backend);
    for (const IkFile& f : files) {
        const std::string file = all.at("meta").at("files").at(f.type).at("file").get<std::string>();
        auto model = Model::load((dir / "archs" / file).string());
        ASSERT_TRUE(model) << file << ": " << model.error().message;
        SessionOptions options;
        if (kv) options.kv_types = kv_types_exactly(*kv);
        options.precision = f.precision;
        auto session = Session::create(**model, **backend, options);
        ASSERT_TRUE(session) << session.error().message;
        const auto& cases = all.at("cases").at(f.type);
        int divergent = 0, compared = 0, agreeing = 0;
        std::vector<double> errors;
        for (size_t i = 0; i < cases.size(); ++i) {
            const RefCase c = read_cases(nlohmann::json::array({cases[i]}), "first_step_logits").front();
            const size_t robust = steps_with_gap(cases[i], 0.02);
            const double first_gap = steps_with_gap(cases[i], f.min_first_gap) > 0 ? 1.0 : 0.0;
            const size_t n = f.min_first_gap > 0 ? 1 : std::max<size_t>(robust, 1);
            const GreedyRun run = greedy(**session, c.prompt_ids, n);
            errors.push_back(relative_l2(run.first_step_logits, c.first_step_logits));
            EXPECT_LT(errors.back(), f.max_logit_error) << file << " case " << i;
            if (f.min_first_gap > 0) {
                if (first_gap == 0.0) continue; // a near tie in ik's own numbers
                ++compared;
                agreeing += run.ids.at(0) == c.generated_ids.at(0);
                EXPECT_EQ(run.ids.at(0), c.generated_ids.at(0)) << file << " case " << i << ": first token";
                continue;
            }
            ++compared;
            const std::vector<int32_t> want(c.generated_ids.begin(), c.generated_ids.begin() + static_cast<std::ptrdiff_t>(robust));
            const std::vector<int32_t> got(run.ids.begin(), run.ids.begin() + static_cast<std::ptrdiff_t>(robust));
            if (got == want) {
                ++agreeing;
            } else {
                ++divergent;
                const auto step = std::mismatch(got.begin(), got.end(), want.begin()).first - got.begin();
                std::cout << "[ diverges  ] " << file << " case " << i << " at step " << step << " of " << robust << " robust\n";
            }
        }
        std::cout << "[ " << label << " ] " << file << ": " << agreeing << "/" << compared
                  << (f.min_first_gap > 0 ? " first tokens agree (ik's first-step gap >= 0.3)" : " runs equal over their steps with gap >= 0.02")
                  << "; first-step logit relative L2 error: median " << median(errors) << ", worst "
                  << *std::max_element(errors.begin(), errors.end()) << "\n";
        EXPECT_LT(median(errors), f.max_median_error) << file;
        if (f.min_first_gap == 0) {
            EXPECT_LE(divergent, 1) << file;
        }
        EXPECT_GT(compared, 2) << file; // the gaps leave something to compare
    }
}

TEST_F(ForwardReference, GptOssTinyAgainstIkRuns) {
    expect_ik_runs(dir_, "gpt-oss_tiny_ref.json", "gpt-oss  ",
                   {IkFile{"f32", 0.0, 2e-4, 1e-5, Precision::Exact}, IkFile{"q8_0", 0.3, 0.2, 5e-2, Precision::Reference},
                    IkFile{"q4_k_m", 0.3, 0.2, 5e-2, Precision::Reference},
                    IkFile{"mxfp4", 0.3, 0.2, 5e-2, Precision::Reference}},
                   KvTypes{TensorType::F32, TensorType::F16});
}

// gpt-oss-tiny-f32 against the float64 pass written from gpt-oss's definition (tests/support/
// forward64): the engine at exact precision with an F32 cache, every position of a 24-token prompt,
// attention outputs and logits within 1e-5 — the file as ik's gguf writer laid it out.
TEST_F(ForwardReference, GptOssTinyF32MatchesFloat64) {
    auto model = Model::load((dir_ / "archs" / "gpt-oss-tiny-f32.gguf").string());
    ASSERT_TRUE(model) << model.error().message;
    const auto cases = read_cases(read_json(dir_ / "archs" / "gpt-oss_tiny_ref.json").at("cases").at("f32"), "first_step_logits");
    std::vector<int32_t> prompt = cases.at(0).prompt_ids;
    prompt.insert(prompt.end(), cases.at(0).generated_ids.begin(), cases.at(0).generated_ids.begin() + 18);
    const test::EngineRun got = test::run_engine(**model, prompt);
    ASSERT_EQ(got.logits.size(), prompt.size());
    const ModelParams& p = (*model)->params();
    const test::Errors e = test::compare(got, test::forward64(**model, prompt, test::rope_of(**model)), p.n_layer, p.n_embd_q());
    std::cout << "[ gpt-oss   ] gpt-oss-tiny-f32 (" << prompt.size() << " tokens) vs float64: attention outputs " << e.head_outputs
              << ", logits " << e.logits << "\n";
    EXPECT_LT(e.head_outputs, 1e-5);
    EXPECT_LT(e.logits, 1e-5);
}

// deepseek2 (multi-head latent attention, sigmoid-gated experts with a selection bias, a leading
// dense block, a shared expert) against ik_llama.cpp 8337e4cd3's runs (README "archs/" section 2:
// ik ran mla_attn 3 with its F32 latent cache, so no F16 values are involved; ik's own error
// against a float64 pass is 2e-4..8e-4, the float64 pass leaves ik's path on one prompt). The
// engine runs the absorbed form at exact precision. F32: runs equal over ik's steps with a top-2
// gap >= 0.02, at most one prompt apart; quantised files (ik re-quantised the attn_k_b / attn_v_b
// it derives to Q8_0, Octoscope multiplies attn_kv_b as stored, as llama.cpp does): the first token
// wherever ik's first-step gap is >= 0.3. Measured: F32 8/9 (the ninth, "Tim and his mom", leaves
// ik at step 14 where the float64 pass does too), first-step error median 5.1e-4, worst 5.9e-4 —
// ik's own distance from float64; Q8_0 5/5 and Q4_K_M 7/7 first tokens, median 4.0e-2 / 4.8e-2,
// worst 0.25 / 0.11 (mainline llama.cpp is 3e-2..0.65 from ik on these files).
TEST_F(ForwardReference, DeepSeek2TinyAgainstIkRuns) {
    expect_ik_runs(dir_, "deepseek2_tiny_ref.json", "deepseek2",
                   {IkFile{"f32", 0.0, 1e-3, 7e-4, Precision::Exact}, IkFile{"q8_0", 0.3, 0.4, 0.08, Precision::Reference},
                    IkFile{"q4_k_m", 0.3, 0.3, 0.1, Precision::Reference}});
}

// deepseek2-tiny-f32 against the float64 pass written from DeepSeek-V2's definition in its
// expanded form (every head's key and value built from the latent; tests/support/forward64): the
// engine's absorbed form at exact precision, every position of a 24-token prompt, each head's
// output (its head_dim_v slice) and the logits within 1e-5.
TEST_F(ForwardReference, DeepSeek2TinyF32MatchesFloat64) {
    auto model = Model::load((dir_ / "archs" / "deepseek2-tiny-f32.gguf").string());
    ASSERT_TRUE(model) << model.error().message;
    const auto cases = read_cases(read_json(dir_ / "archs" / "deepseek2_tiny_ref.json").at("cases").at("f32"), "first_step_logits");
    std::vector<int32_t> prompt = cases.at(0).prompt_ids;
    prompt.insert(prompt.end(), cases.at(0).generated_ids.begin(), cases.at(0).generated_ids.begin() + 18);
    const test::EngineRun got = test::run_engine(**model, prompt);
    ASSERT_EQ(got.logits.size(), prompt.size());
    const ModelParams& p = (*model)->params();
    const test::Forward64 want = test::forward64(**model, prompt, test::rope_of(**model));
    const test::Errors e = test::compare(got, want, p.n_layer, p.n_embd_out());
    std::cout << "[ deepseek2 ] deepseek2-tiny-f32 (" << prompt.size() << " tokens) vs float64: attention outputs " << e.head_outputs
              << ", logits " << e.logits << "\n";
    EXPECT_LT(e.head_outputs, 1e-5);
    EXPECT_LT(e.logits, 1e-5);
    // the comparison notices a step left out: the experts' weights not renormalised
    test::Steps no_norm;
    no_norm.renormalise_experts = false;
    const test::Errors off = test::compare(got, test::forward64(**model, prompt, test::rope_of(**model), no_norm), p.n_layer,
                                           p.n_embd_out());
    EXPECT_GT(off.logits, 1e-2);
}

// The expanded form runs where it is cheaper: a 120-token prompt in one batch of the tiny file
// (more than 102 tokens: it then saves more on the scores than the expansion of every position
// costs). The same prompt one token at a time takes the absorbed form. Both agree with each other
// and with the float64 pass (which computes the expanded form in double) to float rounding, and
// they are not bit-identical: two different computations ran.
TEST_F(ForwardReference, DeepSeek2ExpandedFormMatchesAbsorbedAndFloat64) {
    auto model = Model::load((dir_ / "archs" / "deepseek2-tiny-f32.gguf").string());
    ASSERT_TRUE(model) << model.error().message;
    const auto cases = read_cases(read_json(dir_ / "archs" / "deepseek2_tiny_ref.json").at("cases").at("f32"), "first_step_logits");
    std::vector<int32_t> prompt = {1};
    for (const RefCase& c : cases) {
        prompt.insert(prompt.end(), c.generated_ids.begin(), c.generated_ids.end());
        if (prompt.size() >= 120) break;
    }
    prompt.resize(120);
    auto backend = CpuBackend::create({2, std::nullopt});
    ASSERT_TRUE(backend);
    const auto run = [&](int64_t n_batch) {
        SessionOptions o;
        o.precision = Precision::Exact;
        o.all_logits = true;
        o.instrument.head_outputs = true;
        o.n_batch = n_batch;
        auto s = Session::create(**model, **backend, o);
        EXPECT_TRUE(s) << s.error().message;
        test::EngineRun r;
        auto logits = (*s)->eval(prompt);
        EXPECT_TRUE(logits) << logits.error().message;
        if (!logits) return r;
        const auto n_vocab = static_cast<size_t>((*model)->params().n_vocab);
        for (size_t t = 0; t < prompt.size(); ++t) {
            r.logits.emplace_back(logits->begin() + static_cast<std::ptrdiff_t>(t * n_vocab),
                                  logits->begin() + static_cast<std::ptrdiff_t>((t + 1) * n_vocab));
            r.head_outputs.push_back((*s)->probes()[t].head_outputs);
        }
        return r;
    };
    const test::EngineRun expanded = run(128), absorbed = run(1);
    ASSERT_EQ(expanded.logits.size(), prompt.size());
    ASSERT_EQ(absorbed.logits.size(), prompt.size());
    const ModelParams& p = (*model)->params();
    const test::Forward64 want = test::forward64(**model, prompt, test::rope_of(**model));
    const test::Errors e = test::compare(expanded, want, p.n_layer, p.n_embd_out());
    const test::Errors a = test::compare(absorbed, want, p.n_layer, p.n_embd_out());
    std::cout << "[ deepseek2 ] 120 tokens vs float64: expanded form " << e.head_outputs << " / " << e.logits
              << ", absorbed form " << a.head_outputs << " / " << a.logits << " (attention outputs / logits)\n";
    EXPECT_LT(e.head_outputs, 1e-5);
    EXPECT_LT(e.logits, 1e-5);
    EXPECT_LT(a.head_outputs, 1e-5);
    EXPECT_LT(a.logits, 1e-5);
    EXPECT_NE(expanded.logits.back(), absorbed.logits.back()) << "the one-batch run took the expanded form";
}

// Files of newer converters store attn_kv_b split per head — attn_k_b [nope, kv_lora, n_head]
// (the key rows transposed) and attn_v_b [kv_lora, value_length, n_head] — and describe the
// absorbed cache in key_length / value_length (kv_lora + n_rot, kv_lora, head_count_kv 1) with the
// heads' sizes in key_length_mla / value_length_mla. The tiny F32 file rewritten that way holds the
// same numbers, so it must give bit-identical logits; with one head's value rows swapped, it must not.
std::vector<uint8_t> split_kv_b(const Model& model, bool swap_heads) {
    const ModelParams& p = model.params();
    const int64_t nope = p.head_dim() - p.n_rot, dv = p.head_dim_v(), r = p.n_lora_kv, heads = p.n_head;
    const std::string a = p.architecture + ".";
    GgufWriter w;
    for (const auto& [key, value] : model.file().metadata()) {
        if (key != a + "attention.key_length" && key != a + "attention.value_length" && key != a + "attention.head_count_kv") {
            w.add_value(key, value);
        }
    }
    w.add_u32(a + "attention.key_length", static_cast<uint32_t>(r + p.n_rot));
    w.add_u32(a + "attention.value_length", static_cast<uint32_t>(r));
    w.add_u32(a + "attention.head_count_kv", 1);
    w.add_u32(a + "attention.key_length_mla", static_cast<uint32_t>(p.head_dim()));
    w.add_u32(a + "attention.value_length_mla", static_cast<uint32_t>(dv));
    for (const GgufTensorInfo& t : model.file().tensors()) {
        const std::string name = t.name;
        const size_t at = name.find("attn_kv_b");
        if (at == std::string::npos) {
            EXPECT_TRUE(w.add_tensor(name, std::vector<int64_t>(t.ne, t.ne + t.n_dims), t.type.type,
                                     std::span<const uint8_t>(t.data, t.n_bytes)));
            continue;
        }
        const auto* kv = reinterpret_cast<const float*>(t.data); // [heads (nope + dv)][r]
        std::vector<float> k(static_cast<size_t>(heads * r * nope)), v(static_cast<size_t>(heads * dv * r));
        for (int64_t h = 0; h < heads; ++h) {
            const int64_t from = swap_heads && h < 2 ? 1 - h : h; // heads 0 and 1 exchange their value rows
            for (int64_t j = 0; j < r; ++j) {
                for (int64_t i = 0; i < nope; ++i) k[static_cast<size_t>((h * r + j) * nope + i)] = kv[(h * (nope + dv) + i) * r + j];
            }
            for (int64_t d = 0; d < dv; ++d) {
                for (int64_t j = 0; j < r; ++j) v[static_cast<size_t>((h * dv + d) * r + j)] = kv[(from * (nope + dv) + nope + d) * r + j];
            }
        }
        const std::string prefix = name.substr(0, at);
        EXPECT_TRUE(w.add_tensor_f32(prefix + "attn_k_b.weight", {nope, r, heads}, TensorType::F32, k.data()));
        EXPECT_TRUE(w.add_tensor_f32(prefix + "attn_v_b.weight", {r, dv, heads}, TensorType::F32, v.data()));
    }
    return w.to_bytes();
}

TEST_F(ForwardReference, DeepSeek2SplitKvBFileRunsAsTheKvBFile) {
    auto model = Model::load((dir_ / "archs" / "deepseek2-tiny-f32.gguf").string());
    ASSERT_TRUE(model) << model.error().message;
    const std::vector<int32_t> prompt = read_cases(read_json(dir_ / "archs" / "deepseek2_tiny_ref.json").at("cases").at("f32"),
                                                   "first_step_logits")
                                            .at(1)
                                            .prompt_ids;
    const test::EngineRun want = test::run_engine(**model, prompt);
    for (const bool swap : {false, true}) {
        const std::vector<uint8_t> bytes = split_kv_b(**model, swap);
        auto file = GgufFile::parse(bytes);
        ASSERT_TRUE(file) << file.error().message;
        auto split = Model::from_gguf(std::move(file.value()));
        ASSERT_TRUE(split) << split.error().message;
        const ModelParams& p = (*split)->params();
        EXPECT_EQ(p.head_dim(), 48);
        EXPECT_EQ(p.head_dim_v(), 32);
        EXPECT_TRUE((*split)->weights().layers[0].attn_k_b && !(*split)->weights().layers[0].attn_kv_b);
        const test::EngineRun got = test::run_engine(**split, prompt);
        ASSERT_EQ(got.logits.size(), want.logits.size());
        if (!swap) {
            EXPECT_EQ(got.logits, want.logits) << "the same numbers in another layout";
        } else {
            EXPECT_GT(relative_l2(got.logits.back(), std::vector<double>(want.logits.back().begin(), want.logits.back().end())), 1e-3);
        }
    }
}

// gpt-oss's MXFP4 experts checked by their values as well: the
// dequantised MXFP4 tensors against the F32 file they were quantised from. E2M1 with a shared
// power-of-two scale keeps ~10-15 % relative L2 on Gaussian weights; a wrong layout gives ~1.
TEST_F(ForwardReference, Mxfp4ExpertsDequantiseToTheirF32Weights) {
    auto quantised = GgufFile::open((dir_ / "archs" / "gpt-oss-tiny-mxfp4.gguf").string());
    auto original = GgufFile::open((dir_ / "archs" / "gpt-oss-tiny-f32.gguf").string());
    ASSERT_TRUE(quantised) << quantised.error().message;
    ASSERT_TRUE(original) << original.error().message;
    int checked = 0;
    for (const GgufTensorInfo& t : quantised->tensors()) {
        if (t.type.type != TensorType::MXFP4) continue;
        const GgufTensorInfo* f32 = original->find_tensor(t.name);
        ASSERT_NE(f32, nullptr) << t.name;
        auto got = dequantize_rows(t, 0, t.n_rows());
        auto want = dequantize_rows(*f32, 0, f32->n_rows());
        ASSERT_TRUE(got && want) << t.name;
        const double err = relative_l2(*got, std::vector<double>(want->begin(), want->end()));
        EXPECT_LT(err, 0.2) << t.name;
        EXPECT_GT(err, 0.0) << t.name << ": the MXFP4 tensor cannot equal its F32 source exactly";
        ++checked;
    }
    std::cout << "[ mxfp4     ] " << checked << " MXFP4 tensors of gpt-oss-tiny-mxfp4.gguf checked against F32\n";
    EXPECT_EQ(checked, 12); // gate, up and down experts of 4 layers
}

} // namespace
} // namespace octo
