// fp16/bf16 <-> fp32 conversions: hand-computed values, rounding ties, subnormals, inf and NaN,
// and exhaustive checks over all 65536 half values.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "engine/core/half.h"

namespace octo {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

bool fp16_is_nan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x03ff) != 0; }

TEST(Half, Fp16ToFp32HandValues) {
    EXPECT_EQ(fp16_to_fp32(0x3c00), 1.0f);
    EXPECT_EQ(fp16_to_fp32(0xc000), -2.0f);
    EXPECT_EQ(fp16_to_fp32(0x3555), 1365.0f / 4096.0f); // (1 + 341/1024) / 4
    EXPECT_EQ(fp16_to_fp32(0x7bff), 65504.0f);          // largest finite
    EXPECT_EQ(fp16_to_fp32(0x0400), std::ldexp(1.0f, -14)); // smallest normal
    EXPECT_EQ(fp16_to_fp32(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
    EXPECT_EQ(fp16_to_fp32(0x0200), std::ldexp(1.0f, -15));
    EXPECT_EQ(fp16_to_fp32(0x03ff), std::ldexp(1023.0f, -24)); // largest subnormal
    EXPECT_EQ(fp16_to_fp32(0x8001), -std::ldexp(1.0f, -24));
}

TEST(Half, Fp16ToFp32ZerosInfNan) {
    EXPECT_EQ(std::bit_cast<uint32_t>(fp16_to_fp32(0x0000)), 0x00000000u);
    EXPECT_EQ(std::bit_cast<uint32_t>(fp16_to_fp32(0x8000)), 0x80000000u);
    EXPECT_EQ(fp16_to_fp32(0x7c00), kInf);
    EXPECT_EQ(fp16_to_fp32(0xfc00), -kInf);
    EXPECT_TRUE(std::isnan(fp16_to_fp32(0x7e00)));
    EXPECT_TRUE(std::isnan(fp16_to_fp32(0x7c01))); // signalling payload stays a NaN
    EXPECT_TRUE(std::signbit(fp16_to_fp32(0xfe00)));
}

TEST(Half, Fp32ToFp16HandValues) {
    EXPECT_EQ(fp32_to_fp16(1.0f), 0x3c00);
    EXPECT_EQ(fp32_to_fp16(-2.0f), 0xc000);
    EXPECT_EQ(fp32_to_fp16(65504.0f), 0x7bff);
    EXPECT_EQ(fp32_to_fp16(0.0f), 0x0000);
    EXPECT_EQ(fp32_to_fp16(-0.0f), 0x8000);
    EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -14)), 0x0400);
    EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -24)), 0x0001);
    EXPECT_EQ(fp32_to_fp16(std::ldexp(5.0f, -24)), 0x0005);
}

TEST(Half, Fp32ToFp16RoundsToNearestEven) {
    // Between 1 (0x3c00, even) and 1 + 2^-10 (0x3c01): the tie goes to the even one.
    EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
    EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
    EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(1.0f, -11) - std::ldexp(1.0f, -20)), 0x3c00);
    // Between 0x3c01 (odd) and 0x3c02: the tie goes up.
    EXPECT_EQ(fp32_to_fp16(1.0f + std::ldexp(3.0f, -11)), 0x3c02);
    // Round-up carry into the exponent: just below 2 rounds to 2 (0x4000).
    EXPECT_EQ(fp32_to_fp16(2.0f - std::ldexp(1.0f, -12)), 0x4000);
}

TEST(Half, Fp32ToFp16OverflowAndNan) {
    EXPECT_EQ(fp32_to_fp16(65519.99f), 0x7bff);  // below the 65504/65536 midpoint
    EXPECT_EQ(fp32_to_fp16(65520.0f), 0x7c00);   // the midpoint: ties to even = inf
    EXPECT_EQ(fp32_to_fp16(65536.0f), 0x7c00);
    EXPECT_EQ(fp32_to_fp16(1e10f), 0x7c00);
    EXPECT_EQ(fp32_to_fp16(-1e10f), 0xfc00);
    EXPECT_EQ(fp32_to_fp16(kInf), 0x7c00);
    EXPECT_EQ(fp32_to_fp16(-kInf), 0xfc00);
    EXPECT_TRUE(fp16_is_nan(fp32_to_fp16(std::numeric_limits<float>::quiet_NaN())));
    // A NaN whose payload lies only in the low 13 bits must not become inf.
    EXPECT_TRUE(fp16_is_nan(fp32_to_fp16(std::bit_cast<float>(0x7f800001u))));
    EXPECT_EQ(fp32_to_fp16(std::bit_cast<float>(0xffc00000u)) & 0x8000, 0x8000); // sign kept
}

