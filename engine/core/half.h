// Exact conversions between fp32 and the two 16-bit float formats stored in GGUF files.
//   fp16 (IEEE binary16): 1 sign | 5 exponent (bias 15) | 10 mantissa bits.
//   bf16 (bfloat16):      1 sign | 8 exponent (bias 127) | 7 mantissa bits (the top half of fp32).
// Widening is exact. Narrowing rounds to nearest, ties to even, produces subnormals, overflows
// to infinity, and keeps NaN a NaN (quiet, sign and top payload bits kept). Plain integer code,
// no compiler intrinsics, usable in constant expressions.
#pragma once

#include <bit>
#include <cstdint>

namespace octo {

constexpr float fp16_to_fp32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13)); // inf / NaN
    if (exp != 0) return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
    if (mant == 0) return std::bit_cast<float>(sign); // +-0
    // Subnormal mant * 2^-24: shift the leading 1 up to the implicit-bit position.
    uint32_t e = 113; // biased fp32 exponent of 2^-14
    while ((mant & 0x400u) == 0) {
        mant <<= 1;
        --e;
    }
    return std::bit_cast<float>(sign | (e << 23) | ((mant & 0x3ffu) << 13));
}

constexpr uint16_t fp32_to_fp16(float f) {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    const uint32_t sign = (u >> 16) & 0x8000u;
    const uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) { // NaN: quiet bit set, top 9 payload bits kept
        return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
    }
    if (abs >= 0x47800000u) return static_cast<uint16_t>(sign | 0x7c00u); // >= 65536 or inf
    const uint32_t e = abs >> 23;          // biased fp32 exponent
    const uint32_t mant = abs & 0x7fffffu; // 23 bits
    if (e >= 113) { // normal fp16 (a round-up carry may reach the next exponent, or inf)
        uint32_t h = ((e - 112u) << 10) | (mant >> 13);
        const uint32_t rem = mant & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
        return static_cast<uint16_t>(sign | h);
    }
    if (e < 102) return static_cast<uint16_t>(sign); // below 2^-25: rounds to +-0
    // Subnormal fp16: the value in units of 2^-24 is full >> shift, shift in [14, 24].
    const uint32_t full = mant | 0x800000u;
    const uint32_t shift = 126u - e;
    uint32_t h = full >> shift;
    const uint32_t rem = full & ((1u << shift) - 1u);
    const uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (h & 1u))) ++h; // may become the smallest normal
    return static_cast<uint16_t>(sign | h);
}

constexpr float bf16_to_fp32(uint16_t b) {
    return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

constexpr uint16_t fp32_to_bf16(float f) {
    const uint32_t u = std::bit_cast<uint32_t>(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u); // quiet NaN
    const uint32_t rounded = u + 0x7fffu + ((u >> 16) & 1u); // ties to even; carries into inf
    return static_cast<uint16_t>(rounded >> 16);
}

} // namespace octo
