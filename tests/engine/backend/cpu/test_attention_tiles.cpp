// Reference-precision attention computed in tiles (engine/backend/cpu/attention_tiles.h) equals
// attending one (token, head) at a time with the reference's float steps — reference_dot,
// reference_softmax_exp, reference_weighted_values, each checked against the reference's order in
// test_reference_float.cpp — bit for bit, whatever the tile, the thread count, the batch or the
// vector width (AVX2, and AVX-512 where the CPU has it).
// Covers: cpu_attention.cpp
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "engine/backend/cpu/attention_tiles.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cpu/reference_float.h"
#include "engine/core/half.h"
#include "tests/support/random_floats.h"

namespace octo {
namespace {

using test::random_floats;

struct Case {
    int64_t n_head, n_head_kv, head_dim;
    int64_t start, n_tokens;   // the batch: positions start .. start + n_tokens - 1
    int64_t prompt_batch_end;  // positions before it sum their values in the batch order
    int64_t window = 0;
    float softcap = 0.0f;
    bool scale_queries = false;
    int threads = 2;
    TensorType k_type = TensorType::F32, v_type = TensorType::F32;
};

std::string describe(const Case& c) {
    return "heads " + std::to_string(c.n_head) + "/" + std::to_string(c.n_head_kv) + " dim " + std::to_string(c.head_dim) +
           " tokens " + std::to_string(c.start) + "+" + std::to_string(c.n_tokens) + " batch end " +
           std::to_string(c.prompt_batch_end) + " window " + std::to_string(c.window) + " softcap " +
           std::to_string(c.softcap) + (c.scale_queries ? " scaled queries" : "") + " threads " + std::to_string(c.threads) +
           " k " + (c.k_type == TensorType::F16 ? "f16" : "f32") + " v " + (c.v_type == TensorType::F16 ? "f16" : "f32");
}

float round_f16(float x) { return fp16_to_fp32(fp32_to_fp16(x)); }

// One (token, head) attended alone with the reference's float steps. F16 keys (k holds their
// values): the query rounded to F16, its products in the tiled product's order for a batched
// query, the F16 dot product's otherwise; F16 values: the weights rounded to F16.
void attend_row(const float* q, const float* k, const float* v, int64_t stride, const int32_t* cell, int64_t first,
                int64_t n_seen, int64_t head_dim, float scale, float softcap, bool scale_queries, ValueSumOrder order,
                bool k_half, bool v_half, float* out, float* weights, int64_t weights_stride) {
    std::vector<float> scaled(q, q + head_dim);
    if (scale_queries) {
        for (float& x : scaled) x *= scale;
        scale = 1.0f;
    }
    if (k_half) {
        for (float& x : scaled) x = round_f16(x);
    }
    std::vector<float> s(static_cast<size_t>(n_seen), 0.0f);
    float max = -INFINITY;
    for (int64_t p = first; p < n_seen; ++p) {
        const float* kp = k + cell[p] * stride;
        const float dot = !k_half                                                  ? reference_dot(scaled.data(), kp, head_dim)
                          : order == ValueSumOrder::Batch && head_dim % 8 == 0 ? reference_lanes_dot(scaled.data(), kp, head_dim)
                                                                                 : reference_dot_f16(scaled.data(), kp, head_dim);
        float x = dot * scale;
        if (softcap > 0.0f) x = std::tanh(x * (1.0f / softcap)) * softcap;
        s[static_cast<size_t>(p)] = x;
        max = std::max(max, x);
    }
    const auto inv_sum = static_cast<float>(1.0 / reference_softmax_exp(s.data(), first, n_seen, max));
    for (int64_t p = first; p < n_seen; ++p) s[static_cast<size_t>(p)] *= inv_sum;
    std::fill(weights, weights + weights_stride, 0.0f);
    std::copy(s.begin(), s.end(), weights); // the softmax's weights, before any rounding
    if (v_half) {
        for (float& x : s) x = round_f16(x);
    }
    reference_weighted_values(s.data(), first, n_seen, ValueRows{v, stride, cell}, head_dim, order, out);
}

void check(const Case& c, CpuPath path) {
    SCOPED_TRACE(describe(c) + " path " + std::string(cpu_path_name(path)));
    const int64_t n_pos = c.start + c.n_tokens, n_cells = n_pos + 11;
    const int64_t kv_row = c.n_head_kv * c.head_dim, q_row = c.n_head * c.head_dim;
    auto backend = std::move(CpuBackend::create({c.threads, path}).value());
    auto cache = backend->create_kv_cache({1, n_cells, c.n_head_kv, c.head_dim, c.k_type, c.v_type});
    ASSERT_TRUE(cache);

    // Positions in scattered cells, written in two batches (the earlier positions, then this one).
    std::vector<int32_t> positions(static_cast<size_t>(n_pos)), cells(static_cast<size_t>(n_pos));
    for (int64_t p = 0; p < n_pos; ++p) {
        positions[static_cast<size_t>(p)] = static_cast<int32_t>(p);
        cells[static_cast<size_t>(p)] = static_cast<int32_t>((p * 7 + 3) % n_cells);
    }
    const auto k = random_floats(static_cast<size_t>(n_pos * kv_row), 1.0f, 1);
    const auto v = random_floats(static_cast<size_t>(n_pos * kv_row), 1.0f, 2);
    const std::span<const int32_t> pos(positions), cell(cells);
    if (c.start > 0) {
        backend->kv_write(**cache, 0, k.data(), v.data(), KvBatchCells{pos.first(c.start), cell.first(c.start), cell});
    }
    const KvBatchCells batch{pos.subspan(c.start), cell.subspan(c.start), cell, c.prompt_batch_end};
    backend->kv_write(**cache, 0, k.data() + c.start * kv_row, v.data() + c.start * kv_row, batch);

    const auto q = random_floats(static_cast<size_t>(c.n_tokens * q_row), 1.0f, 3);
    AttentionShape shape{c.n_head, c.n_head_kv, c.head_dim};
    shape.precision = Precision::Reference;
    shape.window = c.window;
    shape.softcap = c.softcap;
    shape.scale_queries = c.scale_queries;
    const int64_t stride = n_pos + 3;
    std::vector<float> out(q.size(), -7.0f), weights(static_cast<size_t>(c.n_tokens * c.n_head * stride), -7.0f);
    backend->attention(**cache, 0, q.data(), out.data(), batch, shape, weights.data(), stride);

    const float scale = 1.0f / std::sqrt(static_cast<float>(c.head_dim));
    const int64_t group = c.n_head / c.n_head_kv;
    // the cache's rows of each kv head, as the backend stores them (written in from k and v)
    std::vector<std::vector<float>> kh(static_cast<size_t>(c.n_head_kv)), vh(kh.size());
    for (int64_t g = 0; g < c.n_head_kv; ++g) {
        kh[static_cast<size_t>(g)].resize(static_cast<size_t>(n_cells * c.head_dim));
        vh[static_cast<size_t>(g)].resize(static_cast<size_t>(n_cells * c.head_dim));
        for (int64_t p = 0; p < n_pos; ++p) {
            const int64_t from = p * kv_row + g * c.head_dim, to = cells[static_cast<size_t>(p)] * c.head_dim;
            for (int64_t d = 0; d < c.head_dim; ++d) { // as stored: F16 rounds to nearest
                const float kd = k[static_cast<size_t>(from + d)], vd = v[static_cast<size_t>(from + d)];
                kh[static_cast<size_t>(g)][static_cast<size_t>(to + d)] = c.k_type == TensorType::F16 ? round_f16(kd) : kd;
                vh[static_cast<size_t>(g)][static_cast<size_t>(to + d)] = c.v_type == TensorType::F16 ? round_f16(vd) : vd;
            }
        }
    }
    int mismatches = 0;
    for (int64_t t = 0; t < c.n_tokens && mismatches < 5; ++t) {
        const int64_t position = c.start + t, n_seen = position + 1;
        const int64_t first = c.window > 0 ? std::max<int64_t>(0, n_seen - c.window) : 0;
        const ValueSumOrder order = position < c.prompt_batch_end ? ValueSumOrder::Batch : ValueSumOrder::Single;
        for (int64_t h = 0; h < c.n_head; ++h) {
            const auto g = static_cast<size_t>(h / group);
            std::vector<float> want(static_cast<size_t>(c.head_dim)), want_w(static_cast<size_t>(stride));
            attend_row(q.data() + t * q_row + h * c.head_dim, kh[g].data(), vh[g].data(), c.head_dim, cells.data(), first, n_seen,
                       c.head_dim, scale, c.softcap, c.scale_queries, order, c.k_type == TensorType::F16,
                       c.v_type == TensorType::F16, want.data(), want_w.data(), stride);
            const float* got = out.data() + t * q_row + h * c.head_dim;
            const float* got_w = weights.data() + (t * c.n_head + h) * stride;
            const bool same = std::memcmp(got, want.data(), want.size() * sizeof(float)) == 0 &&
                              std::memcmp(got_w, want_w.data(), want_w.size() * sizeof(float)) == 0;
            if (!same) {
                ++mismatches;
                ADD_FAILURE() << "token " << t << " head " << h << ": out[0] " << got[0] << " want " << want[0];
            }
        }
    }
}

TEST(AttentionTiles, EqualAttendingEachQueryAloneBitForBit) {
    const Case cases[] = {
        {4, 2, 8, 0, 5, 5},                  // stories260K's shape, one prompt batch
        {8, 8, 64, 0, 70, 70},               // many tiles of tokens
        {8, 2, 32, 40, 33, 50},              // after a prefix; positions 50.. sum in the one-token order
        {32, 8, 64, 300, 1, 300},            // one generated token, 4 heads a kv head, past a value block
        {8, 1, 32, 20, 1, 20, 0, 0, false, 3}, // one kv head, more threads than tiles: heads split
        {4, 1, 128, 0, 40, 40},              // wide heads
        {8, 2, 48, 0, 37, 37},               // a head not a multiple of 32 (dots one at a time)
        {4, 4, 37, 10, 9, 12},               // nor of 8
        {4, 4, 37, 20, 1, 20},               // ... for one generated token (values read in place)
        {6, 2, 64, 100, 1, 100},             // one generated token, 3 heads a kv head (values in place, all at once)
        {4, 2, 32, 260, 1, 260},             // ... 2 heads a kv head, past a block of 128 positions
        {4, 2, 8, 6, 1, 6},                  // stories260K generating
        {4, 2, 32, 280, 20, 300, 16},        // a sliding window far from position 0
        {4, 2, 32, 0, 64, 64, 8, 10.0f, true}, // soft-capping, queries scaled first, window 8
        {8, 2, 64, 0, 600, 600, 0, 0, false, 1},  // one thread, a long prompt
        {8, 2, 64, 0, 600, 0, 0, 0, false, 3},    // every position in the one-token order
        // F16 keys and values (the reference's default cache)
        {4, 2, 8, 0, 5, 5, 0, 0, false, 2, TensorType::F16, TensorType::F16},      // stories260K's prompt
        {4, 2, 8, 6, 1, 6, 0, 0, false, 2, TensorType::F16, TensorType::F16},      // ... and a generated token
        {8, 2, 64, 40, 70, 90, 0, 0, false, 2, TensorType::F16, TensorType::F16},  // batched and one-token orders
        {8, 8, 48, 0, 37, 37, 0, 0, false, 2, TensorType::F16, TensorType::F16},   // products past the last step of 32
        {8, 2, 37, 0, 9, 4, 0, 0, false, 2, TensorType::F16, TensorType::F16},     // a head not a multiple of 8
        {32, 8, 64, 300, 1, 300, 0, 0, false, 2, TensorType::F16, TensorType::F16}, // a generated token, 4 heads a kv head
        {6, 2, 36, 45, 1, 45, 0, 0, false, 2, TensorType::F16, TensorType::F16},   // ... 3 heads, a head not a multiple of 8
        {8, 2, 96, 290, 1, 290, 0, 0, false, 2, TensorType::F16, TensorType::F16}, // ... 4 heads of 96 values: 64 + 32 at once
        {12, 4, 64, 0, 100, 100, 0, 0, false, 2, TensorType::F16, TensorType::F16}, // 3 heads a kv head: queries in threes
        {6, 2, 64, 150, 45, 195, 50, 0, false, 2, TensorType::F16, TensorType::F16}, // ... a window: each query its own positions
        {4, 2, 32, 0, 64, 64, 8, 10.0f, true, 2, TensorType::F16, TensorType::F32}, // F16 keys only
        {4, 1, 32, 10, 30, 20, 0, 0, false, 2, TensorType::F32, TensorType::F16},   // F16 values only
    };
    int paths = 0;
    // one query at a time (the scalar path), the AVX2 tile kernels, and the wide ones
    for (CpuPath path : {CpuPath::Scalar, CpuPath::Avx2, CpuPath::Avx512}) {
        if (!cpu_supports(path)) continue;
        ++paths;
        for (const Case& c : cases) check(c, path);
    }
    EXPECT_GE(paths, attention_tiles_supported() ? 2 : 1);
}

} // namespace
} // namespace octo