TEST(Half, Fp32ToFp16Subnormals) {
    EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -25)), 0x0000); // tie between 0 and 1: even = 0
    EXPECT_EQ(fp32_to_fp16(std::nextafter(std::ldexp(1.0f, -25), 1.0f)), 0x0001);
    EXPECT_EQ(fp32_to_fp16(std::ldexp(3.0f, -25)), 0x0002); // tie between 1 and 2: even = 2
    EXPECT_EQ(fp32_to_fp16(std::ldexp(5.0f, -25)), 0x0002); // tie between 2 and 3: even = 2
    EXPECT_EQ(fp32_to_fp16(std::ldexp(1.0f, -26)), 0x0000);
    EXPECT_EQ(fp32_to_fp16(-std::ldexp(1.0f, -26)), 0x8000);
    EXPECT_EQ(fp32_to_fp16(1e-10f), 0x0000);
    EXPECT_EQ(fp32_to_fp16(std::numeric_limits<float>::denorm_min()), 0x0000);
    // Halfway between the largest subnormal 0x03ff (odd) and the smallest normal: rounds up.
    EXPECT_EQ(fp32_to_fp16(std::ldexp(2047.0f, -25)), 0x0400);
}

TEST(Half, Fp16RoundTripsExhaustively) {
    for (uint32_t h = 0; h < 0x10000; ++h) {
        const auto half = static_cast<uint16_t>(h);
        const uint16_t back = fp32_to_fp16(fp16_to_fp32(half));
        if (fp16_is_nan(half)) {
            EXPECT_TRUE(fp16_is_nan(back)) << std::hex << h;
        } else {
            EXPECT_EQ(back, half) << std::hex << h;
        }
    }
}

// Every midpoint between neighbouring positive halves (exact in fp32) rounds to the even
// neighbour, and the floats just beside it round to the nearer one.
TEST(Half, Fp16MidpointsExhaustively) {
    for (uint16_t a = 0; a < 0x7c00; ++a) {
        const auto b = static_cast<uint16_t>(a + 1); // 0x7c00 (inf) stands in for 65536
        const float fa = fp16_to_fp32(a);
        const float fb = b == 0x7c00 ? 65536.0f : fp16_to_fp32(b);
        const float mid = (fa + fb) / 2.0f;
        ASSERT_GT(mid, fa);
        ASSERT_LT(mid, fb);
        EXPECT_EQ(fp32_to_fp16(mid), (a & 1) ? b : a) << std::hex << a;
        EXPECT_EQ(fp32_to_fp16(std::nextafter(mid, 0.0f)), a) << std::hex << a;
        EXPECT_EQ(fp32_to_fp16(std::nextafter(mid, kInf)), b) << std::hex << a;
        EXPECT_EQ(fp32_to_fp16(-mid), static_cast<uint16_t>(0x8000 | ((a & 1) ? b : a)));
    }
}

TEST(Half, Bf16ToFp32) {
    EXPECT_EQ(bf16_to_fp32(0x3f80), 1.0f);
    EXPECT_EQ(bf16_to_fp32(0xc040), -3.0f);
    EXPECT_EQ(bf16_to_fp32(0x7f80), kInf);
    EXPECT_EQ(bf16_to_fp32(0xff80), -kInf);
    EXPECT_EQ(bf16_to_fp32(0x0001), std::ldexp(1.0f, -133)); // subnormal
    EXPECT_TRUE(std::isnan(bf16_to_fp32(0x7fc0)));
    EXPECT_EQ(std::bit_cast<uint32_t>(bf16_to_fp32(0x8000)), 0x80000000u);
}

TEST(Half, Fp32ToBf16) {
    EXPECT_EQ(fp32_to_bf16(1.0f), 0x3f80);
    EXPECT_EQ(fp32_to_bf16(-3.0f), 0xc040);
    EXPECT_EQ(fp32_to_bf16(-0.0f), 0x8000);
    // Ties: 1 + 2^-8 is halfway between 0x3f80 (even) and 0x3f81.
    EXPECT_EQ(fp32_to_bf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);
    EXPECT_EQ(fp32_to_bf16(1.0f + std::ldexp(3.0f, -8)), 0x3f82);
    EXPECT_EQ(fp32_to_bf16(1.0f + std::ldexp(1.0f, -8) + std::ldexp(1.0f, -20)), 0x3f81);
    EXPECT_EQ(fp32_to_bf16(std::numeric_limits<float>::max()), 0x7f80); // rounds up to inf
    EXPECT_EQ(fp32_to_bf16(kInf), 0x7f80);
    EXPECT_EQ(fp32_to_bf16(std::numeric_limits<float>::denorm_min()), 0x0000);
    EXPECT_EQ(fp32_to_bf16(std::bit_cast<float>(0x00018000u)), 0x0002); // subnormal tie, up to even
    // NaNs stay NaN, even one whose payload is only in the low 16 bits.
    EXPECT_TRUE(std::isnan(bf16_to_fp32(fp32_to_bf16(std::bit_cast<float>(0x7f800001u)))));
    EXPECT_TRUE(std::isnan(bf16_to_fp32(fp32_to_bf16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST(Half, Bf16RoundTripsExhaustively) {
    for (uint32_t b = 0; b < 0x10000; ++b) {
        const auto v = static_cast<uint16_t>(b);
        const float f = bf16_to_fp32(v);
        if (std::isnan(f)) {
            EXPECT_TRUE(std::isnan(bf16_to_fp32(fp32_to_bf16(f))));
        } else {
            EXPECT_EQ(fp32_to_bf16(f), v) << std::hex << b;
        }
    }
}

static_assert(fp32_to_fp16(1.0f) == 0x3c00 && fp16_to_fp32(0x3c00) == 1.0f, "usable at compile time");

} // namespace
} // namespace octo
