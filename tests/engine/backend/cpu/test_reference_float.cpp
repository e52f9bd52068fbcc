// The reference's float steps (engine/backend/cpu/reference_float.h): the exp against values
// llama.cpp's own CPU backend computed, the sums and the float matrix products against their
// documented orders written out here one step at a time, and the vector code (taken on AVX2
// machines) against the scalar exp for every element.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "engine/backend/cpu/matmul_kernels.h"
#include "engine/backend/cpu/reference_float.h"
#include "engine/core/half.h"
#include "tests/support/random_floats.h"

namespace octo {
namespace {

struct Pair {
    float in;
    float out;
};

// ggml_silu of these inputs through llama.cpp c392e50's CPU backend, built for AVX2 + FMA
// (-DGGML_NATIVE=ON on an AMD EPYC Zen 3), printed with %a. The inputs cover both halves of the
// exp's range reduction: |n| > 126 (x < -87.3) is scaled in two steps, |n| > 192 is infinity.
constexpr Pair kSilu[] = {
    {-0x1.ap+6f, -0x0p+0f},          {-0x1.9p+6f, -0x0p+0f},         {-0x1.64p+6f, -0x0p+0f},
    {-0x1.62p+6f, -0x1.ba5d86p-122f}, {-0x1.6p+6f, -0x1.6a9bb8p-121f}, {-0x1.5ep+6f, -0x1.2938bcp-120f},
    {-0x1.ep+5f, -0x1.453376p-81f},  {-0x1.4p+4f, -0x1.621a8p-25f},  {-0x1.6p+2f, -0x1.6ec4acp-6f},
    {-0x1p+0f, -0x1.13656p-2f},      {-0x1p-1f, -0x1.829a06p-3f},    {-0x1.0624dep-10f, -0x1.06035p-11f},
    {-0x1.4484cp-100f, -0x1.4484cp-101f}, {0x0p+0f, 0x0p+0f},        {0x1.4484cp-100f, 0x1.4484cp-101f},
    {0x1.0624dep-10f, 0x1.06466cp-11f}, {0x1p-2f, 0x1.1fd59ap-3f},   {0x1p-1f, 0x1.3eb2fep-2f},
    {0x1.62e42ap-1f, 0x1.d93038p-2f}, {0x1p+0f, 0x1.764d5p-1f},      {0x1.8p+0f, 0x1.39f2d8p+0f},
    {0x1p+1f, 0x1.c2f7d8p+0f},       {0x1.8p+1f, 0x1.6dc9dap+1f},    {0x1.3p+2f, 0x1.2d6476p+2f},
    {0x1.cp+2f, 0x1.bf9784p+2f},     {0x1.4p+3f, 0x1.3ffc48p+3f},    {0x1.fp+3f, 0x1.effff8p+3f},
    {0x1.4p+4f, 0x1.4p+4f},          {0x1.4p+5f, 0x1.4p+5f},         {0x1.5cp+6f, 0x1.5cp+6f},
    {0x1.62p+6f, 0x1.62p+6f},        {0x1.9p+6f, 0x1.9p+6f},
};

// ggml_soft_max of this 32-value row, same build: exps down to subnormal results and to 0.
constexpr Pair kSoftmax[] = {
    {0x0p+0f, 0x1.61301p-3f},        {-0x1p-3f, 0x1.37afep-3f},      {-0x1p-1f, 0x1.ac7034p-4f},
    {-0x1p+0f, 0x1.03dc6ap-4f},      {-0x1.8p+0f, 0x1.3b3a3p-5f},    {-0x1p+1f, 0x1.7e63dcp-6f},
    {-0x1.8p+1f, 0x1.1958cap-7f},    {-0x1.2p+2f, 0x1.f6373ep-10f},  {-0x1.8p+2f, 0x1.c03ceap-12f},
    {-0x1p+3f, 0x1.e54cap-15f},      {-0x1.4p+3f, 0x1.06b666p-17f},  {-0x1.ap+3f, 0x1.a28cc4p-22f},
    {-0x1.1p+4f, 0x1.ea9fe2p-28f},   {-0x1.4p+4f, 0x1.86d4p-32f},    {-0x1.ep+4f, 0x1.22b5eap-46f},
    {-0x1.9p+5f, 0x1.41b152p-75f},   {-0x1.4p+6f, 0x1.08c972p-118f}, {-0x1.5ap+6f, 0x1.97a528p-128f},
    {-0x1.5d999ap+6f, 0x1.4b78dp-129f}, {-0x1.6p+6f, 0x1.6bd4ep-130f}, {-0x1.68p+6f, 0x1.89eap-133f},
    {-0x1.7cp+6f, 0x1.538p-140f},    {-0x1.9p+6f, 0x1.4p-147f},      {-0x1.9cp+6f, 0x0p+0f},
    {-0x1.9f999ap+6f, 0x0p+0f},      {-0x1.a2p+6f, 0x0p+0f},         {-0x1.b8p+6f, 0x0p+0f},
    {-0x1.2cp+7f, 0x0p+0f},          {-0x1.9p+7f, 0x0p+0f},          {0x1.8p-2f, 0x1.00f14ap-2f},
    {0x1p-4f, 0x1.77f764p-3f},       {-INFINITY, 0x0p+0f},
};

uint32_t bits(float v) { return std::bit_cast<uint32_t>(v); }

using test::random_floats;

TEST(ReferenceFloat, SiluEqualsTheReferenceBitForBit) {
    std::vector<float> gate, up(std::size(kSilu), 1.0f), out(std::size(kSilu));
    for (const Pair& p : kSilu) gate.push_back(p.in);
    const auto n = static_cast<int64_t>(gate.size()); // one row of 32: the vector exp throughout
    reference_silu_mul(gate.data(), up.data(), out.data(), n, 0, n);
    int libm_differs = 0;
    for (size_t i = 0; i < gate.size(); ++i) {
        EXPECT_EQ(bits(out[i]), bits(kSilu[i].out)) << "silu(" << gate[i] << ") = " << out[i] << ", want " << kSilu[i].out;
        const float libm = gate[i] / (1.0f + std::exp(0.0f - gate[i]));
        libm_differs += bits(libm) != bits(kSilu[i].out);
    }
    // the table tells the reference's exp from the C library's: a test that can fail
    EXPECT_GT(libm_differs, 0);
}

TEST(ReferenceFloat, SoftmaxEqualsTheReferenceBitForBit) {
    std::vector<float> row;
    for (const Pair& p : kSoftmax) row.push_back(p.in);
    float max = -INFINITY;
    for (float v : row) max = std::max(max, v);
    const double sum = reference_softmax_exp(row.data(), 0, static_cast<int64_t>(row.size()), max);
    const auto inv = static_cast<float>(1.0 / sum);
    for (size_t i = 0; i < row.size(); ++i) {
        const float p = row[i] * inv;
        EXPECT_EQ(bits(p), bits(kSoftmax[i].out)) << "position " << i << ": " << p << ", want " << kSoftmax[i].out;
    }
}

// Rows of 172 (stories260K's feed-forward width), given from any column: the reference's vector
// loop takes columns 0-167 of each row, its scalar loop (the C library's expf) columns 168-171;
// silu is rounded before the product with up. kSilu's inputs tell the two exps apart.
TEST(ReferenceFloat, SiluTakesTheCLibraryExpForARowsLastValues) {
    const int64_t row = 172, n_rows = 3;
    std::vector<float> gate(static_cast<size_t>(row * n_rows)), up = random_floats(gate.size(), 1.0f, 9), out(gate.size());
    for (size_t i = 0; i < gate.size(); ++i) gate[i] = kSilu[i % std::size(kSilu)].in;
    for (int64_t from : {int64_t{0}, int64_t{5}, int64_t{170}}) { // a thread's share may start anywhere
        reference_silu_mul(gate.data(), up.data(), out.data(), from, 0, row);
        reference_silu_mul(gate.data() + from, up.data() + from, out.data() + from, row * n_rows - from, from % row, row);
        int tails_differ = 0;
        for (int64_t i = 0; i < row * n_rows; ++i) {
            const float g = gate[static_cast<size_t>(i)];
            const bool tail = i % row >= 168;
            const float silu = tail ? g / (1.0f + std::exp(-g)) : g / (1.0f + reference_expf(0.0f - g));
            const float want = silu * up[static_cast<size_t>(i)];
            ASSERT_EQ(bits(out[static_cast<size_t>(i)]), bits(want)) << "i " << i << " from " << from;
            if (tail) tails_differ += bits(want) != bits(g / (1.0f + reference_expf(0.0f - g)) * up[static_cast<size_t>(i)]);
        }
        EXPECT_GT(tails_differ, 0); // the columns where the exps part are among the tails
    }
}

// The vector exp (AVX2 machines) and the scalar one agree on every input, range edges included.
TEST(ReferenceFloat, VectorExpEqualsScalarExp) {
    std::vector<float> x = random_floats(4096, 8.0f, 1);
    for (float v = -110.0f; v <= 95.0f; v += 0.0625f) x.push_back(v);
    for (float v : {-87.33655f, -87.33654f, 88.72283f, 88.72284f, -103.97208f, -103.97207f, 0.0f, -0.0f, INFINITY, -INFINITY}) {
        x.push_back(v);
    }
    x.resize((x.size() + 7) / 8 * 8, 1.0f);
    std::vector<float> up(x.size(), 1.0f), out(x.size());
    const auto n = static_cast<int64_t>(x.size()); // one row, a multiple of eight long
    reference_silu_mul(x.data(), up.data(), out.data(), n, 0, n);
    for (size_t i = 0; i < x.size(); ++i) {
        const float want = x[i] / (1.0f + reference_expf(0.0f - x[i]));
        ASSERT_EQ(bits(out[i]), bits(want)) << "x = " << x[i];
    }
    EXPECT_EQ(reference_expf(0.0f), 1.0f);
    EXPECT_EQ(reference_expf(-INFINITY), 0.0f);
    EXPECT_EQ(reference_expf(100.0f), INFINITY);
    EXPECT_NEAR(reference_expf(1.0f), std::exp(1.0f), 5e-7f); // within two ulps of e
}

// Four accumulators of eight lanes over whole steps of 32, reduced (0+2)+(1+3) lane by lane.
void whole_steps_by_hand(const float* a, const float* b, int64_t n, float (&s)[8]) {
    float acc[4][8] = {};
    const int64_t whole = n / 32 * 32;
    for (int64_t i = 0; i < whole; ++i) {
        float& lane = acc[(i % 32) / 8][i % 8];
        lane = std::fma(a[i], b[i], lane);
    }
    for (int l = 0; l < 8; ++l) s[l] = (acc[0][l] + acc[2][l]) + (acc[1][l] + acc[3][l]);
}

// The float dot product: the whole steps, halves added, two horizontal adds; then the rest as
// GCC compiles the reference's loop — groups of eight, then one group of four, each product
// rounded and added in order, the last one to three values multiply-added. Step by step.
float dot_by_hand(const float* a, const float* b, int64_t n) {
    float s[8];
    whole_steps_by_hand(a, b, n, s);
    float sum = ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
    int64_t i = n / 32 * 32;
    for (; n - i >= 8; i += 8) {
        for (int l = 0; l < 8; ++l) {
            const float product = a[i + l] * b[i + l];
            sum = sum + product;
        }
    }
    if (n - i >= 4) {
        for (int l = 0; l < 4; ++l) {
            const float product = a[i + l] * b[i + l];
            sum = sum + product;
        }
        i += 4;
    }
    for (; i < n; ++i) sum = std::fma(a[i], b[i], sum);
    return sum;
}

TEST(ReferenceFloat, DotFollowsTheReferenceOrder) {
    for (int64_t n : {1, 3, 4, 7, 8, 12, 15, 31, 32, 44, 47, 64, 80, 96, 128, 131, 172, 256}) {
        for (uint32_t seed = 2; seed < 34; seed += 2) { // whether a step fuses shows in some sums only
            const auto a = random_floats(static_cast<size_t>(n), 1.0f, seed);
            const auto b = random_floats(static_cast<size_t>(n), 3.0f, seed + 1);
            EXPECT_EQ(bits(reference_dot(a.data(), b.data(), n)), bits(dot_by_hand(a.data(), b.data(), n))) << "n " << n;
            double exact = 0.0;
            for (int64_t i = 0; i < n; ++i) exact += static_cast<double>(a[i]) * b[i];
            EXPECT_NEAR(reference_dot(a.data(), b.data(), n), exact, 1e-5 * static_cast<double>(n)) << "n " << n;
        }
    }
}

// Exps in groups of eight from position 0, each group summed ((0+4)+(2+6)) + ((1+5)+(3+7)) in
// float, groups in double; positions before `first` weigh 0.
TEST(ReferenceFloat, SoftmaxSumFollowsTheReferenceOrder) {
    for (int64_t n : {1, 7, 8, 13, 32, 45}) {
        for (int64_t first : {int64_t{0}, int64_t{3}, n / 2}) {
            auto s = random_floats(static_cast<size_t>(n), 4.0f, static_cast<uint32_t>(n));
            float max = -INFINITY;
            for (int64_t p = first; p < n; ++p) max = std::max(max, s[static_cast<size_t>(p)]);
            std::vector<float> want(s.size(), 0.0f);
            double want_sum = 0.0;
            for (int64_t g = 0; g < n; g += 8) {
                float e[8] = {};
                for (int64_t l = 0; l < 8 && g + l < n; ++l) {
                    if (g + l >= first) e[l] = reference_expf(s[static_cast<size_t>(g + l)] - max);
                    want[static_cast<size_t>(g + l)] = e[l];
                }
                want_sum += static_cast<double>(((e[0] + e[4]) + (e[2] + e[6])) + ((e[1] + e[5]) + (e[3] + e[7])));
            }
            const double sum = reference_softmax_exp(s.data(), first, n, max);
            EXPECT_EQ(sum, want_sum) << n << " from " << first;
            for (size_t i = 0; i < s.size(); ++i) EXPECT_EQ(bits(s[i]), bits(want[i])) << n << " from " << first << " at " << i;
        }
    }
}

// Batch: position p to lane p % 8 by multiply-add, lanes l and l + 4 added, then (0+2) + (1+3).
// Single: reference_dot's order over positions, padded with zero weights to whole steps of 32 (the
// reference pads its attended cells to a multiple of 32). Value rows reached through scattered cells.
TEST(ReferenceFloat, WeightedValuesFollowTheReferenceOrders) {
    const int64_t n_cells = 64;
    for (int64_t head_dim : {4, 8, 32, 37, 64}) {
        const int64_t stride = head_dim + 3;
        const auto storage = random_floats(static_cast<size_t>(n_cells * stride), 1.0f, 5);
        for (int64_t n : {1, 5, 8, 33, 50}) {
            std::vector<int32_t> cells(static_cast<size_t>(n));
            for (int64_t p = 0; p < n; ++p) cells[static_cast<size_t>(p)] = static_cast<int32_t>((p * 37 + 11) % n_cells);
            auto w = random_floats(static_cast<size_t>(n), 0.2f, 6);
            const int64_t first = n > 8 ? 3 : 0;
            for (int64_t p = 0; p < first; ++p) w[static_cast<size_t>(p)] = 0.0f;
            const ValueRows rows{storage.data(), stride, cells.data()};
            for (ValueSumOrder order : {ValueSumOrder::Batch, ValueSumOrder::Single}) {
                std::vector<float> out(static_cast<size_t>(head_dim));
                reference_weighted_values(w.data(), first, n, rows, head_dim, order, out.data());
                for (int64_t d = 0; d < head_dim; ++d) {
                    std::vector<float> column(static_cast<size_t>(n));
                    for (int64_t p = 0; p < n; ++p) column[static_cast<size_t>(p)] = rows(p)[d];
                    float want = 0.0f;
                    if (order == ValueSumOrder::Single) { // the reference's positions come in whole steps of 32
                        const int64_t padded = (n + 31) / 32 * 32;
                        std::vector<float> c = column, ww = w;
                        c.resize(static_cast<size_t>(padded), 0.0f);
                        ww.resize(static_cast<size_t>(padded), 0.0f);
                        want = dot_by_hand(c.data(), ww.data(), padded);
                    } else {
                        float lane[8] = {};
                        for (int64_t p = first; p < n; ++p) lane[p % 8] = std::fma(w[static_cast<size_t>(p)], column[static_cast<size_t>(p)], lane[p % 8]);
                        want = ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]));
                    }
                    ASSERT_EQ(bits(out[static_cast<size_t>(d)]), bits(want))
                        << "head_dim " << head_dim << " n " << n << " d " << d << (order == ValueSumOrder::Batch ? " batch" : " single");
                }
            }
        }
    }
}

