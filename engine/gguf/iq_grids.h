// The fixed tables of the non-linear and lattice weight types (quant_blocks.h): the int8 levels of
// IQ4_NL / IQ4_XS and MXFP4, the sign rule of the IQ types, and the IQ1/IQ2/IQ3 grids.
//
// A grid is a list of points, each n coordinates from a few levels; the list holds its points in
// increasing order of their code (the number whose base-(levels) digits are the coordinates'
// level indices, coordinate 0 the least significant). The grids are therefore stored as point
// sets (iq_grid_sets.inc, made by tools/iq_grids/make_iq_grids.py) and expanded here once.
#pragma once

#include <cstdint>

namespace octo::iq {

// IQ4_NL / IQ4_XS levels, indexed by a 4-bit code.
inline constexpr int8_t kIq4nlValues[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                            1,    13,   25,  38,  53,  69,  89,  113};

// MXFP4: the E2M1 values (sign bit 3, exponent bits 2-1, mantissa bit 0) doubled, so that they are
// integers; the block's scale is halved to match (quant_blocks.h).
inline constexpr int8_t kMxfp4Values[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

// The 8 sign bits of a 7-bit sign index: its 7 bits, and bit 7 set when they hold an odd count.
constexpr uint8_t iq2_signs(uint32_t index7) {
    const uint32_t s = index7 & 127;
    const uint32_t parity = static_cast<uint32_t>(__builtin_popcount(s)) & 1u;
    return static_cast<uint8_t>(s | (parity << 7));
}

// The grids' points as the values the blocks multiply: IQ2 levels {8, 25, 43}, IQ3_XXS
// {4, 12, 20, 28, 36, 44, 52, 62}, IQ3_S {1, 3, ..., 15}, IQ1 {-1, 0, 1}.
struct Grids {
    uint8_t iq2xxs[256][8];
    uint8_t iq2xs[512][8];
    uint8_t iq2s[1024][8];
    uint8_t iq3xxs[256][4];
    uint8_t iq3s[512][4];
    int8_t iq1s[2048][8];
};

const Grids& grids();

} // namespace octo::iq
