// Reference precision (backend/precision.h): activations rounded as llama.cpp rounds them —
// hand-worked blocks for each activation format (ties to even, the scale rules) — and the
// integer kernels: the scalar ones against a float64 sum of the same quantised values, every
// optimised path against the scalar one, bit-identical across threads and batch splits.
// Covers: precision.cpp, engine/backend/cpu/activation_quant.cpp
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/core/half.h"
#include "engine/gguf/block_values.h"
#include "engine/gguf/dequantize.h"
#include "engine/gguf/quantize.h"
#include "engine/inference/llama_forward.h"
#include "tests/support/cpu_paths.h"
#include "tests/support/error_norms.h"
#include "tests/support/quantised_matrix.h"
#include "tests/support/tensor_info.h"

namespace octo {
namespace {

using test::relative_l2;

const TensorType kQuantTypes[] = {TensorType::Q4_0,   TensorType::Q4_1,    TensorType::Q5_0,   TensorType::Q5_1,
                                  TensorType::Q8_0,   TensorType::Q4_K,    TensorType::Q5_K,   TensorType::Q6_K,
                                  TensorType::Q2_K,   TensorType::Q3_K,    TensorType::IQ4_NL, TensorType::IQ4_XS,
                                  TensorType::MXFP4,  TensorType::TQ1_0,   TensorType::TQ2_0,  TensorType::IQ2_XXS,
                                  TensorType::IQ2_XS, TensorType::IQ2_S,   TensorType::IQ3_XXS, TensorType::IQ3_S,
                                  TensorType::IQ1_S,  TensorType::IQ1_M};

std::string type_name(TensorType t) { return std::string(tensor_type_info(static_cast<uint32_t>(t))->name); }

// The first thirteen types have SIMD integer kernels of their own (Q2_K, Q3_K, IQ4_NL, IQ4_XS and
// MXFP4 the low-bit ones); the low-bit types after them run the scalar kernel on every path.
constexpr size_t kSimdQuantTypes = 13;
constexpr size_t kFirstLowBitType = 8;

// Types in blocks of 256 values (the K-quants and most low-bit types).
bool is_k_quant(TensorType t) { return tensor_type_info(static_cast<uint32_t>(t))->block_size == 256; }

// --- activation formats, worked by hand ------------------------------------------------------------

TEST(ActivationQuant, Q8_0RoundsHalfToEvenWithScale127OverMax) {
    float x[32] = {127.0f, 2.5f, -3.5f, 0.5f, 1.5f, -0.5f, 126.5f};
    ActQ8_0 q;
    quantize_activation_row(ActivationFormat::Q8_0, x, &q, 32);
    EXPECT_EQ(q.d, 1.0f); // fp16(127 / 127)
    const int want[7] = {127, 2, -4, 0, 2, 0, 126};
    for (int i = 0; i < 7; ++i) EXPECT_EQ(q.qs[i], want[i]) << "value " << i;
    EXPECT_EQ(q.sum, 127 + 2 - 4 + 2 + 126);
    // A scale that fp16 cannot hold: d is rounded, the values are not re-rounded with it.
    float y[32] = {};
    y[0] = 0.3f;
    y[1] = 0.15f;
    quantize_activation_row(ActivationFormat::Q8_0, y, &q, 32);
    EXPECT_EQ(q.d, fp16_to_fp32(fp32_to_fp16(0.3f / 127.0f)));
    EXPECT_EQ(q.qs[0], 127);
    EXPECT_EQ(q.qs[1], static_cast<int>(std::nearbyint(0.15f * (127.0f / 0.3f))));
}

TEST(ActivationQuant, Q8_0OfZerosIsZero) {
    const float x[32] = {};
    ActQ8_0 q;
    q.qs[3] = 9;
    quantize_activation_row(ActivationFormat::Q8_0, x, &q, 32);
    EXPECT_EQ(q.d, 0.0f);
    for (int8_t v : q.qs) EXPECT_EQ(v, 0);
}

TEST(ActivationQuant, Q8_1KeepsTheScaledSumInHalfPrecision) {
    float x[32] = {};
    for (int i = 0; i < 32; ++i) x[i] = 0.01f * static_cast<float>(i); // max 0.31
    ActQ8_1 q;
    quantize_activation_row(ActivationFormat::Q8_1, x, &q, 32);
    const float d = 0.31f / 127.0f;
    int sum = 0;
    for (int i = 0; i < 32; ++i) {
        EXPECT_EQ(q.qs[i], static_cast<int>(std::nearbyint(x[i] * (127.0f / 0.31f)))) << i;
        sum += q.qs[i];
    }
    EXPECT_EQ(q.d, fp16_to_fp32(fp32_to_fp16(d)));
    EXPECT_EQ(q.s, fp16_to_fp32(fp32_to_fp16(d * static_cast<float>(sum))));
}

TEST(ActivationQuant, Q8_KScalesByMinus127OverTheSignedMax) {
    std::vector<float> x(256, 0.0f);
    x[0] = 254.0f; // the largest magnitude: iscale = -127 / 254 = -0.5
    x[1] = 5.0f;   // -2.5 -> -2 (ties to even)
    x[2] = -7.0f;  // 3.5 -> 4
    x[17] = -254.0f; // same magnitude, later: the first one sets the sign
    ActQ8_K q;
    quantize_activation_row(ActivationFormat::Q8_K, x.data(), &q, 256);
    EXPECT_EQ(q.d, -2.0f); // 1 / iscale, a float
    EXPECT_EQ(q.qs[0], -127);
    EXPECT_EQ(q.qs[1], -2);
    EXPECT_EQ(q.qs[2], 4);
    EXPECT_EQ(q.qs[17], 127);
    EXPECT_EQ(q.bsums[0], -127 - 2 + 4);
    EXPECT_EQ(q.bsums[1], 127);
    EXPECT_EQ(q.bsums[2], 0);
}

TEST(ActivationQuant, HalfAndBFloatRoundToNearestEven) {
    const float x[4] = {1.0f + 0x1p-11f, 1.0f + 0x3p-11f, 1.0f + 0x1p-8f, 1.0f + 0x3p-8f};
    float h[4], b[4];
    round_activation_row(ActivationFormat::F16, x, h, 4);
    round_activation_row(ActivationFormat::BF16, x, b, 4);
    EXPECT_EQ(h[0], 1.0f);             // tie -> even
    EXPECT_EQ(h[1], 1.0f + 0x1p-9f);   // tie -> even (up)
    EXPECT_EQ(b[2], 1.0f);
    EXPECT_EQ(b[3], 1.0f + 0x1p-6f);
}

// The SIMD quantiser against the plain loop, on rows with ties (values that land exactly on .5
// after scaling), zeros, repeated maxima of both signs and ordinary noise.
TEST(ActivationQuant, SimdRowsAreBitIdenticalToTheScalarLoop) {
    std::mt19937 rng(31);
    std::normal_distribution<float> noise(0.0f, 1.0f);
    for (int trial = 0; trial < 40; ++trial) {
        std::vector<float> x(768);
        for (float& v : x) v = noise(rng);
        if (trial % 4 == 1) {
            for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 255) - 127) * 0.5f;
        }
        if (trial % 4 == 2) std::fill(x.begin() + 256, x.begin() + 512, 0.0f);
        if (trial % 4 == 3) {
            x[300] = -8.0f;
            x[301] = 8.0f;
        }
        for (ActivationFormat f : {ActivationFormat::Q8_0, ActivationFormat::Q8_1, ActivationFormat::Q8_K}) {
            std::vector<uint8_t> a(static_cast<size_t>(activation_row_bytes(f, 768))), b(a.size());
            quantize_activation_row(f, x.data(), a.data(), 768);
            quantize_activation_row_scalar(f, x.data(), b.data(), 768);
            EXPECT_EQ(a, b) << "format " << static_cast<int>(f) << " trial " << trial;
        }
    }
}

