// Dequantisation: hand-built blocks of every supported type with expected values worked out from
// the documented layout, a bit-exact match against the gguf Python package's output on real
// files (../shared/refdata/dequant_samples.json), and quantise -> dequantise error bounds.
// Covers: quantize.cpp
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "engine/gguf/dequantize.h"
#include "engine/gguf/gguf_file.h"
#include "engine/gguf/quantize.h"
#include "tests/support/shared_data.h"
#include "tests/support/tensor_info.h"

namespace octo {
namespace {

// fp16 bit patterns of the scales used below.
constexpr uint16_t kHalf0_25 = 0x3400;
constexpr uint16_t kHalf0_5 = 0x3800;
constexpr uint16_t kHalf1 = 0x3c00;
constexpr uint16_t kHalf2 = 0x4000;
constexpr uint16_t kHalfMinus1 = 0xbc00;

void put16(std::vector<uint8_t>& b, size_t at, uint16_t v) {
    b[at] = static_cast<uint8_t>(v & 0xff);
    b[at + 1] = static_cast<uint8_t>(v >> 8);
}

std::vector<float> dequant(TensorType type, const std::vector<uint8_t>& bytes, int64_t n) {
    std::vector<float> out(static_cast<size_t>(n), -12345.0f);
    dequantize_row(type, bytes.data(), out.data(), n);
    return out;
}

void expect_values(const std::vector<float>& got, const std::vector<float>& want) {
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(got[i], want[i]) << "value " << i;
}

TEST(Dequantize, F32F16Bf16) {
    // 1.5f = 0x3fc00000, -2.0f = 0xc0000000, little-endian.
    expect_values(dequant(TensorType::F32, {0x00, 0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0xc0}, 2),
                  {1.5f, -2.0f});
    // fp16 0x3c00 = 1, 0xc000 = -2, 0x0001 = 2^-24, 0x7bff = 65504.
    expect_values(dequant(TensorType::F16, {0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0xff, 0x7b}, 4),
                  {1.0f, -2.0f, std::ldexp(1.0f, -24), 65504.0f});
    // bf16 0x3f80 = 1, 0xc040 = -3, 0x4049 = 3.140625 (1 + 73/128) * 2.
    expect_values(dequant(TensorType::BF16, {0x80, 0x3f, 0x40, 0xc0, 0x49, 0x40}, 3),
                  {1.0f, -3.0f, 3.140625f});
}

// Nibble pattern used by the 32-value blocks: qs[j] = j | (15 - j) << 4, so value j has
// low nibble j and value j + 16 has high nibble 15 - j.
void fill_nibbles(std::vector<uint8_t>& b, size_t at) {
    for (int j = 0; j < 16; ++j) b[at + j] = static_cast<uint8_t>(j | ((15 - j) << 4));
}
int nibble_code(int i) { return i < 16 ? i : 15 - (i - 16); }

TEST(Dequantize, Q4_0HandBlock) {
    std::vector<uint8_t> b(18);
    put16(b, 0, kHalf0_5);
    fill_nibbles(b, 2);
    std::vector<float> want(32);
    for (int i = 0; i < 32; ++i) want[i] = static_cast<float>(nibble_code(i) - 8) * 0.5f;
    const auto got = dequant(TensorType::Q4_0, b, 32);
    expect_values(got, want);
    EXPECT_EQ(got[0], -4.0f);  // code 0
    EXPECT_EQ(got[15], 3.5f);  // code 15
    EXPECT_EQ(got[16], 3.5f);  // high nibble of qs[0] = 15
    EXPECT_EQ(got[31], -4.0f); // high nibble of qs[15] = 0
}

TEST(Dequantize, Q4_1HandBlock) {
    std::vector<uint8_t> b(20);
    put16(b, 0, kHalf0_25);
    put16(b, 2, kHalfMinus1);
    fill_nibbles(b, 4);
    std::vector<float> want(32);
    for (int i = 0; i < 32; ++i) want[i] = static_cast<float>(nibble_code(i)) * 0.25f - 1.0f;
    const auto got = dequant(TensorType::Q4_1, b, 32);
    expect_values(got, want);
    EXPECT_EQ(got[15], 2.75f);
    EXPECT_EQ(got[31], -1.0f);
}

// qh bytes {0x01, 0x80, 0x0f, 0xf0} = u32 0xf00f8001: fifth bit set for values 0, 15, 16..19, 28..31.
bool q5_high(int i) { return i == 0 || i == 15 || (i >= 16 && i <= 19) || i >= 28; }

TEST(Dequantize, Q5_0HandBlock) {
    std::vector<uint8_t> b(22);
    put16(b, 0, kHalf2);
    b[2] = 0x01;
    b[3] = 0x80;
    b[4] = 0x0f;
    b[5] = 0xf0;
    fill_nibbles(b, 6);
    std::vector<float> want(32);
    for (int i = 0; i < 32; ++i) {
        want[i] = static_cast<float>(nibble_code(i) + (q5_high(i) ? 16 : 0) - 16) * 2.0f;
    }
    const auto got = dequant(TensorType::Q5_0, b, 32);
    expect_values(got, want);
    EXPECT_EQ(got[0], 0.0f);    // 0 | 16
    EXPECT_EQ(got[1], -30.0f);  // 1
    EXPECT_EQ(got[15], 30.0f);  // 15 | 16
    EXPECT_EQ(got[16], 30.0f);  // 15 | 16
    EXPECT_EQ(got[20], -10.0f); // 11
    EXPECT_EQ(got[31], 0.0f);   // 0 | 16
}

TEST(Dequantize, Q5_1HandBlock) {
    std::vector<uint8_t> b(24);
    put16(b, 0, kHalf0_5);
    put16(b, 2, kHalf1);
    b[4] = 0x01;
    b[5] = 0x80;
    b[6] = 0x0f;
    b[7] = 0xf0;
    fill_nibbles(b, 8);
    std::vector<float> want(32);
    for (int i = 0; i < 32; ++i) {
        want[i] = static_cast<float>(nibble_code(i) + (q5_high(i) ? 16 : 0)) * 0.5f + 1.0f;
    }
    const auto got = dequant(TensorType::Q5_1, b, 32);
    expect_values(got, want);
    EXPECT_EQ(got[15], 16.5f); // 31 * 0.5 + 1
    EXPECT_EQ(got[1], 1.5f);
}

TEST(Dequantize, Q8_0HandBlock) {
    std::vector<uint8_t> b(34);
    put16(b, 0, kHalf0_25);
    std::vector<float> want(32);
    for (int i = 0; i < 32; ++i) {
        const int q = i * 8 - 128; // -128 .. 120
        b[2 + i] = static_cast<uint8_t>(q & 0xff);
        want[i] = static_cast<float>(q) * 0.25f;
    }
    const auto got = dequant(TensorType::Q8_0, b, 32);
    expect_values(got, want);
    EXPECT_EQ(got[0], -32.0f);
    EXPECT_EQ(got[31], 30.0f);
}

// Scales and mins of the K-quant hand blocks, and their 12 packed bytes worked out by hand:
//   sc[4..7] = 33, 47, 63, 17 -> high two bits 2, 2, 3, 1; low nibbles 1, 15, 15, 1
//   m[4..7]  = 16, 31, 48, 2  -> high two bits 1, 1, 3, 0; low nibbles 0, 15, 0, 2
//   bytes 0..3  = sc[0..3] | hi(sc[4..7]) << 6 = 0x81, 0x82, 0xc3, 0x44
//   bytes 4..7  = m[0..3]  | hi(m[4..7])  << 6 = 0x40, 0x45, 0xca, 0x3f
//   bytes 8..11 = lo(sc[4..7]) | lo(m[4..7]) << 4 = 0x01, 0xff, 0x0f, 0x21
constexpr int kSc[8] = {1, 2, 3, 4, 33, 47, 63, 17};
constexpr int kMin[8] = {0, 5, 10, 63, 16, 31, 48, 2};
constexpr uint8_t kPackedScales[12] = {0x81, 0x82, 0xc3, 0x44, 0x40, 0x45,
                                       0xca, 0x3f, 0x01, 0xff, 0x0f, 0x21};

// d = 1, dmin = 0.5; qs[k] = 7k mod 256; for Q5_K qh[l] = (37l + 11) mod 256.
std::vector<uint8_t> k_block(bool q5) {
    std::vector<uint8_t> b(q5 ? 176 : 144);
    put16(b, 0, kHalf1);
    put16(b, 2, kHalf0_5);
    for (int k = 0; k < 12; ++k) b[4 + k] = kPackedScales[k];
    const size_t qs_at = q5 ? 48 : 16;
    for (int k = 0; k < 128; ++k) b[qs_at + k] = static_cast<uint8_t>(7 * k);
    if (q5) {
        for (int l = 0; l < 32; ++l) b[16 + l] = static_cast<uint8_t>(37 * l + 11);
    }
    return b;
}

// Value 32s + l: nibble of qs[32 * (s / 2) + l], low for even s, high for odd s.
int k_nibble(int s, int l) {
    const int byte = (7 * (32 * (s / 2) + l)) & 0xff;
    return s % 2 == 0 ? byte & 15 : byte >> 4;
}

TEST(Dequantize, Q4_KHandBlock) {
    std::vector<float> want(256);
    for (int s = 0; s < 8; ++s) {
        for (int l = 0; l < 32; ++l) {
            const float scale = 1.0f * static_cast<float>(kSc[s]);
            const float min = 0.5f * static_cast<float>(kMin[s]);
            want[32 * s + l] = scale * static_cast<float>(k_nibble(s, l)) - min;
        }
    }
    const auto got = dequant(TensorType::Q4_K, k_block(false), 256);
    expect_values(got, want);
    EXPECT_EQ(got[0], 0.0f);          // s 0: code 0, sc 1, m 0
    EXPECT_EQ(got[33], 0.0f * 2.0f - 2.5f); // s 1, l 1: high nibble of 7 = 0
    EXPECT_EQ(got[32 * 6 + 3], 63.0f * 5.0f - 24.0f); // s 6, l 3: low nibble of qs[99] = 693 & 0xff = 0xb5 -> 5
}

TEST(Dequantize, Q5_KHandBlock) {
    std::vector<float> want(256);
    for (int s = 0; s < 8; ++s) {
        for (int l = 0; l < 32; ++l) {
            const int qh = (37 * l + 11) & 0xff;
            const int q = k_nibble(s, l) + (((qh >> s) & 1) != 0 ? 16 : 0);
            const float scale = 1.0f * static_cast<float>(kSc[s]);
            const float min = 0.5f * static_cast<float>(kMin[s]);
            want[32 * s + l] = scale * static_cast<float>(q) - min;
        }
    }
    const auto got = dequant(TensorType::Q5_K, k_block(true), 256);
    expect_values(got, want);
    // s 0, l 0: qh[0] = 11 = 0b1011 -> bit 0 set; code 0 | 16 = 16; 1 * 16 - 0.
    EXPECT_EQ(got[0], 16.0f);
    // s 2, l 0: bit 2 of 11 is 0; low nibble of qs[32] = 224 = 0xe0 -> 0; 3 * 0 - 0.5 * 10.
    EXPECT_EQ(got[64], -5.0f);
}

TEST(Dequantize, Q6_KHandBlock) {
    // ql[k] = 13k + 5, qh[k] = 29k + 3 (mod 256), scales[s] = +-(s + 1) with scales[15] = -128,
    // d = 0.5 at byte 208.
    std::vector<uint8_t> b(210);
    for (int k = 0; k < 128; ++k) b[k] = static_cast<uint8_t>(13 * k + 5);
    for (int k = 0; k < 64; ++k) b[128 + k] = static_cast<uint8_t>(29 * k + 3);
    int scales[16];
    for (int s = 0; s < 16; ++s) scales[s] = (s % 2 == 0 ? 1 : -1) * (s + 1);
    scales[15] = -128;
    for (int s = 0; s < 16; ++s) b[192 + s] = static_cast<uint8_t>(scales[s] & 0xff);
    put16(b, 208, kHalf0_5);

    // Value i: half h = i / 128, quarter k = (i % 128) / 32, l = i % 32. Low 4 bits from
    // ql[64h + l + 32 (k odd)], low nibble for k < 2, high for k >= 2; high 2 bits are bits
    // 2k, 2k+1 of qh[32h + l]; scale scales[i / 16].
    std::vector<float> want(256);
    for (int i = 0; i < 256; ++i) {
        const int h = i / 128, k = (i % 128) / 32, l = i % 32;
        const int ql = b[64 * h + l + (k % 2) * 32];
        const int low = k < 2 ? ql & 15 : ql >> 4;
        const int high = (b[128 + 32 * h + l] >> (2 * k)) & 3;
        const float scale = 0.5f * static_cast<float>(scales[i / 16]);
        want[i] = scale * static_cast<float>((low | (high << 4)) - 32);
    }
    const auto got = dequant(TensorType::Q6_K, b, 256);
    expect_values(got, want);
    // Value 0: ql[0] = 5, qh[0] = 3 -> code 5 | 3 << 4 = 53 -> 21; scale 0.5 * 1.
    EXPECT_EQ(got[0], 10.5f);
    // Value 255: h 1, k 3, l 31: ql[127] = 1656 & 0xff = 0x78 -> high nibble 7;
    // qh[63] = 1830 & 0xff = 0x26 -> bits 6-7 = 0; code 7 - 32 = -25; scale 0.5 * -128.
    EXPECT_EQ(got[255], 1600.0f);
}

TEST(Dequantize, TensorRowsChecksRangeAndType) {
    std::vector<uint8_t> data(2 * 4 * 4); // F32 [2][4]
    GgufTensorInfo t = test::tensor_info("t", TensorType::F32, 4, 2, data.data());
    EXPECT_TRUE(dequantize_rows(t, 0, 2).ok());
    EXPECT_TRUE(dequantize_rows(t, 2, 0).ok());
    EXPECT_EQ(dequantize_rows(t, 1, 2).error().code, ErrorCode::InvalidArgument);
    EXPECT_EQ(dequantize_rows(t, -1, 1).error().code, ErrorCode::InvalidArgument);
    t.type = *tensor_type_info(static_cast<uint32_t>(TensorType::Q8_K)); // ggml's internal activation type
    EXPECT_EQ(dequantize_rows(t, 0, 1).error().code, ErrorCode::Unsupported);
}

// The gguf Python package's dequantisation of the first two rows of real tensors.
TEST(Dequantize, MatchesReferenceSamples) {
    const auto dir = test::refdata_dir();
    if (!dir) GTEST_SKIP() << "../shared/refdata is absent: reference dequantisation not checked";
    std::ifstream in(*dir / "dequant_samples.json");
    ASSERT_TRUE(in) << "dequant_samples.json missing from " << dir->string();
    const auto doc = nlohmann::json::parse(in);
    ASSERT_FALSE(doc.at("samples").empty());
    for (const auto& sample : doc.at("samples")) {
        const std::string file = sample.at("file");
        const std::string tensor = sample.at("tensor");
        SCOPED_TRACE(file + " " + tensor);
        auto gguf = GgufFile::open((*dir / file).string());
        ASSERT_TRUE(gguf.ok()) << gguf.error().message;
        const GgufTensorInfo* t = gguf->find_tensor(tensor);
        ASSERT_NE(t, nullptr);
        EXPECT_EQ(t->type.name, sample.at("type").get<std::string>());
        const auto ne = sample.at("shape_ne").get<std::vector<int64_t>>();
        for (size_t d = 0; d < ne.size(); ++d) EXPECT_EQ(t->ne[d], ne[d]);
        const auto& rows = sample.at("rows");
        auto got = dequantize_rows(*t, 0, static_cast<int64_t>(rows.size()));
        ASSERT_TRUE(got.ok()) << got.error().message;
        size_t k = 0;
        int mismatches = 0;
        for (const auto& row : rows) {
            ASSERT_EQ(static_cast<int64_t>(row.size()), t->ne[0]);
            for (const auto& v : row) {
                const auto want = static_cast<float>(v.get<double>()); // float32 printed as double
                if (got.value()[k] != want && ++mismatches <= 5) {
                    ADD_FAILURE() << "value " << k << ": got " << got.value()[k] << ", want " << want;
                }
                ++k;
            }
        }
        EXPECT_EQ(k, got->size());
        EXPECT_EQ(mismatches, 0);
    }
}

// Deterministic standard-normal samples (Box-Muller over mt19937, identical on every platform).
std::vector<float> gaussian(size_t n, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<float> out(n);
    for (size_t i = 0; i < n; i += 2) {
        const double u1 = (static_cast<double>(rng()) + 1.0) / 4294967297.0;
        const double u2 = static_cast<double>(rng()) / 4294967296.0;
        const double r = std::sqrt(-2.0 * std::log(u1));
        out[i] = static_cast<float>(r * std::cos(6.283185307179586 * u2));
        if (i + 1 < n) out[i + 1] = static_cast<float>(r * std::sin(6.283185307179586 * u2));
    }
    return out;
}

// sqrt(sum (y - x)^2 / sum x^2)
double normalised_rms_error(const std::vector<float>& x, const std::vector<float>& y) {
    double err = 0.0, ref = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
        err += (static_cast<double>(y[i]) - x[i]) * (static_cast<double>(y[i]) - x[i]);
        ref += static_cast<double>(x[i]) * x[i];
    }
    return std::sqrt(err / ref);
}

std::vector<float> round_trip(TensorType type, const std::vector<float>& x) {
    const auto info = tensor_type_info(static_cast<uint32_t>(type));
    std::vector<uint8_t> bytes(*tensor_row_bytes(*info, x.size()));
    quantize_row(type, x.data(), bytes.data(), static_cast<int64_t>(x.size()));
    std::vector<float> y(x.size());
    dequantize_row(type, bytes.data(), y.data(), static_cast<int64_t>(x.size()));
    return y;
}

struct ErrorBound {
    TensorType type;
    double max_nrmse; // bound on the normalised RMS error for N(0, 1) data
};

// Expected error ~ step / sqrt(12) / rms: e.g. Q8_0 step = absmax(32) / 127 ~ 2.1 / 127 -> 0.005;
// Q4_0 step = absmax / 8 -> 0.08; the K-quants lose a little more to their 6/8-bit scales.
constexpr ErrorBound kBounds[] = {
    {TensorType::F32, 0.0},     {TensorType::F16, 3e-4},  {TensorType::BF16, 2.5e-3},
    {TensorType::Q8_0, 0.008},  {TensorType::Q6_K, 0.03}, {TensorType::Q5_0, 0.055},
    {TensorType::Q5_1, 0.055},  {TensorType::Q5_K, 0.05}, {TensorType::Q4_0, 0.11},
    {TensorType::Q4_1, 0.11},   {TensorType::Q4_K, 0.10},
};

TEST(Dequantize, QuantiseRoundTripErrorIsBounded) {
    const auto x = gaussian(4096, 1234);
    for (const auto& bound : kBounds) {
        const double e = normalised_rms_error(x, round_trip(bound.type, x));
        EXPECT_LE(e, bound.max_nrmse) << tensor_type_info(static_cast<uint32_t>(bound.type))->name;
    }
}

// Constant, all-zero and mixed-magnitude blocks must not produce NaN or blow up.
TEST(Dequantize, QuantiseDegenerateBlocks) {
    std::vector<std::vector<float>> inputs = {std::vector<float>(256, 0.0f),
                                              std::vector<float>(256, 3.0f),
                                              std::vector<float>(256, -0.75f)};
    auto mixed = gaussian(256, 99);
    for (size_t i = 0; i < 32; ++i) mixed[i] *= 1e-3f; // one nearly silent sub-block
    inputs.push_back(mixed);
    for (const auto& bound : kBounds) {
        for (const auto& x : inputs) {
            const auto y = round_trip(bound.type, x);
            double ref = 0.0, err = 0.0;
            for (size_t i = 0; i < x.size(); ++i) {
                ASSERT_TRUE(std::isfinite(y[i]));
                ref = std::max(ref, std::fabs(static_cast<double>(x[i])));
                err = std::max(err, std::fabs(static_cast<double>(y[i]) - x[i]));
            }
            // Worst case per value: one quantisation step of the block's range.
            EXPECT_LE(err, 0.15 * ref + 1e-6)
                << tensor_type_info(static_cast<uint32_t>(bound.type))->name;
        }
    }
}

} // namespace
} // namespace octo