// --- the float matrix products -----------------------------------------------------------------

// A float weight row in its type's bytes, and its values as the kernels read them.
struct FloatRows {
    TensorType type;
    std::vector<uint8_t> bytes;
    std::vector<float> values;
};

FloatRows float_rows(TensorType type, int64_t n_out, int64_t n_in, uint32_t seed) {
    const auto v = random_floats(static_cast<size_t>(n_out * n_in), 0.5f, seed);
    FloatRows m{type, {}, {}};
    for (float x : v) {
        if (type == TensorType::F32) {
            const auto b = std::bit_cast<uint32_t>(x);
            for (int k = 0; k < 4; ++k) m.bytes.push_back(static_cast<uint8_t>(b >> (8 * k)));
            m.values.push_back(x);
        } else {
            const uint16_t h = type == TensorType::F16 ? fp32_to_fp16(x) : fp32_to_bf16(x);
            m.bytes.push_back(static_cast<uint8_t>(h & 0xff));
            m.bytes.push_back(static_cast<uint8_t>(h >> 8));
            m.values.push_back(type == TensorType::F16 ? fp16_to_fp32(h) : bf16_to_fp32(h));
        }
    }
    return m;
}

// The tiled product (a token of a batch): one 8-lane accumulator, halves added, (0+2)+(1+3).
float tiled_by_hand(const float* w, const float* x, int64_t n) {
    float lane[8] = {};
    for (int64_t i = 0; i < n; ++i) lane[i % 8] = std::fma(w[i], x[i], lane[i % 8]);
    const float h[4] = {lane[0] + lane[4], lane[1] + lane[5], lane[2] + lane[6], lane[3] + lane[7]};
    return (h[0] + h[2]) + (h[1] + h[3]);
}

