// Each operation of the backend table on the CUDA backend against the CPU backend, on random
// inputs, with a relative-L2 bound per operation and weight type (docs/cuda.md, "Parity").
// Bounds: 1e-5 where both sides compute in float and differ only in summation order; matmul
// batches above 8 tokens go through cuBLAS with F16 operands for F16 and quantised weights (the
// activations are rounded to F16: ~5e-4 per element), so 3e-3 there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/gguf/quantize.h"
#include "engine/gguf/tensor_type.h"
#include "tests/gpu/gpu_backend.h"
#include "tests/support/error_norms.h"

namespace octo {
namespace {

using test::download;
using test::relative_l2;
using test::upload;

constexpr double kFloatBound = 1e-5;
constexpr double kHalfGemmBound = 3e-3;

std::vector<float> random_floats(size_t n, uint32_t seed, float scale = 1.0f) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, scale);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

// W[n_out, n_in] of `type`, quantised from random floats; the bytes outlive the WeightMatrix.
struct HostWeight {
    std::vector<uint8_t> bytes;
    WeightMatrix matrix;
};

HostWeight random_weight(TensorType type, int64_t n_in, int64_t n_out, uint32_t seed) {
    const auto info = tensor_type_info(static_cast<uint32_t>(type)).value();
    const uint64_t row_bytes = tensor_row_bytes(info, static_cast<uint64_t>(n_in)).value();
    HostWeight w;
    w.bytes.resize(row_bytes * static_cast<uint64_t>(n_out));
    const auto values = random_floats(static_cast<size_t>(n_in * n_out), seed, 0.05f);
    for (int64_t r = 0; r < n_out; ++r) {
        quantize_row(type, values.data() + r * n_in, w.bytes.data() + r * static_cast<int64_t>(row_bytes), n_in);
    }
    w.matrix = {type, w.bytes.data(), n_in, n_out, row_bytes};
    return w;
}

std::string type_name(TensorType type) {
    return std::string(tensor_type_info(static_cast<uint32_t>(type))->name);
}

// One operation run on both backends: `op` gets the backend and uploaded copies of `inputs`,
// and returns the buffer to compare.
template <class Op>
double compare(Backend& cuda, Backend& cpu, const std::vector<std::vector<float>>& inputs, Op&& op) {
    auto run = [&](Backend& b) {
        std::vector<std::unique_ptr<DeviceBuffer>> bufs;
        for (const auto& in : inputs) bufs.push_back(upload(b, in));
        DeviceBuffer& out = op(b, bufs);
        return download(b, out);
    };
    const auto want = run(cpu);
    const auto got = run(cuda);
    EXPECT_TRUE(cuda.status()) << cuda.status().error().message;
    return relative_l2(got, want);
}

// A backend uploads each weight once, keyed by its host address, which must not change while
// the backend lives (a model's memory map): a fresh CUDA backend for each weight below.
TEST(GpuOpParity, MatmulEveryWeightTypeFusedAndGemm) {
    auto cpu = test::make_cpu_backend();
    constexpr int64_t kIn = 512, kOut = 96;
    for (TensorType type : test::cuda_weight_types()) {
        OCTO_CUDA_OR_SKIP(cuda);
        if (!cuda->supports(type)) {
            ADD_FAILURE() << "the CUDA backend does not support " << type_name(type);
            continue;
        }
        const HostWeight w = random_weight(type, kIn, kOut, 7);
        for (int64_t n_tokens : {1, 5, 40}) {
            const auto x = random_floats(static_cast<size_t>(n_tokens * kIn), 11);
            const double err = compare(*cuda, *cpu, {x, std::vector<float>(static_cast<size_t>(n_tokens * kOut))},
                                       [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                                           b.matmul(w.matrix, bufs[0]->data(), bufs[1]->data(), n_tokens, Precision::Exact);
                                           return *bufs[1];
                                       });
            const bool half_gemm = n_tokens > 8 && type != TensorType::F32 && type != TensorType::BF16;
            EXPECT_LE(err, half_gemm ? kHalfGemmBound : kFloatBound) << type_name(type) << " n_tokens " << n_tokens;
        }
    }
}

// The low-bit types have no CUDA kernel yet: the backend says so, and names them among what it
// lacks for a model, so that `auto` takes the CPU (engine/host/model_setup.cpp).
TEST(GpuOpParity, LowBitTypesAreRefusedByName) {
    OCTO_CUDA_OR_SKIP(cuda);
    const std::vector<TensorType> cuda_types = test::cuda_weight_types();
    for (TensorType type : supported_tensor_types()) {
        if (std::find(cuda_types.begin(), cuda_types.end(), type) != cuda_types.end()) continue;
        EXPECT_FALSE(cuda->supports(type)) << type_name(type);
        ForwardFeatures needed;
        needed.weight_types = {TensorType::Q8_0, type};
        EXPECT_EQ(cuda->missing_features(needed), type_name(type) + " weights");
    }
}

TEST(GpuOpParity, EmbedEveryWeightType) {
    auto cpu = test::make_cpu_backend();
    const std::vector<int32_t> tokens = {0, 5, 5, 31, 17};
    for (TensorType type : test::cuda_weight_types()) {
        OCTO_CUDA_OR_SKIP(cuda);
        const HostWeight table = random_weight(type, 256, 32, 3);
        const double err = compare(*cuda, *cpu, {std::vector<float>(tokens.size() * 256)},
                                   [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                                       b.embed(table.matrix, tokens, bufs[0]->data());
                                       return *bufs[0];
                                   });
        EXPECT_LE(err, kFloatBound) << type_name(type);
    }
}

TEST(GpuOpParity, NormsAndElementwise) {
    OCTO_CUDA_OR_SKIP(cuda);
    auto cpu = test::make_cpu_backend();
    constexpr int64_t kTokens = 7, kN = 288;
    const auto x = random_floats(kTokens * kN, 1);
    const auto weight = random_floats(kN, 2);
    const auto y = random_floats(kTokens * kN, 3);
    EXPECT_LE(compare(*cuda, *cpu, {x, weight}, [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                  b.rms_norm(bufs[0]->data(), bufs[1]->data(), bufs[0]->data(), kTokens, kN, 1e-5f);
                  return *bufs[0];
              }), kFloatBound) << "rms_norm";
    EXPECT_LE(compare(*cuda, *cpu, {y, weight}, [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                  b.add_bias(bufs[0]->data(), bufs[1]->data(), kTokens, kN);
                  return *bufs[0];
              }), kFloatBound) << "add_bias";
    EXPECT_LE(compare(*cuda, *cpu, {y, x}, [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                  b.add(bufs[0]->data(), bufs[1]->data(), kTokens * kN);
                  return *bufs[0];
              }), kFloatBound) << "add";
    EXPECT_LE(compare(*cuda, *cpu, {x, y}, [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                  b.swiglu(bufs[0]->data(), bufs[1]->data(), bufs[0]->data(), kTokens, kN, Precision::Exact);
                  return *bufs[0];
              }), kFloatBound) << "swiglu";
    EXPECT_LE(compare(*cuda, *cpu, {random_floats(kTokens * kN, 4, 4.0f)}, [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                  b.softmax_rows(bufs[0]->data(), kTokens, kN);
                  return *bufs[0];
              }), kFloatBound) << "softmax_rows";
}

TEST(GpuOpParity, RopeBothLayoutsPartialRotationFrequencyFactorsAndAttentionFactor) {
    OCTO_CUDA_OR_SKIP(cuda);
    auto cpu = test::make_cpu_backend();
    constexpr int64_t kTokens = 6, kHeads = 4, kHeadDim = 32;
    const std::vector<int32_t> positions = {0, 1, 2, 9, 100, 4095};
    std::vector<float> factors(kHeadDim / 4);
    for (size_t i = 0; i < factors.size(); ++i) factors[i] = 1.0f + 0.5f * static_cast<float>(i);
    for (RopeLayout layout : {RopeLayout::Normal, RopeLayout::NeoX}) {
        for (int64_t n_rot : {kHeadDim, kHeadDim / 2}) {
            for (bool with_factors : {false, true}) {
                RopeParams p{layout, n_rot, 500000.0, 0.5, with_factors && n_rot == kHeadDim / 2 ? factors.data() : nullptr,
                             with_factors ? 1.1832160f : 1.0f}; // LongRoPE's attention factor for 4x a 32-position context
                const double err = compare(*cuda, *cpu, {random_floats(kTokens * kHeads * kHeadDim, 5)},
                                           [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                                               b.rope(bufs[0]->data(), kTokens, kHeads, kHeadDim, positions, p);
                                               return *bufs[0];
                                           });
                EXPECT_LE(err, kFloatBound) << (layout == RopeLayout::Normal ? "normal" : "neox") << " n_rot " << n_rot
                                            << (p.freq_factors ? " with factors" : "");
            }
        }
    }
}

// Prefill 12 tokens into scattered cells of a paged cache, copy a block of cells (copy-on-write),
// then decode one token that reads the copies: outputs and softmax weights of both steps.
TEST(GpuOpParity, PagedAttentionPrefillDecodeAndCellCopy) {
    OCTO_CUDA_OR_SKIP(cuda);
    auto cpu = test::make_cpu_backend();
    const AttentionShape shape{8, 2, 16};
    const KvCacheShape cache_shape{2, 64, shape.n_head_kv, shape.head_dim};
    const int64_t q_width = shape.n_head * shape.head_dim, kv_width = shape.n_head_kv * shape.head_dim;
    std::vector<int32_t> prefill_pos(12), write_cells(12), read_cells(13);
    std::iota(prefill_pos.begin(), prefill_pos.end(), 0);
    for (int32_t p = 0; p < 12; ++p) write_cells[static_cast<size_t>(p)] = (p / 4) * 16 + p % 4 + 4; // blocks 0,1,2 at offset 4
    std::copy(write_cells.begin(), write_cells.end(), read_cells.begin());
    const auto k = random_floats(12 * kv_width, 21), v = random_floats(12 * kv_width, 22);
    const auto q = random_floats(12 * q_width, 23), k1 = random_floats(kv_width, 24), v1 = random_floats(kv_width, 25);
    const auto q1 = random_floats(q_width, 26);
    for (int64_t layer : {0, 1}) {
        auto run = [&](Backend& b) {
            auto cache = b.create_kv_cache(cache_shape);
            EXPECT_TRUE(cache) << cache.error().message;
            auto kb = upload(b, k), vb = upload(b, v), qb = upload(b, q), k1b = upload(b, k1), v1b = upload(b, v1),
                 q1b = upload(b, q1);
            auto out = b.allocate(12 * q_width), weights = b.allocate(12 * shape.n_head * 16);
            KvBatchCells prefill{prefill_pos, write_cells, std::span(read_cells).first(12)};
            b.kv_write(**cache, layer, kb->data(), vb->data(), prefill);
            b.attention(**cache, layer, qb->data(), out->data(), prefill, shape, weights->data(), 16);
            // Copy-on-write of block 2's four cells to block 3; the decode step reads the copy.
            b.kv_copy(**cache, 36, 52, 4);
            std::vector<int32_t> decode_read(read_cells.begin(), read_cells.end());
            for (size_t p = 8; p < 12; ++p) decode_read[p] += 16;
            decode_read[12] = 60;
            const int32_t pos[1] = {12}, cell[1] = {60};
            KvBatchCells decode{pos, cell, decode_read};
            auto out1 = b.allocate(q_width), weights1 = b.allocate(shape.n_head * 16);
            b.kv_write(**cache, layer, k1b->data(), v1b->data(), decode);
            b.attention(**cache, layer, q1b->data(), out1->data(), decode, shape, weights1->data(), 16);
            return std::vector<std::vector<float>>{download(b, *out), download(b, *weights), download(b, *out1),
                                                   download(b, *weights1)};
        };
        const auto want = run(*cpu);
        const auto got = run(*cuda);
        ASSERT_TRUE(cuda->status()) << cuda->status().error().message;
        const char* names[] = {"prefill output", "prefill weights", "decode output", "decode weights"};
        for (size_t i = 0; i < want.size(); ++i) {
            EXPECT_LE(relative_l2(got[i], want[i]), kFloatBound) << names[i] << " layer " << layer;
        }
    }
}

TEST(GpuOpParity, RouterGatesHeadNormsAndAblation) {
    OCTO_CUDA_OR_SKIP(cuda);
    auto cpu = test::make_cpu_backend();
    constexpr int64_t kTokens = 5, kHeads = 16, kHeadDim = 8, kGroups = 8;
    const auto z = random_floats(kTokens * kHeads * kHeadDim, 31);
    const auto gates = random_floats(kTokens * kGroups, 32);
    EXPECT_LE(compare(*cuda, *cpu, {z, gates}, [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                  b.scale_head_groups(bufs[0]->data(), bufs[1]->data(), kTokens, kHeads, kHeadDim, kGroups);
                  return *bufs[0];
              }), kFloatBound) << "scale_head_groups";
    // G_h = A_hᵀ A_h: symmetric positive semi-definite, as the model's Gram matrices are.
    const auto a = random_floats(kHeads * kHeadDim * kHeadDim, 33);
    std::vector<float> grams(a.size(), 0.0f);
    for (int64_t h = 0; h < kHeads; ++h) {
        const float* ah = a.data() + h * kHeadDim * kHeadDim;
        float* gh = grams.data() + h * kHeadDim * kHeadDim;
        for (int64_t i = 0; i < kHeadDim; ++i)
            for (int64_t j = 0; j < kHeadDim; ++j)
                for (int64_t r = 0; r < kHeadDim; ++r) gh[i * kHeadDim + j] += ah[r * kHeadDim + i] * ah[r * kHeadDim + j];
    }
    EXPECT_LE(compare(*cuda, *cpu, {z, grams, std::vector<float>(kTokens * kHeads)},
                      [&](Backend& b, auto& bufs) -> DeviceBuffer& {
                          b.head_norms(bufs[0]->data(), bufs[1]->data(), bufs[2]->data(), kTokens, kHeads, kHeadDim);
                          return *bufs[2];
                      }), kFloatBound) << "head_norms";
    std::vector<uint8_t> heads(kHeads, 0);
    heads[1] = heads[2] = heads[15] = 1;
    const auto replacement = random_floats(kHeads * kHeadDim, 34);
    for (bool mean : {false, true}) {
        const double err = compare(*cuda, *cpu, {z, replacement}, [&](Backend& b, auto& bufs) -> DeviceBuffer& {
            b.ablate_heads(bufs[0]->data(), heads, mean ? bufs[1]->data() : nullptr, kTokens, kHeads, kHeadDim);
            return *bufs[0];
        });
        EXPECT_EQ(err, 0.0) << (mean ? "mean ablation" : "zero ablation"); // copies: exact
    }
}

} // namespace
} // namespace octo
