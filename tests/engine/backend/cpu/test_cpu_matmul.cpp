// CPU matrix-product kernels per weight type: the scalar reference against a float64 product of
// the dequantised weights, each optimised path against the scalar one (normalised error), and
// bit-identical results for any thread count and any split of the tokens into batches.
// Covers: matmul_scalar.cpp, matmul_avx2.cpp, matmul_avx512.cpp, quant_matmul_scalar.cpp,
//   quant_matmul_avx2.cpp, quant_matmul_avxvnni.cpp, quant_matmul_avx512vnni.cpp,
//   quant_matmul_low_bit.cpp, quant_matmul_mxfp4_avx512.cpp, quant_matmul_token_groups.cpp
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/gguf/dequantize.h"
#include "engine/gguf/quantize.h"
#include "tests/support/cpu_paths.h"
#include "tests/support/error_norms.h"
#include "tests/support/quantised_matrix.h"

namespace octo {
namespace {

using test::relative_l2;

const std::vector<TensorType> kTypes = supported_tensor_types();

std::string type_name(TensorType t) { return std::string(tensor_type_info(static_cast<uint32_t>(t))->name); }

using TestMatrix = test::QuantisedMatrix;

TestMatrix make_matrix(TensorType type, int64_t n_in, int64_t n_out, uint32_t seed) {
    return test::make_quantised_matrix(type, n_in, n_out, seed);
}

std::vector<float> random_vector(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

std::vector<double> as_double(const std::vector<float>& v) { return {v.begin(), v.end()}; }

std::unique_ptr<CpuBackend> backend(CpuPath path, int threads) { return test::cpu_backend(path, threads); }

std::vector<CpuPath> optimised_paths() { return test::optimised_cpu_paths(); }

// Row lengths every type can store: 512 (two K-quant super-blocks) and, for plain types, 172.
int64_t row_length(TensorType t, bool odd) {
    const bool plain = t == TensorType::F32 || t == TensorType::F16 || t == TensorType::BF16;
    return odd && plain ? 172 : 512;
}

TEST(CpuMatmul, ScalarMatchesFloat64ProductOfDequantisedWeights) {
    for (TensorType type : kTypes) {
        for (bool odd : {false, true}) {
            const int64_t n_in = row_length(type, odd), n_out = 13, n_tok = 3;
            const TestMatrix m = make_matrix(type, n_in, n_out, 7);
            const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 8); // [n_tok, n_in]
            std::vector<double> want(static_cast<size_t>(n_tok * n_out));      // [n_tok, n_out]
            for (int64_t t = 0; t < n_tok; ++t) {
                for (int64_t r = 0; r < n_out; ++r) {
                    double s = 0.0;
                    for (int64_t i = 0; i < n_in; ++i) s += double(m.dequant[r * n_in + i]) * x[t * n_in + i];
                    want[t * n_out + r] = s;
                }
            }
            std::vector<float> y(want.size());
            backend(CpuPath::Scalar, 1)->matmul(m.w, x.data(), y.data(), n_tok, Precision::Exact);
            EXPECT_LT(relative_l2(y, want), 1e-6) << type_name(type) << " n_in " << n_in;
        }
    }
}

// With x = the identity matrix every product but one is zero, so y = Wᵀ exactly: each path's
// block decoding must reproduce dequantize_row() bit for bit.
TEST(CpuMatmul, EveryPathDecodesWeightsExactly) {
    std::vector<CpuPath> paths = optimised_paths();
    paths.push_back(CpuPath::Scalar);
    for (CpuPath path : paths) {
        for (TensorType type : kTypes) {
            const int64_t n_in = row_length(type, true), n_out = 5;
            const TestMatrix m = make_matrix(type, n_in, n_out, 21);
            std::vector<float> identity(static_cast<size_t>(n_in * n_in), 0.0f); // [n_in, n_in]
            for (int64_t i = 0; i < n_in; ++i) identity[i * n_in + i] = 1.0f;
            std::vector<float> y(static_cast<size_t>(n_in * n_out)); // [n_in, n_out]
            backend(path, 2)->matmul(m.w, identity.data(), y.data(), n_in, Precision::Exact);
            int64_t mismatches = 0;
            for (int64_t r = 0; r < n_out; ++r) {
                for (int64_t i = 0; i < n_in; ++i) mismatches += y[i * n_out + r] != m.dequant[r * n_in + i];
            }
            EXPECT_EQ(mismatches, 0) << cpu_path_name(path) << " " << type_name(type);
        }
    }
}

// Both paths multiply the same dequantised values; only the order of the sums differs.
TEST(CpuMatmul, OptimisedPathsMatchScalarWithinOneInAHundredThousand) {
    const auto paths = optimised_paths();
    if (paths.empty()) GTEST_SKIP() << "this CPU has no optimised kernel path";
    for (CpuPath path : paths) {
        for (TensorType type : kTypes) {
            for (bool odd : {false, true}) {
                const int64_t n_in = row_length(type, odd), n_out = 21, n_tok = 6;
                const TestMatrix m = make_matrix(type, n_in, n_out, 11);
                const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 12);
                std::vector<float> ref(static_cast<size_t>(n_tok * n_out)), got(ref.size());
                backend(CpuPath::Scalar, 1)->matmul(m.w, x.data(), ref.data(), n_tok, Precision::Exact);
                backend(path, 2)->matmul(m.w, x.data(), got.data(), n_tok, Precision::Exact);
                EXPECT_LT(relative_l2(got, as_double(ref)), 1e-5)
                    << cpu_path_name(path) << " " << type_name(type) << " n_in " << n_in;
            }
        }
    }
}

TEST(CpuMatmul, BitIdenticalAcrossThreadCountsAndTokenBatches) {
    std::vector<CpuPath> paths = optimised_paths();
    paths.push_back(CpuPath::Scalar);
    for (CpuPath path : paths) {
        for (TensorType type : kTypes) {
            const int64_t n_in = row_length(type, true), n_out = 37, n_tok = 9;
            const TestMatrix m = make_matrix(type, n_in, n_out, 3);
            const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 4);
            std::vector<float> all(static_cast<size_t>(n_tok * n_out)); // one batch, 1 thread
            backend(path, 1)->matmul(m.w, x.data(), all.data(), n_tok, Precision::Exact);
            for (int threads : {2, 3}) {
                std::vector<float> y(all.size());
                backend(path, threads)->matmul(m.w, x.data(), y.data(), n_tok, Precision::Exact);
                EXPECT_EQ(y, all) << cpu_path_name(path) << " " << type_name(type) << " threads " << threads;
            }
            // Tokens one at a time and in uneven batches (5 + 4).
            auto b = backend(path, 2);
            std::vector<float> split(all.size());
            for (int64_t t = 0; t < n_tok; ++t) b->matmul(m.w, x.data() + t * n_in, split.data() + t * n_out, 1, Precision::Exact);
            EXPECT_EQ(split, all) << cpu_path_name(path) << " " << type_name(type) << " one by one";
            b->matmul(m.w, x.data(), split.data(), 5, Precision::Exact);
            b->matmul(m.w, x.data() + 5 * n_in, split.data() + 5 * n_out, 4, Precision::Exact);
            EXPECT_EQ(split, all) << cpu_path_name(path) << " " << type_name(type) << " 5 + 4";
        }
    }
}

