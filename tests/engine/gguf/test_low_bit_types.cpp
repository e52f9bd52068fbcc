// The low-bit weight types (Q2_K, Q3_K, TQ1_0, TQ2_0, IQ4_NL, IQ4_XS, MXFP4, IQ2_*, IQ3_*, IQ1_*):
// the grids against entries of the format's published tables, hand-built blocks decoded to the
// values their documented layouts give (quant_blocks.h), and quantise -> dequantise bounds.
// Their integer products are checked with the other types' (test_reference_precision.cpp,
// test_cpu_matmul.cpp) and, through llama.cpp's logits, in test_forward_reference.cpp.
// Covers: block_values.cpp, iq_grids.cpp, dequantize_low_bit.cpp, quantize_low_bit.cpp
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/gguf/block_values.h"
#include "engine/gguf/dequantize.h"
#include "engine/gguf/iq_grids.h"
#include "engine/gguf/quantize.h"
#include "engine/gguf/tensor_type.h"
#include "tests/support/error_norms.h"

namespace octo {
namespace {

constexpr uint16_t kHalf0_5 = 0x3800;
constexpr uint16_t kHalf1 = 0x3c00;
constexpr uint16_t kHalf2 = 0x4000;

// ggml's IQ4_NL levels (ggml-common.h kvalues_iq4nl), written out here independently.
constexpr int kIq4[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

void put16(std::vector<uint8_t>& b, size_t at, uint16_t v) {
    b[at] = static_cast<uint8_t>(v & 0xff);
    b[at + 1] = static_cast<uint8_t>(v >> 8);
}

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
    for (int k = 0; k < 4; ++k) b[at + k] = static_cast<uint8_t>(v >> (8 * k));
}

std::vector<float> dequant(TensorType type, const std::vector<uint8_t>& bytes, int64_t n) {
    EXPECT_EQ(bytes.size(), *tensor_row_bytes(*tensor_type_info(static_cast<uint32_t>(type)), n));
    std::vector<float> out(static_cast<size_t>(n), -12345.0f);
    dequantize_row(type, bytes.data(), out.data(), n);
    return out;
}

void expect_values(const std::vector<float>& got, const std::vector<float>& want) {
    ASSERT_EQ(got.size(), want.size());
    int wrong = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        if (got[i] != want[i] && ++wrong <= 8) ADD_FAILURE() << "value " << i << ": " << got[i] << ", want " << want[i];
    }
}

uint64_t point_bits(const uint8_t* p, int n) {
    uint64_t v = 0;
    for (int k = n - 1; k >= 0; --k) v = (v << 8) | p[k];
    return v;
}

// Entries of ggml-common.h's tables (first, last and one inside each), as printed there.
TEST(IqGrids, PointsEqualTheFormatsPublishedTables) {
    const iq::Grids& g = iq::grids();
    EXPECT_EQ(point_bits(g.iq2xxs[0], 8), 0x0808080808080808u);
    EXPECT_EQ(point_bits(g.iq2xxs[1], 8), 0x080808080808082bu);
    EXPECT_EQ(point_bits(g.iq2xxs[2], 8), 0x0808080808081919u);
    EXPECT_EQ(point_bits(g.iq2xxs[255], 8), 0x2b2b2b1908081908u);
    EXPECT_EQ(point_bits(g.iq2xs[300], 8), 0x1908190808191908u);
    EXPECT_EQ(point_bits(g.iq2xs[511], 8), 0x2b2b2b2b2b2b2b2bu);
    EXPECT_EQ(point_bits(g.iq2s[600], 8), 0x1908192b08190819u);
    EXPECT_EQ(point_bits(g.iq2s[1023], 8), 0x2b2b2b2b2b2b2b2bu);
    EXPECT_EQ(point_bits(g.iq3xxs[0], 4), 0x04040404u);
    EXPECT_EQ(point_bits(g.iq3xxs[100], 4), 0x14040c1cu);
    EXPECT_EQ(point_bits(g.iq3xxs[255], 4), 0x3e341c04u);
    EXPECT_EQ(point_bits(g.iq3s[257], 4), 0x05090705u);
    EXPECT_EQ(point_bits(g.iq3s[511], 4), 0x0f0f0101u);
    EXPECT_EQ(point_bits(reinterpret_cast<const uint8_t*>(g.iq1s[0]), 8), 0xffffffffffffffffu);
    EXPECT_EQ(point_bits(reinterpret_cast<const uint8_t*>(g.iq1s[259]), 8), 0xff00ff010100ff00u);
    EXPECT_EQ(point_bits(reinterpret_cast<const uint8_t*>(g.iq1s[1000]), 8), 0x00000000ffff00ffu);
    EXPECT_EQ(point_bits(reinterpret_cast<const uint8_t*>(g.iq1s[2047]), 8), 0x0101010101010101u);
}

// ggml's ksigns_iq2xs: entries 0, 1, 3, 5 and 127 are 0, 129, 3, 5 and 255.
TEST(IqGrids, SignIndexAddsTheParityBit) {
    EXPECT_EQ(iq::iq2_signs(0), 0);
    EXPECT_EQ(iq::iq2_signs(1), 129);
    EXPECT_EQ(iq::iq2_signs(3), 3);
    EXPECT_EQ(iq::iq2_signs(5), 5);
    EXPECT_EQ(iq::iq2_signs(7), 135);
    EXPECT_EQ(iq::iq2_signs(127), 255);
}

TEST(LowBitDequantize, Iq4NlHandBlock) {
    std::vector<uint8_t> b(18);
    put16(b, 0, kHalf0_5);
    for (int j = 0; j < 16; ++j) b[2 + j] = static_cast<uint8_t>(j | ((15 - j) << 4));
    std::vector<float> want(32);
    for (int j = 0; j < 16; ++j) {
        want[j] = 0.5f * static_cast<float>(kIq4[j]);
        want[j + 16] = 0.5f * static_cast<float>(kIq4[15 - j]);
    }
    expect_values(dequant(TensorType::IQ4_NL, b, 32), want);
}

// Sub-block 0: scale code 33 (scale 1), sub-block 1: code 30 (scale -2), the rest code 32 (0);
// every byte 0x98 (low nibble 8: level 1, high nibble 9: level 13).
TEST(LowBitDequantize, Iq4XsHandBlock) {
    std::vector<uint8_t> b(136, 0x98);
    put16(b, 0, kHalf1);
    uint16_t high = 0;
    const int codes[8] = {33, 30, 32, 32, 32, 32, 32, 32};
    for (int s = 0; s < 8; ++s) high = static_cast<uint16_t>(high | ((codes[s] >> 4) << (2 * s)));
    put16(b, 2, high);
    for (int k = 0; k < 4; ++k) b[4 + k] = static_cast<uint8_t>((codes[2 * k] & 15) | ((codes[2 * k + 1] & 15) << 4));
    std::vector<float> want(256, 0.0f);
    for (int j = 0; j < 16; ++j) {
        want[j] = 1.0f;
        want[16 + j] = 13.0f;
        want[32 + j] = -2.0f;
        want[48 + j] = -26.0f;
    }
    expect_values(dequant(TensorType::IQ4_XS, b, 256), want);
}

// E2M1 from its definition: sign, 2 exponent bits (bias 1), 1 mantissa bit; subnormal at 0.
float e2m1(int code) {
    const int e = (code >> 1) & 3;
    const int m = code & 1;
    const float v = e == 0 ? 0.5f * static_cast<float>(m) : std::ldexp(1.0f + 0.5f * static_cast<float>(m), e - 1);
    return (code & 8) ? -v : v;
}

// E8M0 exponent 130: scale 2^(130 - 127) = 8.
TEST(LowBitDequantize, Mxfp4HandBlock) {
    std::vector<uint8_t> b(17);
    b[0] = 130;
    for (int j = 0; j < 16; ++j) b[1 + j] = static_cast<uint8_t>(j | ((15 - j) << 4));
    std::vector<float> want(32);
    for (int j = 0; j < 16; ++j) {
        want[j] = 8.0f * e2m1(j);
        want[j + 16] = 8.0f * e2m1(15 - j);
    }
    expect_values(dequant(TensorType::MXFP4, b, 32), want);
}

// The scale from its bits equals 2^(e - 128) for every exponent byte, the two subnormal ones
// (e = 0, 1) and the largest (e = 255: 2^127) included.
TEST(LowBitDequantize, Mxfp4ScaleOfEveryExponent) {
    for (int e = 0; e < 256; ++e) EXPECT_EQ(qblock::e8m0_half(static_cast<uint8_t>(e)), std::ldexp(1.0f, e - 128)) << e;
}

// Every byte 0b10'01'00'10: value 128c + 32l + m takes 2-bit code 2, 0, 1, 2 for l = 0..3.
TEST(LowBitDequantize, Tq2_0HandBlock) {
    std::vector<uint8_t> b(66, 0x92);
    put16(b, 64, kHalf2);
    std::vector<float> want(256);
    const float by_l[4] = {2.0f, -2.0f, 0.0f, 2.0f};
    for (int i = 0; i < 256; ++i) want[i] = by_l[(i % 128) / 32];
    expect_values(dequant(TensorType::TQ2_0, b, 256), want);
}

// qs bytes 184 = 0.20110 in base 3 (digits 2, 0, 1, 1, 0 scaled to 256/243), qh bytes 146 = the
// digits 1, 2, 0, 1: values digit - 1.
TEST(LowBitDequantize, Tq1_0HandBlock) {
    std::vector<uint8_t> b(54, 184);
    for (int m = 0; m < 4; ++m) b[48 + m] = 146;
    put16(b, 52, kHalf1);
    std::vector<float> want(256);
    const float qs_digit[5] = {1.0f, -1.0f, 0.0f, 0.0f, -1.0f};
    const float qh_digit[4] = {0.0f, 1.0f, -1.0f, 0.0f};
    for (int n = 0; n < 5; ++n) {
        for (int m = 0; m < 32; ++m) want[32 * n + m] = qs_digit[n];
        for (int m = 0; m < 16; ++m) want[160 + 16 * n + m] = qs_digit[n];
    }
    for (int n = 0; n < 4; ++n) {
        for (int m = 0; m < 4; ++m) want[240 + 4 * n + m] = qh_digit[n];
    }
    expect_values(dequant(TensorType::TQ1_0, b, 256), want);
}

// Sub-block s has scale s and min 1 (dmin 0.5); every qs byte 0b11'10'01'00 gives q = j.
TEST(LowBitDequantize, Q2_KHandBlock) {
    std::vector<uint8_t> b(84, 0xe4);
    for (int s = 0; s < 16; ++s) b[s] = static_cast<uint8_t>(s | (1 << 4));
    put16(b, 80, kHalf1);
    put16(b, 82, kHalf0_5);
    std::vector<float> want(256);
    for (int i = 0; i < 256; ++i) {
        const int h = i / 128, j = (i % 128) / 32, l = i % 32;
        const int s = 8 * h + 2 * j + l / 16;
        want[i] = static_cast<float>(s) * static_cast<float>(j) - 0.5f;
    }
    expect_values(dequant(TensorType::Q2_K, b, 256), want);
}

// Sub-block s has 6-bit code s + 20 (scale s - 12); qs bytes 0b11'10'01'00 give low bits j; the
// high-mask bit is set for even l (q = j) and clear for odd l (q = j - 4).
TEST(LowBitDequantize, Q3_KHandBlock) {
    std::vector<uint8_t> b(110, 0);
    for (int l = 0; l < 32; l += 2) b[l] = 0xff;
    for (int k = 0; k < 64; ++k) b[32 + k] = 0xe4;
    for (int s = 0; s < 16; ++s) {
        const int code = s + 20;
        if (s < 8) {
            b[96 + s] = static_cast<uint8_t>(b[96 + s] | (code & 15));
        } else {
            b[96 + s - 8] = static_cast<uint8_t>(b[96 + s - 8] | ((code & 15) << 4));
        }
        b[104 + s % 4] = static_cast<uint8_t>(b[104 + s % 4] | ((code >> 4) << (2 * (s / 4))));
    }
    put16(b, 108, kHalf1);
    std::vector<float> want(256);
    for (int i = 0; i < 256; ++i) {
        const int h = i / 128, j = (i % 128) / 32, l = i % 32;
        const int s = 8 * h + 2 * j + l / 16;
        want[i] = static_cast<float>(s - 12) * static_cast<float>(l % 2 == 0 ? j : j - 4);
    }
    expect_values(dequant(TensorType::Q3_K, b, 256), want);
}

// Sub-block 0 picks grid points 0, 1, 255, 2 (their bytes from ggml's table) with sign indices 1
// (values 0 and 7 negative), 0, 127 (all negative) and 3 (values 0 and 1), scale 3: db = 3.5/4.
// The other sub-blocks are zeros: point 0 (all 8), no signs, scale 0 (db = 1/8).
TEST(LowBitDequantize, Iq2XxsHandBlock) {
    std::vector<uint8_t> b(66, 0);
    put16(b, 0, kHalf1);
    b[2] = 0;
    b[3] = 1;
    b[4] = 255;
    b[5] = 2;
    put32(b, 6, 1u | (0u << 7) | (127u << 14) | (3u << 21) | (3u << 28));
    const uint8_t points[4][8] = {{8, 8, 8, 8, 8, 8, 8, 8},
                                  {43, 8, 8, 8, 8, 8, 8, 8},
                                  {8, 25, 8, 8, 25, 43, 43, 43},
                                  {25, 25, 8, 8, 8, 8, 8, 8}};
    const uint8_t negative[4] = {0x81, 0x00, 0xff, 0x03};
    std::vector<float> want(256, 1.0f);
    for (int l = 0; l < 4; ++l) {
        for (int j = 0; j < 8; ++j) {
            const float v = 0.875f * static_cast<float>(points[l][j]);
            want[8 * l + j] = ((negative[l] >> j) & 1) ? -v : v;
        }
    }
    expect_values(dequant(TensorType::IQ2_XXS, b, 256), want);
}

// Sub-block 0: points 0, 1, 2 and 259 (256 + 3: the high bits of group 3 are 1), scale 2
// (dl = 5), delta negative (-0.125). The other sub-blocks: point 0 (all -1), scale 0, delta +.
TEST(LowBitDequantize, Iq1SHandBlock) {
    std::vector<uint8_t> b(50, 0);
    put16(b, 0, kHalf1);
    for (int l = 0; l < 4; ++l) b[2 + l] = static_cast<uint8_t>(l);
    put16(b, 34, static_cast<uint16_t>((1u << 9) | (2u << 12) | 0x8000u));
    const int8_t points[4][8] = {{-1, -1, -1, -1, -1, -1, -1, -1},
                                 {1, -1, -1, -1, -1, -1, -1, -1},
                                 {0, 0, -1, -1, -1, -1, -1, -1},
                                 {0, -1, 0, 1, 1, -1, 0, -1}};
    std::vector<float> want(256, 1.0f * (-1.0f + 0.125f));
    for (int l = 0; l < 4; ++l) {
        for (int j = 0; j < 8; ++j) want[8 * l + j] = 5.0f * (static_cast<float>(points[l][j]) - 0.125f);
    }
    expect_values(dequant(TensorType::IQ1_S, b, 256), want);
}

const TensorType kLowBitTypes[] = {TensorType::Q2_K,    TensorType::Q3_K,   TensorType::TQ1_0,  TensorType::TQ2_0,
                                   TensorType::IQ4_NL,  TensorType::IQ4_XS, TensorType::MXFP4,  TensorType::IQ2_XXS,
                                   TensorType::IQ2_XS,  TensorType::IQ2_S,  TensorType::IQ3_XXS, TensorType::IQ3_S,
                                   TensorType::IQ1_S,   TensorType::IQ1_M};

// Gaussian rows through each quantiser and back: the relative L2 error of a plain
// round-to-nearest choice at that many bits (measured: Q2_K 0.33, Q3_K 0.16, TQ1_0 / TQ2_0 0.45,
// IQ4_NL / IQ4_XS 0.08, MXFP4 0.12, IQ2_XXS 0.37, IQ2_XS 0.31, IQ2_S 0.27, IQ3_XXS 0.19, IQ3_S 0.14, IQ1_S 0.60,
// IQ1_M 0.51; bounds with margin); a wrong layout gives errors near or above 1.
TEST(LowBitQuantize, RoundTripErrorIsBounded) {
    struct Bound {
        TensorType type;
        double max_error;
    };
    const Bound bounds[] = {{TensorType::Q2_K, 0.45},   {TensorType::Q3_K, 0.25},    {TensorType::TQ1_0, 0.6},
                            {TensorType::TQ2_0, 0.6},  {TensorType::IQ4_NL, 0.12},  {TensorType::IQ4_XS, 0.12},
                            {TensorType::MXFP4, 0.2},   {TensorType::IQ2_XXS, 0.6},  {TensorType::IQ2_XS, 0.55},
                            {TensorType::IQ2_S, 0.5},   {TensorType::IQ3_XXS, 0.35}, {TensorType::IQ3_S, 0.3},
                            {TensorType::IQ1_S, 0.7},   {TensorType::IQ1_M, 0.65}};
    std::mt19937 rng(42);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    std::vector<float> x(1024);
    for (float& v : x) v = dist(rng);
    for (const Bound& bound : bounds) {
        const auto info = tensor_type_info(static_cast<uint32_t>(bound.type));
        std::vector<uint8_t> bytes(*tensor_row_bytes(*info, x.size()));
        quantize_row(bound.type, x.data(), bytes.data(), static_cast<int64_t>(x.size()));
        std::vector<float> y(x.size());
        dequantize_row(bound.type, bytes.data(), y.data(), static_cast<int64_t>(y.size()));
        const double err = test::relative_l2(y, std::vector<double>(x.begin(), x.end()));
        std::cout << "[ round trip ] " << info->name << ": relative L2 " << err << "\n";
        EXPECT_LT(err, bound.max_error) << info->name;
    }
}

// All-zero rows stay zero, and every type is listed as supported with its block layout.
TEST(LowBitQuantize, ZeroRowsAndSupportedLayouts) {
    for (TensorType type : kLowBitTypes) {
        const auto info = tensor_type_info(static_cast<uint32_t>(type));
        ASSERT_TRUE(info && info->supported);
        std::vector<float> x(256, 0.0f);
        std::vector<uint8_t> bytes(*tensor_row_bytes(*info, 256));
        quantize_row(type, x.data(), bytes.data(), 256);
        std::vector<float> y(256, 1.0f);
        dequantize_row(type, bytes.data(), y.data(), 256);
        for (float v : y) ASSERT_LE(std::fabs(v), 0.0f) << info->name;
    }
}

} // namespace
} // namespace octo