// Rounding to fp16 / bf16: the SIMD rows equal the scalar loop bit for bit, on values that test
// every branch: ties, fp16 subnormals and underflow, fp32 subnormals, the largest fp16 and the
// values that round to infinity, infinities, signed zeros and NaNs with payloads.
TEST(ActivationQuant, SimdRoundingIsBitIdenticalToTheScalarLoop) {
    std::vector<float> x;
    for (uint32_t bits : {0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                          0x7f800001u, 0xffa5a5a5u, 0x7fbfffffu, 0x477fe000u, 0x477fefffu, 0x477ff000u, 0x477fffffu,
                          0x47800000u, 0x33000000u, 0x33000001u, 0x32ffffffu, 0x387fc000u, 0x38800000u, 0x3f808000u,
                          0x3f818000u, 0x3f800001u, 0x3f807fffu, 0xbf808000u, 0x7f7fffffu, 0x3f801000u, 0x3f803000u}) {
        x.push_back(std::bit_cast<float>(bits));
    }
    std::mt19937 rng(37);
    std::uniform_int_distribution<uint32_t> any;
    while (x.size() < 4099) x.push_back(std::bit_cast<float>(any(rng))); // every exponent; 4,099: a tail of 3
    for (ActivationFormat f : {ActivationFormat::F16, ActivationFormat::BF16}) {
        std::vector<float> a(x.size()), b(x.size()), in_place = x;
        round_activation_row(f, x.data(), a.data(), static_cast<int64_t>(x.size()));
        round_activation_row_scalar(f, x.data(), b.data(), static_cast<int64_t>(x.size()));
        round_activation_row(f, in_place.data(), in_place.data(), static_cast<int64_t>(x.size()));
        for (size_t i = 0; i < x.size(); ++i) {
            EXPECT_EQ(std::bit_cast<uint32_t>(a[i]), std::bit_cast<uint32_t>(b[i]))
                << "format " << static_cast<int>(f) << " input 0x" << std::hex << std::bit_cast<uint32_t>(x[i]);
            EXPECT_EQ(std::bit_cast<uint32_t>(in_place[i]), std::bit_cast<uint32_t>(b[i])) << "in place, item " << i;
        }
    }
}