// matmuls() of one input gives each product exactly what matmul() gives it alone, whatever the
// mix of weight types (shared and separate activation formats and kernel layouts), at both
// precisions, for a lone token, a pair and an odd batch.
TEST(CpuMatmul, SharedInputProductsEqualSeparateOnes) {
    std::vector<CpuPath> paths = optimised_paths();
    paths.push_back(CpuPath::Scalar);
    const int64_t n_in = 512;
    // Q8_0 and Q4_0 share Q8_0 activations but not a VNNI layout; Q4_K and Q6_K share Q8_K; Q4_1
    // takes Q8_1; F16 rounds to fp16; F32 reads x itself.
    const std::vector<TensorType> mix = {TensorType::Q8_0, TensorType::Q4_0, TensorType::Q4_K, TensorType::Q6_K,
                                         TensorType::Q4_1, TensorType::F16,  TensorType::F32};
    std::vector<TestMatrix> matrices;
    for (size_t i = 0; i < mix.size(); ++i) {
        matrices.push_back(make_matrix(mix[i], n_in, 19 + 4 * static_cast<int64_t>(i), 10 + static_cast<uint32_t>(i)));
    }
    for (CpuPath path : paths) {
        auto b = backend(path, 2);
        for (Precision precision : {Precision::Reference, Precision::Exact}) {
            for (int64_t n_tok : {1, 2, 7}) {
                const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 20 + static_cast<uint32_t>(n_tok));
                std::vector<std::vector<float>> alone, shared;
                std::vector<MatmulOutput> outputs;
                for (const TestMatrix& m : matrices) {
                    alone.emplace_back(static_cast<size_t>(n_tok * m.w.n_out));
                    b->matmul(m.w, x.data(), alone.back().data(), n_tok, precision);
                    shared.emplace_back(static_cast<size_t>(n_tok * m.w.n_out), -7.0f);
                }
                for (size_t i = 0; i < matrices.size(); ++i) outputs.push_back({&matrices[i].w, shared[i].data()});
                b->matmuls(outputs, x.data(), n_tok, precision);
                for (size_t i = 0; i < matrices.size(); ++i) {
                    EXPECT_EQ(shared[i], alone[i]) << cpu_path_name(path) << " " << type_name(mix[i]) << " "
                                                   << (precision == Precision::Reference ? "reference" : "exact")
                                                   << " tokens " << n_tok;
                }
                // A product alone through matmuls() once the buffers hold another call's forms.
                std::vector<float> again(alone[3].size());
                const MatmulOutput one[] = {{&matrices[3].w, again.data()}};
                b->matmuls(one, x.data(), n_tok, precision);
                EXPECT_EQ(again, alone[3]) << cpu_path_name(path) << " Q6_K alone";
            }
        }
    }
}

TEST(CpuBackend, ForcingAnUnsupportedPathIsAnError) {
    const CpuPath missing = cpu_supports(CpuPath::Avx2) ? CpuPath::Avx512 : CpuPath::Avx2;
    if (cpu_supports(missing)) GTEST_SKIP() << "this CPU supports every path";
    auto b = CpuBackend::create({1, missing});
    ASSERT_FALSE(b);
    EXPECT_EQ(b.error().code, ErrorCode::InvalidArgument);
}

} // namespace
} // namespace octo
