// Forward passes on random-weight models written with GgufWriter (no ../shared needed), for
// every weight type and both architectures: the optimised kernels against the scalar
// reference, and logits bit-identical across thread counts and however the prompt is batched.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/model/synthetic_model.h"
#include "tests/support/cpu_paths.h"
#include "tests/support/error_norms.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

using test::relative_l2;

const std::vector<TensorType> kTypes = supported_tensor_types();

const std::vector<int32_t> kPrompt = {1, 17, 42, 5, 88, 63, 2, 30, 30, 71, 9};

using test::LoadedModel;

LoadedModel load(const SyntheticModelSpec& spec) { return test::load_synthetic(spec); }

std::unique_ptr<CpuBackend> backend(CpuPath path, int threads) { return std::move(CpuBackend::create({threads, path}).value()); }

// Starts the prompt and evaluates it in pieces of the given sizes; returns the last logits.
std::vector<float> run(const Model& model, Backend& b, const std::vector<size_t>& pieces, int64_t n_batch = 0,
                       Precision precision = Precision::Exact, KvTypes kv_types = {}) {
    SessionOptions options;
    options.n_batch = n_batch;
    options.precision = precision;
    options.kv_types = kv_types_exactly(kv_types);
    auto session = Session::create(model, b, options);
    EXPECT_TRUE(session);
    EXPECT_EQ((*session)->start(kPrompt), 0);
    std::span<const int32_t> rest(kPrompt);
    std::vector<float> logits;
    for (size_t n : pieces) {
        auto out = (*session)->eval(rest.first(n));
        EXPECT_TRUE(out) << out.error().message;
        logits.assign(out->begin(), out->end());
        rest = rest.subspan(n);
    }
    return logits;
}

std::string label(const std::string& arch, TensorType t) {
    return arch + " " + std::string(tensor_type_info(static_cast<uint32_t>(t))->name);
}

std::vector<CpuPath> optimised_paths() { return test::optimised_cpu_paths(); }

// Both paths multiply exactly the same dequantised weights; the optimised kernels only sum in
// another order, so the logits agree to float rounding: relative L2 below 1e-4 for every type.
// (Exact precision: at reference precision a rounding difference can move an activation to the
// neighbouring 8-bit quantum, which the random model amplifies; its kernels are compared product
// by product in test_reference_precision.cpp.)
TEST(ForwardDeterminism, OptimisedPathsMatchScalarReferenceForEveryWeightType) {
    const auto paths = optimised_paths();
    if (paths.empty()) GTEST_SKIP() << "this CPU has no optimised kernel path";
    for (const std::string arch : {"llama", "qwen2"}) {
        for (TensorType type : kTypes) {
            const auto m = load({.architecture = arch, .weight_type = type});
            ASSERT_TRUE(m.model);
            const auto scalar = backend(CpuPath::Scalar, 2);
            const auto ref = run(*m.model, *scalar, {kPrompt.size()});
            for (CpuPath path : paths) {
                const auto b = backend(path, 2);
                EXPECT_LT(relative_l2(run(*m.model, *b, {kPrompt.size()}), ref), 1e-4)
                    << cpu_path_name(path) << " " << label(arch, type);
            }
        }
    }
}

// The optimised kernels are checked for every type; the scalar path has one kernel for all
// types, so two types cover it.
// Both precisions: integer sums are exact and every float step has one fixed order.
TEST(ForwardDeterminism, LogitsBitIdenticalAcrossThreadsAndBatchSplits) {
    for (Precision precision : {Precision::Exact, Precision::Reference}) {
        for (const std::string arch : {"llama", "qwen2"}) {
            for (TensorType type : kTypes) {
                const auto m = load({.architecture = arch, .weight_type = type});
                ASSERT_TRUE(m.model);
                std::vector<CpuPath> paths = optimised_paths();
                if (type == TensorType::F32 || type == TensorType::Q4_K) paths.push_back(CpuPath::Scalar);
                for (CpuPath path : paths) {
                    const std::string what = std::string(cpu_path_name(path)) + " " + label(arch, type) + " " +
                                             std::string(precision_name(precision));
                    const auto one = backend(path, 1);
                    const auto want = run(*m.model, *one, {kPrompt.size()}, 0, precision);
                    for (int threads : {2, 3}) {
                        const auto b = backend(path, threads);
                        EXPECT_EQ(run(*m.model, *b, {kPrompt.size()}, 0, precision), want) << what << " threads " << threads;
                    }
                    const auto two = backend(path, 2);
                    EXPECT_EQ(run(*m.model, *two, {3, 1, 7}, 0, precision), want) << what << " evals of 3 + 1 + 7";
                    EXPECT_EQ(run(*m.model, *two, {kPrompt.size()}, 4, precision), want) << what << " batches of 4";
                }
            }
        }
    }
}