// --- kernels ------------------------------------------------------------------------------------

using TestMatrix = test::QuantisedMatrix;

TestMatrix make_matrix(TensorType type, int64_t n_in, int64_t n_out, uint32_t seed) {
    return test::make_quantised_matrix(type, n_in, n_out, seed);
}

std::vector<float> random_vector(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    std::vector<float> v(n);
    for (float& x : v) x = dist(rng);
    return v;
}

std::unique_ptr<CpuBackend> backend(CpuPath path, int threads) { return test::cpu_backend(path, threads); }

std::vector<CpuPath> optimised_paths() { return test::optimised_cpu_paths(); }

// Row lengths: an odd number of 32-blocks, and three K-quant super-blocks.
int64_t row_length(TensorType t) { return is_k_quant(t) ? 768 : 480; }

float half_at(const uint8_t* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return fp16_to_fp32(h);
}

// The activation row x as the kernels see it, dequantised: q · d per block; for Q8_1 also the
// per-block correction m · (s - d·Σq) that the reference's rounded s adds to the min term.
double reference_dot(const TestMatrix& m, int64_t r, const float* x, TensorType type) {
    const int64_t n_in = m.w.n_in;
    const ActivationFormat f = activation_format(type);
    std::vector<uint8_t> q(static_cast<size_t>(activation_row_bytes(f, n_in)));
    quantize_activation_row(f, x, q.data(), n_in);
    std::vector<double> xd(static_cast<size_t>(n_in));
    double correction = 0.0;
    const uint8_t* row = m.bytes.data() + static_cast<uint64_t>(r) * m.w.row_bytes;
    if (f == ActivationFormat::Q8_0) {
        const auto* b = reinterpret_cast<const ActQ8_0*>(q.data());
        for (int64_t i = 0; i < n_in; ++i) xd[i] = double(b[i / 32].d) * b[i / 32].qs[i % 32];
    } else if (f == ActivationFormat::Q8_1) {
        const auto* b = reinterpret_cast<const ActQ8_1*>(q.data());
        const uint64_t block_bytes = tensor_type_info(static_cast<uint32_t>(type))->type_size;
        for (int64_t k = 0; k < n_in / 32; ++k) {
            int sum = 0;
            for (int i = 0; i < 32; ++i) {
                xd[k * 32 + i] = double(b[k].d) * b[k].qs[i];
                sum += b[k].qs[i];
            }
            correction += double(half_at(row + k * block_bytes + 2)) * (double(b[k].s) - double(b[k].d) * sum);
        }
    } else {
        const auto* b = reinterpret_cast<const ActQ8_K*>(q.data());
        for (int64_t i = 0; i < n_in; ++i) xd[i] = double(b[i / 256].d) * b[i / 256].qs[i % 256];
    }
    double s = correction;
    for (int64_t i = 0; i < n_in; ++i) s += double(m.dequant[r * n_in + i]) * xd[i];
    return s;
}

TEST(ReferencePrecision, ScalarKernelsSumTheQuantisedProductsExactly) {
    for (TensorType type : kQuantTypes) {
        const int64_t n_in = row_length(type), n_out = 11, n_tok = 3;
        const TestMatrix m = make_matrix(type, n_in, n_out, 5);
        const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 6);
        std::vector<double> want(static_cast<size_t>(n_tok * n_out));
        for (int64_t t = 0; t < n_tok; ++t) {
            for (int64_t r = 0; r < n_out; ++r) want[t * n_out + r] = reference_dot(m, r, x.data() + t * n_in, type);
        }
        std::vector<float> y(want.size());
        backend(CpuPath::Scalar, 1)->matmul(m.w, x.data(), y.data(), n_tok, Precision::Reference);
        EXPECT_LT(relative_l2(y, want), 2e-6) << type_name(type);
    }
}

// The activations' 8-bit rounding moves the product by about a percent, never more.
TEST(ReferencePrecision, StaysCloseToTheExactProduct) {
    for (TensorType type : kQuantTypes) {
        const int64_t n_in = row_length(type), n_out = 16, n_tok = 4;
        const TestMatrix m = make_matrix(type, n_in, n_out, 9);
        const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 10);
        std::vector<float> exact(static_cast<size_t>(n_tok * n_out)), ref(exact.size());
        auto b = backend(CpuPath::Scalar, 1);
        b->matmul(m.w, x.data(), exact.data(), n_tok, Precision::Exact);
        b->matmul(m.w, x.data(), ref.data(), n_tok, Precision::Reference);
        const double err = relative_l2(ref, std::vector<double>(exact.begin(), exact.end()));
        EXPECT_GT(err, 1e-5) << type_name(type) << ": the activations were not quantised";
        EXPECT_LT(err, 3e-2) << type_name(type);
    }
}

