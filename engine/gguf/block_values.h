// The integer values of one block of the low-bit weight types (layouts: quant_blocks.h), shared by
// the dequantiser (dequantize_low_bit.cpp) and the integer products (backend/cpu): each type's bits
// are unpacked in one place, and its float and integer steps are written beside their users.
//
// `q` receives the block's values in order as the integers the format multiplies by its scales:
// Q2_K 0..3, Q3_K -4..3, TQ1_0 / TQ2_0 the ternary value (-1..1; a stored 3 reads as 2), IQ4
// and MXFP4 their int8 levels, the lattice types point value × sign (IQ1: -1..1, without delta).
// The scale codes are the raw fields (sub-block scale nibbles, 3- or 6-bit codes), see each line.
#pragma once

#include <bit>
#include <cstdint>

namespace octo::qblock {

void q2_k_values(const uint8_t* block, int8_t q[256]);
void q3_k_values(const uint8_t* block, int8_t q[256]);
void tq1_0_values(const uint8_t* block, int8_t q[256]);
void tq2_0_values(const uint8_t* block, int8_t q[256]);

// 16 bytes of nibbles -> 32 levels: low nibbles are values 0..15, high nibbles 16..31
// (IQ4_NL block, IQ4_XS sub-block, MXFP4 block).
void iq4_values(const uint8_t* qs, int8_t q[32]);
void mxfp4_values(const uint8_t* qs, int8_t q[32]);
// IQ4_XS sub-block s's 6-bit scale code, 0..63 (the scale is code - 32).
// (Inline: the SIMD kernels read eight per super-block.)
inline int iq4_xs_scale(const uint8_t* block, int s) {
    const int high = block[2] | (block[3] << 8); // scales_h, little-endian
    return ((block[4 + s / 2] >> (4 * (s % 2))) & 15) | (((high >> (2 * s)) & 3) << 4);
}
// MXFP4's scale: its E8M0 exponent e as 2^(e - 127), halved to match the doubled levels:
// 2^(e - 128), built from its bits (inline: the products read one per block of 32), subnormal
// for e < 2.
inline float e8m0_half(uint8_t e) {
    const uint32_t bits = e < 2 ? uint32_t{0x00200000} << e : static_cast<uint32_t>(e - 1) << 23;
    return std::bit_cast<float>(bits);
}

// The lattice types: q[256], and l4[s] / l3[g] the scale codes (4-bit per 32 values for IQ2_XXS
// and IQ3_XXS, per 16 values for IQ2_XS / IQ2_S / IQ3_S ... see quant_blocks.h).
void iq2_xxs_values(const uint8_t* block, int8_t q[256], uint8_t l4[8]);   // scale per 32 values
void iq2_xs_values(const uint8_t* block, int8_t q[256], uint8_t l4[16]);   // scale per 16 values
void iq2_s_values(const uint8_t* block, int8_t q[256], uint8_t l4[16]);    // scale per 16 values
void iq3_xxs_values(const uint8_t* block, int8_t q[256], uint8_t l4[8]);   // scale per 32 values
void iq3_s_values(const uint8_t* block, int8_t q[256], uint8_t l4[8]);     // scale per 32 values
// IQ1: l3 per 32 values (IQ1_S) or 16 (IQ1_M), delta[g] = ±1 per group of 8 (the sign of ±0.125).
void iq1_s_values(const uint8_t* block, int8_t q[256], uint8_t l3[8], int8_t delta[32]);
void iq1_m_values(const uint8_t* block, int8_t q[256], uint8_t l3[16], int8_t delta[32]);
// IQ1_M's fp16 super-block scale, assembled from the top nibbles of its four scale words.
uint16_t iq1_m_scale_bits(const uint8_t* block);

} // namespace octo::qblock