// The same with keys and values stored as F16, Q8_0 or Q4_0 (each, or both): a property of the
// sequence, so any thread count or split gives the same logits — and they are not the F32 cache's.
TEST(ForwardDeterminism, OtherKvTypesBitIdenticalAcrossThreadsAndBatchSplits) {
    const auto m = load({.architecture = "llama", .weight_type = TensorType::Q8_0});
    ASSERT_TRUE(m.model);
    const KvTypes kinds[] = {{TensorType::F16, TensorType::F16}, {TensorType::F16, TensorType::F32},
                             {TensorType::F32, TensorType::F16}, {TensorType::Q8_0, TensorType::Q8_0},
                             {TensorType::Q4_0, TensorType::Q4_0}, {TensorType::F16, TensorType::Q8_0}};
    std::vector<CpuPath> paths = optimised_paths();
    paths.push_back(CpuPath::Scalar);
    for (Precision precision : {Precision::Exact, Precision::Reference}) {
        for (const KvTypes& kv : kinds) {
            for (CpuPath path : paths) {
                const std::string what = std::string(cpu_path_name(path)) + " " + std::string(precision_name(precision)) +
                                         " k " + std::string(kv_type_name(kv.k)) + " v " + std::string(kv_type_name(kv.v));
                const auto one = backend(path, 1);
                const auto want = run(*m.model, *one, {kPrompt.size()}, 0, precision, kv);
                EXPECT_NE(want, run(*m.model, *one, {kPrompt.size()}, 0, precision)) << what << ": the same as F32";
                const auto three = backend(path, 3);
                EXPECT_EQ(run(*m.model, *three, {kPrompt.size()}, 0, precision, kv), want) << what << " threads 3";
                const auto two = backend(path, 2);
                EXPECT_EQ(run(*m.model, *two, {3, 1, 7}, 0, precision, kv), want) << what << " evals of 3 + 1 + 7";
                EXPECT_EQ(run(*m.model, *two, {kPrompt.size()}, 4, precision, kv), want) << what << " batches of 4";
            }
        }
    }
}

TEST(ForwardDeterminism, AllLogitsRowsEqualTokenByTokenLogits) {
    const auto m = load({.architecture = "qwen2", .weight_type = TensorType::Q4_K});
    ASSERT_TRUE(m.model);
    const auto b = backend(best_cpu_path(), 2);
    auto all = Session::create(*m.model, *b, {0, 4, true, nullptr, {}, {}});
    ASSERT_TRUE(all);
    (*all)->start(kPrompt);
    auto rows = (*all)->eval(kPrompt);
    ASSERT_TRUE(rows);
    const int64_t n_vocab = (*all)->n_vocab();
    ASSERT_EQ(static_cast<int64_t>(rows->size()), static_cast<int64_t>(kPrompt.size()) * n_vocab);
    auto step = Session::create(*m.model, *b);
    ASSERT_TRUE(step);
    (*step)->start(kPrompt); // the same prompt, one token per eval
    for (size_t i = 0; i < kPrompt.size(); ++i) {
        auto logits = (*step)->eval(std::span<const int32_t>(&kPrompt[i], 1));
        ASSERT_TRUE(logits);
        const auto row = rows->subspan(i * static_cast<size_t>(n_vocab), static_cast<size_t>(n_vocab));
        EXPECT_TRUE(std::equal(row.begin(), row.end(), logits->begin())) << "position " << i;
    }
}

// A rewound session continuing from a shared prefix matches a fresh one bit for bit, with
// either KV type (the session's default at reference precision is F16).
TEST(ForwardDeterminism, RewindToAPrefixReproducesTheLogits) {
    const auto m = load({.architecture = "llama", .weight_type = TensorType::Q8_0});
    ASSERT_TRUE(m.model);
    const auto b = backend(best_cpu_path(), 2);
    for (TensorType type : {TensorType::F16, TensorType::F32}) {
        const auto want = run(*m.model, *b, {kPrompt.size()}, 0, Precision::Reference, {type, type}); // the model's default
        SessionOptions options;
        if (type == TensorType::F32) options.kv_types = {type, type}; // F16 by default
        auto session = Session::create(*m.model, *b, options);
        ASSERT_TRUE(session);
        const std::vector<int32_t> other = {1, 17, 42, 5, 9, 9, 9};
        ASSERT_TRUE((*session)->eval(other));
        ASSERT_TRUE((*session)->rewind(4)); // keeps 1 17 42 5, shared with kPrompt
        EXPECT_FALSE((*session)->rewind(5));
        auto logits = (*session)->eval(std::span<const int32_t>(kPrompt).subspan(4));
        ASSERT_TRUE(logits);
        EXPECT_TRUE(std::equal(want.begin(), want.end(), logits->begin())) << kv_type_name(type);
    }
}

TEST(ForwardDeterminism, TiedOutputAndRopeFrequencyFactorsRun) {
    const auto plain = load({.tied_output = true});
    const auto scaled = load({.tied_output = true, .rope_freqs = true});
    ASSERT_TRUE(plain.model && scaled.model);
    const auto b = backend(best_cpu_path(), 2);
    const auto scalar = backend(CpuPath::Scalar, 2);
    const auto with_factors = run(*scaled.model, *b, {kPrompt.size()});
    EXPECT_LT(relative_l2(with_factors, run(*scaled.model, *scalar, {kPrompt.size()})), 1e-4);
    // Same weights (the factors are drawn last), different rotation: the logits must move.
    EXPECT_GT(relative_l2(with_factors, run(*plain.model, *b, {kPrompt.size()})), 1e-3);
}

} // namespace
} // namespace octo