// Integer sums are exact on every path: only the order of the float steps differs.
TEST(ReferencePrecision, OptimisedPathsMatchScalar) {
    const auto paths = optimised_paths();
    if (paths.empty()) GTEST_SKIP() << "this CPU has no optimised kernel path";
    for (CpuPath path : paths) {
        for (TensorType type : kQuantTypes) {
            for (int64_t n_tok : {1, 4, 7}) {
                const int64_t n_in = row_length(type), n_out = 19;
                const TestMatrix m = make_matrix(type, n_in, n_out, 13);
                const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 14);
                std::vector<float> ref(static_cast<size_t>(n_tok * n_out)), got(ref.size());
                backend(CpuPath::Scalar, 1)->matmul(m.w, x.data(), ref.data(), n_tok, Precision::Reference);
                backend(path, 2)->matmul(m.w, x.data(), got.data(), n_tok, Precision::Reference);
                EXPECT_LT(relative_l2(got, std::vector<double>(ref.begin(), ref.end())), 1e-6)
                    << cpu_path_name(path) << " " << type_name(type) << " n_tok " << n_tok;
            }
        }
    }
}

// Products large enough that a thread's rows are walked in several blocks, with a token count
// past one token block and not a multiple of the tile: every row of every token is computed
// (against the scalar path), and the batch equals the same path one token at a time bit for bit.
bool is_float_type(TensorType type) {
    return type == TensorType::F16 || type == TensorType::BF16 || type == TensorType::F32;
}

TEST(ReferencePrecision, LargeProductsWalkEveryRowAndToken) {
    const auto paths = optimised_paths();
    if (paths.empty()) GTEST_SKIP() << "this CPU has no optimised kernel path";
    std::vector<TensorType> types(std::begin(kQuantTypes), std::begin(kQuantTypes) + kSimdQuantTypes);
    types.insert(types.end(), {TensorType::F16, TensorType::BF16, TensorType::F32}); // plain tiles, 16 KiB rows
    for (TensorType type : types) {
        const int64_t n_in = 4096, n_out = 67, n_tok = 37;
        const TestMatrix m = make_matrix(type, n_in, n_out, 23);
        const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 24);
        std::vector<float> ref(static_cast<size_t>(n_tok * n_out));
        backend(CpuPath::Scalar, 1)->matmul(m.w, x.data(), ref.data(), n_tok, Precision::Reference);
        for (CpuPath path : paths) {
            for (int threads : {1, 2}) {
                auto b = backend(path, threads);
                std::vector<float> got(ref.size(), -7.0f), one(ref.size(), -7.0f);
                b->matmul(m.w, x.data(), got.data(), n_tok, Precision::Reference);
                for (int64_t t = 0; t < n_tok; ++t) {
                    b->matmul(m.w, x.data() + t * n_in, one.data() + t * n_out, 1, Precision::Reference);
                }
                // Float rows: the scalar path sums 4,096 products left to right, the others in lanes.
                const double tolerance = is_float_type(type) ? 1e-5 : 1e-6;
                EXPECT_LT(relative_l2(got, std::vector<double>(ref.begin(), ref.end())), tolerance)
                    << cpu_path_name(path) << " " << type_name(type) << " threads " << threads;
                EXPECT_EQ(got, one) << cpu_path_name(path) << " " << type_name(type) << " threads " << threads;
            }
        }
    }
}

// The 512-bit kernels compute several (row, token) outputs per register and tile, the 256-bit ones
// one at a time; both take the reference's float steps for each output, so they agree bit for bit
// on every count of tokens that the tiles (and their remainders) can meet.
TEST(ReferencePrecision, WideKernelsEqualTheAvx2KernelsBitForBit) {
    if (!cpu_supports(CpuPath::Avx512Vnni) || !cpu_supports(CpuPath::Avx2)) {
        GTEST_SKIP() << "this CPU lacks AVX-512 VNNI";
    }
    for (TensorType type : std::span(kQuantTypes).first(kFirstLowBitType)) {
        const int64_t n_in = 2 * row_length(type), n_out = 11;
        const TestMatrix m = make_matrix(type, n_in, n_out, 29);
        for (int64_t n_tok : {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 15, 16, 17, 50, 53, 64, 100}) {
            const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 30 + static_cast<unsigned>(n_tok));
            std::vector<float> narrow(static_cast<size_t>(n_tok * n_out)), wide(narrow.size());
            backend(CpuPath::Avx2, 1)->matmul(m.w, x.data(), narrow.data(), n_tok, Precision::Reference);
            backend(CpuPath::Avx512Vnni, 2)->matmul(m.w, x.data(), wide.data(), n_tok, Precision::Reference);
            for (size_t i = 0; i < wide.size(); ++i) {
                ASSERT_EQ(std::bit_cast<uint32_t>(wide[i]), std::bit_cast<uint32_t>(narrow[i]))
                    << type_name(type) << " n_tok " << n_tok << " token " << i / n_out << " row " << i % n_out;
            }
        }
    }
}

