// The CPU backend's non-matmul operations against float64 formulas: the reference a GPU
// backend's ops will be compared with.
// Covers: cpu_backend.cpp
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cpu/cpu_kv_cache.h"
#include "engine/core/half.h"
#include "engine/gguf/dequantize.h"

namespace octo {
namespace {

std::vector<float> random_vector(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

std::unique_ptr<CpuBackend> make_backend() { return std::move(CpuBackend::create({2, std::nullopt}).value()); }

TEST(CpuOps, RmsNorm) {
    const int64_t n_tokens = 3, n = 70;
    const auto x = random_vector(n_tokens * n, 1);
    const auto w = random_vector(n, 2);
    std::vector<float> y(x.size());
    make_backend()->rms_norm(x.data(), w.data(), y.data(), n_tokens, n, 1e-5f);
    for (int64_t t = 0; t < n_tokens; ++t) {
        double ss = 0.0;
        for (int64_t i = 0; i < n; ++i) ss += double(x[t * n + i]) * x[t * n + i];
        const double scale = 1.0 / std::sqrt(ss / n + 1e-5);
        for (int64_t i = 0; i < n; ++i) EXPECT_NEAR(y[t * n + i], x[t * n + i] * scale * w[i], 1e-5);
    }
}

TEST(CpuOps, SwiGluAndAdds) {
    const auto g = random_vector(9, 3), u = random_vector(9, 4);
    std::vector<float> out(9);
    auto b = make_backend();
    b->swiglu(g.data(), u.data(), out.data(), 1, 9, Precision::Exact);
    for (size_t i = 0; i < 9; ++i) EXPECT_NEAR(out[i], g[i] / (1.0 + std::exp(-double(g[i]))) * u[i], 1e-6);
    std::vector<float> y = {1, 2, 3, 4, 5, 6};
    const std::vector<float> bias = {10, 20, 30};
    b->add_bias(y.data(), bias.data(), 2, 3);
    EXPECT_EQ(y, (std::vector<float>{11, 22, 33, 14, 25, 36}));
    b->add(y.data(), y.data(), 6);
    EXPECT_EQ(y, (std::vector<float>{22, 44, 66, 28, 50, 72}));
}

// One token, one head of 6 dims of which n_rot = 4 rotate; checks which dims pair up.
void check_rope(RopeLayout layout, const std::vector<std::pair<int, int>>& pairs) {
    const int32_t pos = 3;
    const double base = 100.0;
    std::vector<float> x = random_vector(6, 5);
    const std::vector<float> before = x;
    const int32_t positions[] = {pos};
    RopeParams p;
    p.layout = layout;
    p.n_rot = 4;
    p.freq_base = base;
    make_backend()->rope(x.data(), 1, 1, 6, positions, p);
    for (size_t i = 0; i < pairs.size(); ++i) {
        const double theta = pos * std::pow(base, -2.0 * double(i) / 4.0);
        const auto [a, b] = pairs[i];
        EXPECT_NEAR(x[a], before[a] * std::cos(theta) - before[b] * std::sin(theta), 1e-6) << i;
        EXPECT_NEAR(x[b], before[a] * std::sin(theta) + before[b] * std::cos(theta), 1e-6) << i;
    }
    EXPECT_EQ(x[4], before[4]); // beyond n_rot: untouched
    EXPECT_EQ(x[5], before[5]);
}

// ggml_gelu of these inputs through llama.cpp c392e50's CPU backend (AVX2 + FMA build, its fp16
// table), printed with %a. -0x1.ffcp+0 is the one fp16 input in (-10, 10) whose table entry
// depends on the build fusing 1 + (a·x)·x; past ±10 the reference returns 0 or x itself.
TEST(CpuOps, ReferenceGeluEqualsTheReferenceTable) {
    const float in[] = {-0x1.ffcp+0f, 0x1.8p-22f, 0x1.0f8p-9f, 0x1.168p-6f, 0x1.1d8p-3f, 0x1.248p+0f, 0x1.2b8p+3f,
                        -0x1.f98p-10f, -0x1.008p-6f, -0x1.078p-3f, -0x1.0e8p+0f, -0x1.158p+3f, -12.0f, 12.5f};
    const float want[] = {-0x1.74cp-5f, 0x1.8p-23f, 0x1.1p-10f, 0x1.1a4p-7f, 0x1.3d4p-4f, 0x1.fecp-1f, 0x1.2b8p+3f,
                          -0x1.f8cp-11f, -0x1.fa8p-8f, -0x1.d9p-5f, -0x1.3acp-3f, -0x0p+0f, 0.0f, 12.5f};
    constexpr auto n = static_cast<int64_t>(sizeof(in) / sizeof(in[0]));
    std::vector<float> up(n, 1.0f), out(n);
    make_backend()->gelu_gate(in, up.data(), out.data(), n, GeluMode::F16Rounding);
    for (int64_t i = 0; i < n; ++i) EXPECT_EQ(out[static_cast<size_t>(i)], want[i]) << std::hexfloat << in[i];
}

TEST(CpuOps, RopeNormalLayoutRotatesAdjacentPairs) { check_rope(RopeLayout::Normal, {{0, 1}, {2, 3}}); }
TEST(CpuOps, RopeNeoXLayoutRotatesHalves) { check_rope(RopeLayout::NeoX, {{0, 2}, {1, 3}}); }

// Position 2p with frequencies halved (linear scale 1/2 or factors of 2) is position p.
TEST(CpuOps, RopeScaleAndFrequencyFactors) {
    const auto x = random_vector(2 * 3 * 8, 6); // [2 tokens, 3 heads, 8]
    const int32_t near[] = {1, 5}, far[] = {2, 10};
    auto b = make_backend();
    RopeParams p;
    p.n_rot = 8;
    auto plain = x;
    b->rope(plain.data(), 2, 3, 8, near, p);
    auto scaled = x;
    p.freq_scale = 0.5;
    b->rope(scaled.data(), 2, 3, 8, far, p);
    EXPECT_EQ(scaled, plain);
    const std::vector<float> factors(4, 2.0f);
    p.freq_scale = 1.0;
    p.freq_factors = factors.data();
    auto with_factors = x;
    b->rope(with_factors.data(), 2, 3, 8, far, p);
    EXPECT_EQ(with_factors, plain);
}

// Reference precision's angles: theta_i = theta_(i-1) · base^(-2 / n_rot) in float from theta_0 =
// pos (the rounding llama.cpp-based tools compute with), and each pair turned with the first product
// of each sum fused, as the reference's build computes it. Bit-identical to that float loop written
// out here, within float error of the exact angles, and different from them in the last bits at a
// far position.
TEST(CpuOps, RopeFloatRecurrence) {
    const int64_t head_dim = 64;
    const auto x = random_vector(head_dim, 10);
    const int32_t positions[] = {3001};
    RopeParams p;
    p.layout = RopeLayout::NeoX;
    p.n_rot = head_dim;
    p.freq_base = 10000.0;
    auto b = make_backend();
    auto exact = x;
    b->rope(exact.data(), 1, 1, head_dim, positions, p);
    p.reference_steps = true;
    auto recurrence = x;
    b->rope(recurrence.data(), 1, 1, head_dim, positions, p);

    std::vector<float> want = x;
    const float step = std::pow(10000.0f, -2.0f / 64.0f);
    float theta = 3001.0f;
    for (int64_t i = 0; i < head_dim / 2; ++i, theta *= step) {
        const float c = std::cos(theta), s = std::sin(theta);
        want[i] = std::fma(x[i], c, -(x[i + 32] * s)); // the first product fused, as the reference's build
        want[i + 32] = std::fma(x[i], s, x[i + 32] * c);
    }
    EXPECT_EQ(recurrence, want);
    EXPECT_NE(recurrence, exact);
    for (int64_t i = 0; i < head_dim; ++i) EXPECT_NEAR(recurrence[i], exact[i], 2e-3) << i; // 3001 rad: float's ulp is 2.4e-4
}

// Grouped-query causal attention over a paged cache filled by two writes to scattered cells,
// against float64; the recorded softmax weights too. With `sinks`, each head's softmax has its
// sink logit as one more term (max and denominator) with no value (gpt-oss).
void check_attention(Precision precision, const float* sinks) {
    AttentionShape s{4, 2, 8};
    s.precision = precision;
    s.sinks = sinks;
    const int64_t n_pos = 5, kv_row = s.n_head_kv * s.head_dim, q_row = s.n_head * s.head_dim;
    auto b = make_backend();
    auto cache = b->create_kv_cache({1, 8, s.n_head_kv, s.head_dim});
    ASSERT_TRUE(cache);
    const auto k = random_vector(n_pos * kv_row, 7), v = random_vector(n_pos * kv_row, 8);
    const auto q = random_vector(n_pos * q_row, 9);
    const int32_t positions[] = {0, 1, 2, 3, 4};
    const int32_t cells[] = {6, 1, 7, 3, 0}; // cell of each position
    const std::span<const int32_t> pos(positions), cell(cells);
    b->kv_write(**cache, 0, k.data(), v.data(), KvBatchCells{pos.first(2), cell.first(2), cell.first(2)});
    b->kv_write(**cache, 0, k.data() + 2 * kv_row, v.data() + 2 * kv_row,
                KvBatchCells{pos.subspan(2), cell.subspan(2), cell});
    std::vector<float> out(q.size());
    const int64_t stride = 6;
    std::vector<float> weights(static_cast<size_t>(n_pos * s.n_head * stride), -1.0f);
    b->attention(**cache, 0, q.data(), out.data(), KvBatchCells{pos, cell, cell, n_pos}, s, weights.data(), stride);
    for (int64_t t = 0; t < n_pos; ++t) {
        for (int64_t h = 0; h < s.n_head; ++h) {
            const int64_t g = h / 2;
            std::vector<double> w(static_cast<size_t>(t + 1));
            const double sink = sinks ? sinks[h] : -INFINITY;
            double max_w = sink, sum = 0.0;
            for (int64_t p = 0; p <= t; ++p) {
                double dot = 0.0;
                for (int64_t d = 0; d < s.head_dim; ++d) dot += double(q[t * q_row + h * 8 + d]) * k[p * kv_row + g * 8 + d];
                w[p] = dot / std::sqrt(8.0);
                max_w = std::max(max_w, w[p]);
            }
            for (double& x : w) sum += (x = std::exp(x - max_w));
            sum += std::exp(sink - max_w);
            for (int64_t d = 0; d < s.head_dim; ++d) {
                double want = 0.0;
                for (int64_t p = 0; p <= t; ++p) want += w[p] / sum * v[p * kv_row + g * 8 + d];
                EXPECT_NEAR(out[t * q_row + h * 8 + d], want, 1e-5) << "t " << t << " h " << h << " d " << d;
            }
            for (int64_t p = 0; p < stride; ++p) {
                const double want = p <= t ? w[p] / sum : 0.0;
                EXPECT_NEAR(weights[(t * s.n_head + h) * stride + p], want, 1e-6) << "t " << t << " h " << h << " p " << p;
            }
        }
    }
}

TEST(CpuOps, AttentionMatchesFloat64) {
    check_attention(Precision::Exact, nullptr);
    check_attention(Precision::Reference, nullptr);
}

// Sinks of either sign, one large enough to take most of the weight: row by row (exact) and in
// the reference's tiles.
TEST(CpuOps, AttentionSinksMatchFloat64) {
    const float sinks[] = {-1.5f, 0.25f, 3.0f, 0.0f};
    check_attention(Precision::Exact, sinks);
    check_attention(Precision::Reference, sinks);
}

// gpt-oss's SwiGLU: the gate clamped above at the limit, up clamped to ±limit, the sigmoid of
// alpha · gate; inputs on both sides of ±7.
TEST(CpuOps, ClampedSwiglu) {
    const std::vector<float> g = {-12.0f, -7.5f, -1.0f, 0.0f, 0.5f, 6.9f, 7.0f, 7.1f, 30.0f};
    const std::vector<float> u = {12.0f, -9.0f, 2.0f, -1.0f, 6.5f, 7.5f, -7.0f, 0.25f, -30.0f};
    std::vector<float> out(g.size());
    make_backend()->clamped_swiglu(g.data(), u.data(), out.data(), static_cast<int64_t>(g.size()), 1.702f, 7.0f);
    for (size_t i = 0; i < g.size(); ++i) {
        const double gc = std::min<double>(g[i], 7.0), uc = std::clamp<double>(u[i], -7.0, 7.0);
        EXPECT_NEAR(out[i], gc / (1.0 + std::exp(-1.702 * gc)) * (uc + 1.0), 1e-5 * (1.0 + std::abs(gc * uc))) << i;
    }
    EXPECT_NEAR(out[8], 7.0 / (1.0 + std::exp(-1.702 * 7.0)) * -6.0, 1e-4); // both clamps at once
}

// kv_copy moves every layer's keys and values of a cell range, F32 or F16.
TEST(CpuOps, KvCopyCopiesEveryLayer) {
    for (TensorType type : {TensorType::F32, TensorType::F16}) {
        SCOPED_TRACE(type == TensorType::F16 ? "f16" : "f32");
        auto b = make_backend();
        auto cache = b->create_kv_cache({2, 6, 1, 4, type, type});
        ASSERT_TRUE(cache);
        const auto k = random_vector(2 * 4, 11), v = random_vector(2 * 4, 12);
        const int32_t positions[] = {0, 1}, src[] = {0, 1}, dst[] = {4, 5};
        for (int64_t l = 0; l < 2; ++l) b->kv_write(**cache, l, k.data(), v.data(), KvBatchCells{positions, src, src});
        b->kv_copy(**cache, 0, 4, 2);
        // Attention from a query over the copied cells equals attention over the originals.
        const auto q = random_vector(2 * 4, 13);
        const AttentionShape s{1, 1, 4};
        for (int64_t l = 0; l < 2; ++l) {
            std::vector<float> a(8), c(8);
            b->attention(**cache, l, q.data(), a.data(), KvBatchCells{positions, src, src}, s, nullptr, 0);
            b->attention(**cache, l, q.data(), c.data(), KvBatchCells{positions, dst, dst}, s, nullptr, 0);
            EXPECT_EQ(a, c) << "layer " << l;
        }
    }
}

// Cache types: F16 halves the bytes; types the CPU backend does not store are refused by name.
TEST(CpuOps, KvCacheTypes) {
    auto b = make_backend();
    auto f32 = b->create_kv_cache({2, 6, 2, 4});
    auto f16 = b->create_kv_cache({2, 6, 2, 4, TensorType::F16, TensorType::F16});
    auto mixed = b->create_kv_cache({2, 6, 2, 4, TensorType::F32, TensorType::F16});
    ASSERT_TRUE(f32 && f16 && mixed);
    EXPECT_EQ((*f32)->bytes(), 2 * 2 * 6 * 2 * 4 * 4);
    EXPECT_EQ((*f16)->bytes(), 2 * 2 * 6 * 2 * 4 * 2);
    EXPECT_EQ((*mixed)->bytes(), 2 * 6 * 2 * 4 * (4 + 2));
    auto q4 = b->create_kv_cache({2, 6, 2, 4, TensorType::Q4_K, TensorType::F16});
    ASSERT_FALSE(q4);
    EXPECT_EQ(q4.error().code, ErrorCode::Unsupported);
    EXPECT_NE(q4.error().message.find("Q4_K"), std::string::npos) << q4.error().message;
    // blocks of 32: 34 bytes (Q8_0) and 18 (Q4_0) for each 32 values; heads must fill them
    auto q8 = b->create_kv_cache({2, 6, 2, 64, TensorType::Q8_0, TensorType::Q4_0});
    ASSERT_TRUE(q8) << q8.error().message;
    EXPECT_EQ((*q8)->bytes(), 2 * 6 * (4 * 34 + 4 * 18));
    auto odd = b->create_kv_cache({2, 6, 2, 48, TensorType::Q8_0, TensorType::F16});
    ASSERT_FALSE(odd);
    EXPECT_NE(odd.error().message.find("head of 48 values"), std::string::npos) << odd.error().message;
}

// Q8_0 / Q4_0 keys and values are stored as the block formats define them: per 32 values an F16
// scale d and integers q with value d · q — Q8_0: d = max|x| / 127, q = round(x / d) in
// [-127, 127]; Q4_0: d = (the value of largest magnitude) / -8, q + 8 in [0, 15] (4 bits, low
// nibbles the first 16 values) — so each read value is within d / 2 of what was written, and
// attention reads exactly those values: it equals attention over an F32 cache holding them.
TEST(CpuOps, QuantisedKvBlocksFollowTheFormat) {
    auto b = make_backend();
    constexpr int64_t kHeadDim = 64, kHeads = 2, kRow = kHeadDim * kHeads, kPos = 3;
    const auto k = random_vector(kPos * kRow, 21), v = random_vector(kPos * kRow, 22);
    const int32_t positions[] = {0, 1, 2}, cells[] = {0, 1, 2};
    for (TensorType type : {TensorType::Q8_0, TensorType::Q4_0}) {
        SCOPED_TRACE(type == TensorType::Q8_0 ? "q8_0" : "q4_0");
        auto cache = b->create_kv_cache({1, kPos, kHeads, kHeadDim, type, type});
        ASSERT_TRUE(cache);
        b->kv_write(**cache, 0, k.data(), v.data(), KvBatchCells{positions, cells, cells});
        auto& kv = static_cast<CpuKvCache&>(**cache);
        std::vector<float> read_k(kPos * kRow), read_v(kPos * kRow);
        for (int64_t p = 0; p < kPos; ++p) {
            for (int64_t blk = 0; blk < kRow / 32; ++blk) { // each head's row is its own blocks
                const int64_t head = blk * 32 / kHeadDim, in_head = blk - head * kHeadDim / 32;
                const uint8_t* block = kv.k_at(0, head, p) + in_head * (type == TensorType::Q8_0 ? 34 : 18);
                const float* x = k.data() + p * kRow + blk * 32;
                uint16_t d_bits = 0;
                std::memcpy(&d_bits, block, 2);
                const float d = fp16_to_fp32(d_bits);
                float amax = 0.0f, signed_max = 0.0f;
                for (int i = 0; i < 32; ++i) {
                    if (std::fabs(x[i]) > amax) amax = std::fabs(x[i]), signed_max = x[i];
                }
                const float want_d = type == TensorType::Q8_0 ? amax / 127.0f : signed_max / -8.0f;
                EXPECT_EQ(d_bits, fp32_to_fp16(want_d)) << "block " << blk;
                for (int i = 0; i < 32; ++i) {
                    const int q = type == TensorType::Q8_0 ? static_cast<int8_t>(block[2 + i])
                                                           : ((i < 16 ? block[2 + i] & 15 : block[2 + i - 16] >> 4) - 8);
                    EXPECT_LE(std::abs(q), type == TensorType::Q8_0 ? 127 : 8);
                    // rounding: half a step (Q4_0: a whole one where +8 is clamped to 7, as in ggml)
                    const float step = type == TensorType::Q8_0 ? 0.5f : 1.0f;
                    EXPECT_LE(std::fabs(d * static_cast<float>(q) - x[i]), std::fabs(d) * step + 1e-3f * amax) << i;
                    read_k[static_cast<size_t>(p * kRow + blk * 32 + i)] = d * static_cast<float>(q);
                }
            }
            for (int64_t h = 0; h < kHeads; ++h) {
                dequantize_row(type, kv.v_at(0, h, p), read_v.data() + p * kRow + h * kHeadDim, kHeadDim);
            }
        }
        // attention over the quantised cache = attention over an F32 cache of the values read
        auto plain = b->create_kv_cache({1, kPos, kHeads, kHeadDim});
        ASSERT_TRUE(plain);
        b->kv_write(**plain, 0, read_k.data(), read_v.data(), KvBatchCells{positions, cells, cells});
        const auto q = random_vector(kPos * 4 * kHeadDim, 23);
        for (Precision precision : {Precision::Reference, Precision::Exact}) {
            AttentionShape s{4, kHeads, kHeadDim};
            s.precision = precision;
            std::vector<float> got(q.size()), want(q.size());
            b->attention(**cache, 0, q.data(), got.data(), KvBatchCells{positions, cells, cells, kPos}, s, nullptr, 0);
            b->attention(**plain, 0, q.data(), want.data(), KvBatchCells{positions, cells, cells, kPos}, s, nullptr, 0);
            EXPECT_EQ(got, want) << precision_name(precision);
        }
    }
}

// The resident set of this process, from /proc/self/statm (pages × page size); 0 when unknown.
uint64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    uint64_t size = 0, resident = 0;
    if (!(statm >> size >> resident)) return 0;
    return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

// A pool sized for a long context takes memory as its cells are written, not when made: a
// 1 GiB cache adds almost nothing until written, and then what was written.
TEST(CpuOps, KvCacheMemoryIsCommittedAsCellsAreWritten) {
    if (resident_bytes() == 0) GTEST_SKIP() << "no /proc/self/statm";
    auto b = make_backend();
    constexpr int64_t kCells = 1 << 16, kLayers = 8, kRow = 256; // 8 x 65,536 x 256 x 2 x 4 bytes = 1 GiB
    const uint64_t before = resident_bytes();
    auto cache = b->create_kv_cache({kLayers, kCells, 2, kRow / 2});
    ASSERT_TRUE(cache) << cache.error().message;
    EXPECT_EQ((*cache)->bytes(), int64_t{1} << 30);
    const uint64_t made = resident_bytes();
    EXPECT_LT(made - std::min(made, before), uint64_t{32} << 20) << "the storage was touched when made";
    // 4,096 cells of every layer: 8 x 4,096 x 256 x 8 bytes = 64 MiB committed (+ 4 MiB of rows)
    std::vector<int32_t> cells(4096);
    for (int32_t i = 0; i < 4096; ++i) cells[static_cast<size_t>(i)] = i;
    const std::vector<float> rows(4096 * kRow, 1.0f);
    for (int64_t l = 0; l < kLayers; ++l) b->kv_write(**cache, l, rows.data(), rows.data(), KvBatchCells{cells, cells, cells});
    const uint64_t written = resident_bytes();
    EXPECT_GT(written - std::min(written, made), uint64_t{60} << 20) << "writing commits the pages";
    EXPECT_LT(written - std::min(written, made), uint64_t{120} << 20);
}

// softmax_rows and scale_head_groups against direct computation.
TEST(CpuOps, SoftmaxRowsAndGroupScaling) {
    auto b = make_backend();
    std::vector<float> x = {1.0f, 2.0f, 3.0f, -1.0f, 0.0f, 1000.0f};
    b->softmax_rows(x.data(), 2, 3);
    const double e = std::exp(1.0), e2 = std::exp(2.0), sum = 1.0 + e + e2;
    EXPECT_NEAR(x[0], 1.0 / sum, 1e-7);
    EXPECT_NEAR(x[2], e2 / sum, 1e-7);
    EXPECT_NEAR(x[5], 1.0, 1e-7); // no overflow
    EXPECT_NEAR(x[3], 0.0, 1e-7);
    // 4 heads of 2 values in 2 groups, 1 token: heads 0-1 scaled by 0.5, heads 2-3 by 3.
    std::vector<float> z = {1, 2, 3, 4, 5, 6, 7, 8};
    const float scales[] = {0.5f, 3.0f};
    b->scale_head_groups(z.data(), scales, 1, 4, 2, 2);
    EXPECT_EQ(z, (std::vector<float>{0.5f, 1, 1.5f, 2, 15, 18, 21, 24}));
}

} // namespace
} // namespace octo