// The dot product (a token alone): F32 the float dot product above; F16 the same whole steps
// and horizontal adds, BF16 the same whole steps, halves added and (0+2)+(1+3), both then adding
// the rest in double, each product rounded to float first.
float alone_by_hand(TensorType type, const float* w, const float* x, int64_t n) {
    if (type == TensorType::F32) return dot_by_hand(w, x, n);
    float s[8];
    whole_steps_by_hand(w, x, n, s);
    double sum = 0.0;
    if (type == TensorType::F16) {
        sum = ((s[0] + s[4]) + (s[1] + s[5])) + ((s[2] + s[6]) + (s[3] + s[7]));
    } else {
        const float h[4] = {s[0] + s[4], s[1] + s[5], s[2] + s[6], s[3] + s[7]};
        sum += static_cast<double>((h[0] + h[2]) + (h[1] + h[3]));
    }
    for (int64_t i = n / 32 * 32; i < n; ++i) {
        const float product = w[i] * x[i];
        sum += static_cast<double>(product);
    }
    return static_cast<float>(sum);
}

// Every token of a batch in the order the reference gives it — tiled where the matrix is
// reference_tiled and the token batched, its dot product otherwise — bit for bit, for each
// float type, on the scalar kernel and (where the CPU has it) the AVX2 one, with the rows split
// unevenly (tiles of 4 rows and lone rows) and batched tokens in runs of 1 to 5.
TEST(ReferenceFloat, FloatProductsFollowTheReferenceOrders) {
    struct Shape {
        int64_t n_in, n_out;
        bool tiled;
    };
    const Shape shapes[] = {{64, 12, true}, {72, 8, true}, {296, 20, true}, {172, 8, false}, {64, 6, false}, {40, 12, true}};
    const uint8_t batched[] = {1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 0};
    const auto n_tokens = static_cast<int64_t>(sizeof(batched));
    std::vector<CpuPath> paths = {CpuPath::Scalar};
    if (cpu_supports(CpuPath::Avx2)) paths.push_back(CpuPath::Avx2);
    for (TensorType type : {TensorType::F32, TensorType::F16, TensorType::BF16}) {
        for (const Shape& shape : shapes) {
            const FloatRows rows = float_rows(type, shape.n_out, shape.n_in, 11);
            const WeightMatrix w{type, rows.bytes.data(), shape.n_in, shape.n_out,
                                 static_cast<uint64_t>(rows.bytes.size() / static_cast<size_t>(shape.n_out)), false, shape.tiled};
            auto x = random_floats(static_cast<size_t>(n_tokens * shape.n_in), 2.0f, 12);
            for (float& v : x) { // activations already rounded to the weights' precision
                if (type == TensorType::F16) v = fp16_to_fp32(fp32_to_fp16(v));
                if (type == TensorType::BF16) v = bf16_to_fp32(fp32_to_bf16(v));
            }
            for (CpuPath path : paths) {
                std::vector<float> y(static_cast<size_t>(n_tokens * shape.n_out), NAN);
                const MatmulArgs args{&w, x.data(), y.data(), n_tokens, batched};
                const MatmulRowsKernel kernel = reference_float_kernel(path);
                kernel(args, 0, 5);
                kernel(args, 5, shape.n_out);
                for (int64_t t = 0; t < n_tokens; ++t) {
                    for (int64_t r = 0; r < shape.n_out; ++r) {
                        const float* wr = rows.values.data() + r * shape.n_in;
                        const float* xt = x.data() + t * shape.n_in;
                        const bool tiled = shape.tiled && batched[t];
                        const float want = tiled ? tiled_by_hand(wr, xt, shape.n_in) : alone_by_hand(type, wr, xt, shape.n_in);
                        ASSERT_EQ(bits(y[static_cast<size_t>(t * shape.n_out + r)]), bits(want))
                            << tensor_type_info(static_cast<uint32_t>(type))->name << " " << shape.n_in << " x " << shape.n_out << " token " << t << " row " << r
                            << (tiled ? " tiled" : " alone") << " path " << cpu_path_name(path);
                    }
                }
            }
        }
    }
}

// The two orders of a product of F16 values that attention takes with an F16 key cache (the
// query rounded to F16): reference_lanes_dot is the tiled product's, reference_dot_f16 the dot
// product's — the same orders, by hand, as the F16 matrix products above.
TEST(ReferenceFloat, HalfPrecisionDotsFollowTheProductOrders) {
    for (int64_t n : {8, 16, 40, 64, 72, 96}) {
        auto a = random_floats(static_cast<size_t>(n), 2.0f, 21), b = random_floats(static_cast<size_t>(n), 2.0f, 22);
        for (float& v : a) v = fp16_to_fp32(fp32_to_fp16(v));
        for (float& v : b) v = fp16_to_fp32(fp32_to_fp16(v));
        EXPECT_EQ(bits(reference_lanes_dot(a.data(), b.data(), n)), bits(tiled_by_hand(a.data(), b.data(), n))) << n;
        EXPECT_EQ(bits(reference_dot_f16(a.data(), b.data(), n)), bits(alone_by_hand(TensorType::F16, a.data(), b.data(), n)))
            << n;
    }
}

} // namespace
} // namespace octo