// A weight block of extreme values (Q8_0 -128, all-15 nibbles, 6-bit maxima, the largest levels)
// cannot overflow the 16-bit pair sums of the AVX2 kernels: every path agrees with the scalar one.
TEST(ReferencePrecision, ExtremeWeightsAgreeOnEveryPath) {
    for (TensorType type : std::span(kQuantTypes).first(kSimdQuantTypes)) {
        const int64_t n_in = row_length(type), n_out = 3;
        TestMatrix m = make_matrix(type, n_in, n_out, 17);
        const uint64_t block_bytes = tensor_type_info(static_cast<uint32_t>(type))->type_size;
        for (uint64_t at = 0; at < m.bytes.size(); at += block_bytes) {
            // Keep the scales (fp16 fields) and fill the quantised values with all-ones bits:
            // Q8_0 values of -1, nibbles of 15, Q6_K values of 63 and scales of -1.
            // The low-bit types: Q2_K values 3 with scales and minimums 15, Q3_K values 3 with 6-bit
            // scales of 63, IQ4_NL / IQ4_XS levels of 113 (IQ4_XS scales of 63), MXFP4 levels -12.
            uint64_t first = type == TensorType::Q6_K ? 0 : (type == TensorType::Q8_0 ? 2 : 4);
            uint64_t last = type == TensorType::Q6_K ? 208 : block_bytes;
            if (type == TensorType::Q2_K) first = 0, last = 80;
            if (type == TensorType::Q3_K) first = 0, last = 108;
            if (type == TensorType::IQ4_NL || type == TensorType::IQ4_XS) first = 2;
            if (type == TensorType::MXFP4) first = 1;
            for (uint64_t i = at + first; i < at + last; ++i) m.bytes[i] = type == TensorType::Q8_0 ? 0x80 : 0xff;
        }
        std::vector<float> x(static_cast<size_t>(2 * n_in));
        for (size_t i = 0; i < x.size(); ++i) x[i] = (i % 2) ? -1.0f : 1.0f; // activations of ±127
        x[0] = -1.0f;
        std::vector<float> ref(static_cast<size_t>(2 * n_out));
        backend(CpuPath::Scalar, 1)->matmul(m.w, x.data(), ref.data(), 2, Precision::Reference);
        for (CpuPath path : optimised_paths()) {
            std::vector<float> got(ref.size());
            backend(path, 1)->matmul(m.w, x.data(), got.data(), 2, Precision::Reference);
            EXPECT_LT(relative_l2(got, std::vector<double>(ref.begin(), ref.end())), 1e-6)
                << cpu_path_name(path) << " " << type_name(type);
        }
    }
}

TEST(ReferencePrecision, BitIdenticalAcrossThreadCountsAndTokenBatches) {
    std::vector<CpuPath> paths = optimised_paths();
    paths.push_back(CpuPath::Scalar);
    std::vector<TensorType> types(std::begin(kQuantTypes), std::end(kQuantTypes));
    types.insert(types.end(), {TensorType::F16, TensorType::BF16, TensorType::F32});
    for (CpuPath path : paths) {
        for (TensorType type : types) {
            const int64_t n_in = is_k_quant(type) ? 512 : 480, n_out = 37, n_tok = 9;
            const TestMatrix m = make_matrix(type, n_in, n_out, 3);
            const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 4);
            std::vector<float> all(static_cast<size_t>(n_tok * n_out));
            backend(path, 1)->matmul(m.w, x.data(), all.data(), n_tok, Precision::Reference);
            for (int threads : {2, 3}) {
                std::vector<float> y(all.size());
                backend(path, threads)->matmul(m.w, x.data(), y.data(), n_tok, Precision::Reference);
                EXPECT_EQ(y, all) << cpu_path_name(path) << " " << type_name(type) << " threads " << threads;
            }
            auto b = backend(path, 2);
            std::vector<float> split(all.size());
            for (int64_t t = 0; t < n_tok; ++t) {
                b->matmul(m.w, x.data() + t * n_in, split.data() + t * n_out, 1, Precision::Reference);
            }
            EXPECT_EQ(split, all) << cpu_path_name(path) << " " << type_name(type) << " one by one";
            b->matmul(m.w, x.data(), split.data(), 5, Precision::Reference);
            b->matmul(m.w, x.data() + 5 * n_in, split.data() + 5 * n_out, 4, Precision::Reference);
            EXPECT_EQ(split, all) << cpu_path_name(path) << " " << type_name(type) << " 5 + 4";
        }
    }
}

// F16 / BF16 weights multiply the activations rounded to their precision (rounding them again
// changes nothing), F32 weights the activations themselves; the orders of the sums are
// ReferenceFloat.FloatProductsFollowTheReferenceOrders'.
TEST(ReferencePrecision, FloatWeightsSeeRoundedActivations) {
    for (TensorType type : {TensorType::F16, TensorType::BF16, TensorType::F32}) {
        const int64_t n_in = 96, n_out = 7, n_tok = 2;
        const TestMatrix m = make_matrix(type, n_in, n_out, 23);
        const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 24);
        std::vector<float> rounded(x.size());
        round_activation_row(activation_format(type), x.data(), rounded.data(), static_cast<int64_t>(x.size()));
        if (type != TensorType::F32) {
            EXPECT_NE(rounded, x) << type_name(type);
        }
        for (CpuPath path : {CpuPath::Scalar, best_cpu_path()}) {
            auto b = backend(path, 2);
            std::vector<float> ref(static_cast<size_t>(n_tok * n_out)), want(ref.size());
            b->matmul(m.w, x.data(), ref.data(), n_tok, Precision::Reference);
            b->matmul(m.w, rounded.data(), want.data(), n_tok, Precision::Reference);
            EXPECT_EQ(ref, want) << cpu_path_name(path) << " " << type_name(type);
        }
    }
}

// --- Q4_0 as the reference multiplies the matrices it repacks ------------------------------------

// Per (row, token), written out here: acc = fma(float(Σ (q - 8)·x of block b), d_w·d_x, acc) from
// block 0 on, one rounding per block (llama.cpp's repacked x86 kernels).
std::vector<float> blockwise_q4_0(const TestMatrix& m, const std::vector<float>& x, int64_t n_tok) {
    const int64_t n_in = m.w.n_in, nb = n_in / 32;
    std::vector<float> y(static_cast<size_t>(n_tok * m.w.n_out));
    std::vector<ActQ8_0> xq(static_cast<size_t>(nb));
    for (int64_t t = 0; t < n_tok; ++t) {
        quantize_activation_row(ActivationFormat::Q8_0, x.data() + t * n_in, xq.data(), n_in);
        for (int64_t r = 0; r < m.w.n_out; ++r) {
            const uint8_t* block = m.bytes.data() + static_cast<uint64_t>(r) * m.w.row_bytes;
            float acc = 0.0f;
            for (int64_t b = 0; b < nb; ++b, block += 18) {
                int sum = 0;
                for (int i = 0; i < 16; ++i) {
                    sum += ((block[2 + i] & 15) - 8) * xq[b].qs[i] + ((block[2 + i] >> 4) - 8) * xq[b].qs[i + 16];
                }
                acc = std::fma(static_cast<float>(sum), half_at(block) * xq[b].d, acc);
            }
            y[t * m.w.n_out + r] = acc;
        }
    }
    return y;
}

TEST(ReferencePrecision, RepackedQ4_0AddsEachBlockInOneFusedStepOnEveryPath) {
    std::vector<CpuPath> paths = optimised_paths();
    paths.insert(paths.begin(), CpuPath::Scalar);
    for (int64_t n_tok : {1, 4, 7, 16, 37, 64}) { // 16 and more: the avx512vnni token groups
        const int64_t n_in = 480, n_out = 19;
        TestMatrix m = make_matrix(TensorType::Q4_0, n_in, n_out, 31);
        const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 32);
        const std::vector<float> want = blockwise_q4_0(m, x, n_tok);
        std::vector<float> lanes(want.size());
        backend(CpuPath::Scalar, 1)->matmul(m.w, x.data(), lanes.data(), n_tok, Precision::Reference);
        EXPECT_NE(lanes, want) << "n_tok " << n_tok << ": the two orders should differ somewhere";
        m.w.reference_blockwise = true;
        for (CpuPath path : paths) {
            for (int threads : {1, 2}) {
                auto b = backend(path, threads);
                std::vector<float> got(want.size(), -7.0f), one(want.size(), -7.0f);
                b->matmul(m.w, x.data(), got.data(), n_tok, Precision::Reference);
                EXPECT_EQ(got, want) << cpu_path_name(path) << " n_tok " << n_tok << " threads " << threads;
                for (int64_t t = 0; t < n_tok; ++t) {
                    b->matmul(m.w, x.data() + t * n_in, one.data() + t * n_out, 1, Precision::Reference);
                }
                EXPECT_EQ(one, want) << cpu_path_name(path) << " one by one, n_tok " << n_tok;
            }
        }
    }
}

// The reference repacks a Q4_0 tensor (its products then add whole blocks) when its rows come
// in eights; a fused tensor's row ranges inherit it; other types never.
TEST(ReferencePrecision, WeightRowsMarkTheQ4_0TensorsTheReferenceRepacks) {
    std::vector<uint8_t> data(18 * 2 * 24);
    GgufTensorInfo t = test::tensor_info("blk.0.attn_qkv.weight", TensorType::Q4_0, 64, 24, data.data());
    EXPECT_TRUE(weight_matrix(t).reference_blockwise);
    EXPECT_TRUE(weight_rows(t, 16, 4).reference_blockwise);
    t.ne[1] = 20;
    EXPECT_FALSE(weight_matrix(t).reference_blockwise);
    t.ne[1] = 24;
    t.type = *tensor_type_info(static_cast<uint32_t>(TensorType::Q8_0));
    EXPECT_FALSE(weight_matrix(t).reference_blockwise);
}


// --- the low-bit types' float steps ----------------------------------------------------------------

// Their SIMD kernels take the scalar kernels' steps: every path equals the scalar path bit for
// bit, for any token count, alone or in a batch (IQ4_NL's batched tokens take the tiled order),
// with odd and even block counts.
TEST(ReferencePrecision, LowBitKernelsEqualTheScalarKernelsBitForBit) {
    for (CpuPath path : optimised_paths()) {
        for (TensorType type : std::span(kQuantTypes).first(kSimdQuantTypes).subspan(kFirstLowBitType)) {
            for (const int64_t n_in : is_k_quant(type) ? std::vector<int64_t>{256, 768} : std::vector<int64_t>{32, 64, 96, 480, 512}) {
                for (int64_t n_tok : {1, 4, 7, 8, 13}) {
                    TestMatrix m = make_matrix(type, n_in, 19, 41);
                    m.w.reference_tiled = true;
                    const auto x = random_vector(static_cast<size_t>(n_tok * n_in), 42);
                    std::vector<uint8_t> batched(static_cast<size_t>(n_tok));
                    for (size_t t = 0; t < batched.size(); ++t) batched[t] = t % 3 != 1; // mixed
                    const ProductPrecision precision(Precision::Reference, batched);
                    std::vector<float> ref(static_cast<size_t>(n_tok * 19)), got(ref.size(), -7.0f);
                    backend(CpuPath::Scalar, 1)->matmul(m.w, x.data(), ref.data(), n_tok, precision);
                    backend(path, 2)->matmul(m.w, x.data(), got.data(), n_tok, precision);
                    EXPECT_EQ(got, ref) << cpu_path_name(path) << " " << type_name(type) << " n_in " << n_in << " n_tok " << n_tok;
                }
            }
        }
    }
}

// The quantised activations of one row, as the kernels receive them.
template <class Act>
std::vector<Act> quantised_row(ActivationFormat format, const float* x, int64_t n_in) {
    std::vector<Act> q(static_cast<size_t>(n_in / (format == ActivationFormat::Q8_K ? 256 : 32)));
    quantize_activation_row(format, x, q.data(), n_in);
    return q;
}

// ((a0 + a4) + (a2 + a6)) + ((a1 + a5) + (a3 + a7)), as the reference's AVX2 code reduces its lanes.
float reduce_lanes(const float (&a)[8]) { return ((a[0] + a[4]) + (a[2] + a[6])) + ((a[1] + a[5]) + (a[3] + a[7])); }

// IQ4_NL, written out as llama.cpp's AVX2 build computes it: lane i of a block is Σ over values
// 4i..4i+3 of level·x. Alone: blocks 0, 2, 4 … multiply-added into one 8-lane accumulator and
// 1, 3, 5 … into another, the two added and reduced, then a lone last block's whole sum added
// by one fused step. In a batch (its tiled product): one accumulator for every block.
TEST(ReferencePrecision, Iq4NlTakesTheReferencesTwoOrders) {
    for (int64_t n_in : {32, 96, 128}) {
        const int64_t n_out = 5;
        TestMatrix m = make_matrix(TensorType::IQ4_NL, n_in, n_out, 51);
        m.w.reference_tiled = true;
        const auto x = random_vector(static_cast<size_t>(2 * n_in), 52);
        const int64_t nb = n_in / 32;
        std::vector<float> alone(static_cast<size_t>(2 * n_out)), tiled(alone.size());
        for (int64_t t = 0; t < 2; ++t) {
            const auto xq = quantised_row<ActQ8_0>(ActivationFormat::Q8_0, x.data() + t * n_in, n_in);
            for (int64_t r = 0; r < n_out; ++r) {
                float acc[2][8] = {}, one[8] = {};
                float last_d = 0.0f;
                int last_sum = 0;
                for (int64_t b = 0; b < nb; ++b) {
                    const uint8_t* block = m.bytes.data() + static_cast<uint64_t>(r) * m.w.row_bytes + 18 * b;
                    int8_t q[32];
                    qblock::iq4_values(block + 2, q);
                    const float d = xq[b].d * half_at(block);
                    int sum = 0;
                    for (int i = 0; i < 8; ++i) {
                        int lane = 0;
                        for (int j = 4 * i; j < 4 * i + 4; ++j) lane += q[j] * xq[b].qs[j];
                        sum += lane;
                        one[i] = std::fma(d, static_cast<float>(lane), one[i]);
                        if (b < nb - nb % 2) acc[b % 2][i] = std::fma(d, static_cast<float>(lane), acc[b % 2][i]);
                    }
                    last_d = d;
                    last_sum = sum;
                }
                float both[8];
                for (int i = 0; i < 8; ++i) both[i] = acc[0][i] + acc[1][i];
                float s = reduce_lanes(both);
                if (nb % 2) s = std::fma(last_d, static_cast<float>(last_sum), s);
                alone[t * n_out + r] = s;
                tiled[t * n_out + r] = reduce_lanes(one);
            }
        }
        if (nb > 1) {
            EXPECT_NE(alone, tiled) << "n_in " << n_in << ": the two orders should differ somewhere";
        }
        std::vector<CpuPath> paths = optimised_paths();
        paths.insert(paths.begin(), CpuPath::Scalar);
        for (CpuPath path : paths) {
            auto b = backend(path, 2);
            std::vector<float> got(alone.size(), -7.0f);
            b->matmul(m.w, x.data(), got.data(), 2, Precision::Reference);
            EXPECT_EQ(got, alone) << cpu_path_name(path) << " n_in " << n_in << " alone";
            const std::vector<uint8_t> batched{1, 1};
            b->matmul(m.w, x.data(), got.data(), 2, ProductPrecision(Precision::Reference, batched));
            EXPECT_EQ(got, tiled) << cpu_path_name(path) << " n_in " << n_in << " batched";
            m.w.reference_tiled = false; // the experts of a mixture: the dot product's order always
            b->matmul(m.w, x.data(), got.data(), 2, ProductPrecision(Precision::Reference, batched));
            EXPECT_EQ(got, alone) << cpu_path_name(path) << " n_in " << n_in << " not tiled";
            m.w.reference_tiled = true;
        }
    }
}

// Q2_K, written out: per super-block first the minimums' lanes (lane i: min of 16-value groups
// 2i and 2i+1 times their activation sums) times -d_x·dmin, then the scaled value lanes times
// d_x·d, each by one fused step into one 8-lane accumulator, reduced at the end.
TEST(ReferencePrecision, Q2_KAddsItsMinimumLanesFirst) {
    const int64_t n_in = 768, n_out = 7;
    const TestMatrix m = make_matrix(TensorType::Q2_K, n_in, n_out, 61);
    const auto x = random_vector(static_cast<size_t>(n_in), 62);
    const auto xq = quantised_row<ActQ8_K>(ActivationFormat::Q8_K, x.data(), n_in);
    std::vector<float> want(static_cast<size_t>(n_out));
    for (int64_t r = 0; r < n_out; ++r) {
        float acc[8] = {};
        for (int64_t b = 0; b < n_in / 256; ++b) {
            const uint8_t* block = m.bytes.data() + static_cast<uint64_t>(r) * m.w.row_bytes + 84 * b;
            int8_t q[256];
            qblock::q2_k_values(block, q);
            const float d = xq[b].d * half_at(block + 80), neg_dmin = -xq[b].d * half_at(block + 82);
            for (int i = 0; i < 8; ++i) {
                const int mins = (block[2 * i] >> 4) * xq[b].bsums[2 * i] + (block[2 * i + 1] >> 4) * xq[b].bsums[2 * i + 1];
                acc[i] = std::fma(neg_dmin, static_cast<float>(mins), acc[i]);
            }
            for (int i = 0; i < 8; ++i) {
                int lane = 0;
                for (int c = 0; c < 8; ++c) {
                    const int scale = block[2 * c + i / 4] & 15; // 16-value group 2c + i/4
                    for (int j = 32 * c + 4 * i; j < 32 * c + 4 * i + 4; ++j) lane += scale * q[j] * xq[b].qs[j];
                }
                acc[i] = std::fma(d, static_cast<float>(lane), acc[i]);
            }
        }
        want[static_cast<size_t>(r)] = reduce_lanes(acc);
    }
    std::vector<CpuPath> paths = optimised_paths();
    paths.insert(paths.begin(), CpuPath::Scalar);
    for (CpuPath path : paths) {
        std::vector<float> got(want.size(), -7.0f);
        backend(path, 1)->matmul(m.w, x.data(), got.data(), 1, Precision::Reference);
        EXPECT_EQ(got, want) << cpu_path_name(path);
    }
}

// The reference's tiled products: F32 / F16 / BF16 plain matrices of 8k-long rows in fours, and
// IQ4_NL plain matrices of any shape; never the experts of a mixture, never other quantised types.
TEST(ReferencePrecision, WeightRowsMarkTheMatricesTheReferenceTiles) {
    std::vector<uint8_t> data(18 * 2 * 6);
    GgufTensorInfo t = test::tensor_info("blk.0.ffn_down.weight", TensorType::IQ4_NL, 64, 6, data.data());
    EXPECT_TRUE(weight_matrix(t).reference_tiled);
    t.ne[1] = 3;
    t.ne[2] = 2; // experts
    EXPECT_FALSE(weight_matrix(t).reference_tiled);
    t.ne[2] = 1;
    t.type = *tensor_type_info(static_cast<uint32_t>(TensorType::F32));
    EXPECT_FALSE(weight_matrix(t).reference_tiled); // 3 rows: not in fours
    t.ne[1] = 4;
    EXPECT_TRUE(weight_matrix(t).reference_tiled);
}

} // namespace
} // namespace octo
