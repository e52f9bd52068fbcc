// Byte layouts of the ggml quantisation blocks the engine supports (shared by the quantiser and
// the dequantiser). All multi-byte fields are little-endian; "half" is an IEEE fp16 scale.
// Offsets below are in bytes from the start of the block; y[i] is the i-th value of the block.
//
// Q4_0, 32 values, 18 bytes: half d @0 | u8 qs[16] @2
//   y[j] = (int(qs[j] & 15) - 8) * d,  y[j+16] = (int(qs[j] >> 4) - 8) * d        (j < 16)
// Q4_1, 32 values, 20 bytes: half d @0 | half m @2 | u8 qs[16] @4
//   y[j] = (qs[j] & 15) * d + m,  y[j+16] = (qs[j] >> 4) * d + m
// Q5_0, 32 values, 22 bytes: half d @0 | u32 qh @2 | u8 qs[16] @6
//   5-bit q[j] = (qs[j] & 15) | bit j of qh << 4, q[j+16] = (qs[j] >> 4) | bit (j+16) of qh << 4
//   y[i] = (int(q[i]) - 16) * d
// Q5_1, 32 values, 24 bytes: half d @0 | half m @2 | u32 qh @4 | u8 qs[16] @8
//   q as in Q5_0, y[i] = q[i] * d + m
// Q8_0, 32 values, 34 bytes: half d @0 | i8 qs[32] @2;  y[i] = qs[i] * d
//
// The K-quants work on super-blocks of 256 values.
// Q4_K, 144 bytes: half d @0 | half dmin @2 | u8 scales[12] @4 | u8 qs[128] @16
//   8 sub-blocks of 32 values, each with a 6-bit scale sc[s] and 6-bit min m[s] packed in
//   `scales` (see unpack_k_scale_min). Values 64c..64c+31 (sub-block 2c) are the low nibbles of
//   qs[32c .. 32c+31], values 64c+32..64c+63 (sub-block 2c+1) their high nibbles (c < 4).
//   y = (d * sc[s]) * q - (dmin * m[s])
// Q5_K, 176 bytes: half d @0 | half dmin @2 | u8 scales[12] @4 | u8 qh[32] @16 | u8 qs[128] @48
//   As Q4_K, plus a fifth bit: value 32s + l (sub-block s, l < 32) takes bit s of qh[l] as 16.
// Q6_K, 210 bytes: u8 ql[128] @0 | u8 qh[64] @128 | i8 scales[16] @192 | half d @208
//   Two halves of 128 values; half h uses ql[64h .. 64h+63], qh[32h .. 32h+31], scales[8h ..].
//   Within a half, for l < 32 (all indices relative to the half):
//     q[l]      = (ql[l]      & 15) | ((qh[l] >> 0) & 3) << 4
//     q[l + 32] = (ql[l + 32] & 15) | ((qh[l] >> 2) & 3) << 4
//     q[l + 64] = (ql[l]      >> 4) | ((qh[l] >> 4) & 3) << 4
//     q[l + 96] = (ql[l + 32] >> 4) | ((qh[l] >> 6) & 3) << 4
//   value i of the half has scale scales[8h + i / 16];  y = (d * scale) * (int(q) - 32)
// Q2_K, 84 bytes: u8 scales[16] @0 | u8 qs[64] @16 | half d @80 | half dmin @82
//   Two halves of 128 values; in half h, value 32j + l (j < 4, l < 32) is q = (qs[32h + l] >> 2j) & 3
//   and belongs to sub-block s = 8h + 2j + l / 16 of 16 values. scales[s]: low nibble the scale,
//   high nibble the min;  y = (d * (scales[s] & 15)) * q - dmin * (scales[s] >> 4)
// Q3_K, 110 bytes: u8 hmask[32] @0 | u8 qs[64] @32 | u8 scales[12] @96 | half d @108
//   Value 128h + 32j + l: q = ((qs[32h + l] >> 2j) & 3) - 4, plus 4 when bit 4h + j of hmask[l] is
//   set (q in -4..3). Sub-block s = 8h + 2j + l / 16 has a 6-bit scale sc[s] (unpack_q3_k_scale);
//   y = (d * (sc[s] - 32)) * q
//
// The ternary types hold values -1, 0, 1 (a stored 3 reads as 2) and one fp16 scale d: y = d * t.
// TQ1_0, 54 bytes: u8 qs[48] @0 | u8 qh[4] @48 | half d @52
//   Five ternary digits per byte, most significant first: digit n of byte b is
//   ((uint8_t(b * 3^n) * 3) >> 8), t = digit - 1. Values 0..159: digit n of qs[m] is value 32n + m
//   (m < 32); values 160..239: digit n of qs[32 + m] is value 160 + 16n + m (m < 16); values
//   240..255: digit n of qh[m] (n < 4) is value 240 + 4n + m.
// TQ2_0, 66 bytes: u8 qs[64] @0 | half d @64
//   Value 128c + 32l + m (c < 2, l < 4, m < 32): t = ((qs[32c + m] >> 2l) & 3) - 1
//
// Non-linear 4-bit types: a nibble picks one of 16 int8 levels (iq_grids.h).
// IQ4_NL, 32 values, 18 bytes: half d @0 | u8 qs[16] @2
//   y[j] = d * kIq4nlValues[qs[j] & 15],  y[j+16] = d * kIq4nlValues[qs[j] >> 4]
// IQ4_XS, 136 bytes: half d @0 | u16 scales_h @2 | u8 scales_l[4] @4 | u8 qs[128] @8
//   Sub-block s of 32 values: ls = ((scales_l[s/2] >> 4(s%2)) & 15) | ((scales_h >> 2s) & 3) << 4;
//   its values as IQ4_NL's over qs[16s ..], with the scale d * (ls - 32)
// MXFP4, 32 values, 17 bytes: u8 e @0 | u8 qs[16] @1 (the OCP microscaling format)
//   An E8M0 exponent and 4-bit E2M1 values, kept doubled as int8 (kMxfp4Values) with the scale
//   halved: d = 2^(e - 128);  y[j] = kMxfp4Values[qs[j] & 15] * d,  y[j+16] = ... [qs[j] >> 4] * d
//
// Lattice types: groups of 8 (IQ2/IQ1) or 4 (IQ3) values are one point of a fixed grid
// (iq_grids.h), signs separately. A 7-bit sign index s gives 8 sign bits: s, and an eighth bit
// that makes the count of negative values even (iq2_signs). Values are multiplied by their
// sub-block scale; the integer products use ls = 2 * (4-bit scale) + 1 and a constant factor.
// IQ2_XXS, 66 bytes: half d @0 | u32 words[16] @2
//   Sub-block s (32 values) is words[2s], words[2s+1]: the four bytes of words[2s] pick kIq2xxs
//   points for groups 0..3, bits 7l..7l+6 of words[2s+1] their sign index, bits 28..31 the scale
//   l4;  y = (d * (0.5 + l4) * 0.25) * point value * sign
// IQ2_XS, 74 bytes: half d @0 | u16 qs[32] @2 | u8 scales[8] @66
//   Group g (8 values): qs[g] & 511 picks a kIq2xs point, qs[g] >> 9 is its sign index. Sub-block
//   s = g / 4 takes scale nibble (scales[s] >> 4 * ((g % 4) / 2)) & 15 = l4;  y as IQ2_XXS
// IQ2_S, 82 bytes: half d @0 | u8 qs[32] @2 | u8 signs[32] @34 | u8 qh[8] @66 | u8 scales[8] @74
//   Group g: kIq2s point qs[g] | ((qh[g/4] >> 2(g%4)) & 3) << 8, its 8 sign bits signs[g];
//   scale nibble as IQ2_XS;  y as IQ2_XXS
// IQ3_XXS, 98 bytes: half d @0 | u8 qs[64] @2 | u32 words[8] @66
//   Sub-block s: groups l < 4 of 8 values are the kIq3xxs points qs[8s+2l], qs[8s+2l+1] (4 values
//   each), sign index bits 7l.. of words[s], scale l4 its bits 28..31;
//   y = (d * (0.5 + l4) * 0.5) * point value * sign
// IQ3_S, 110 bytes: half d @0 | u8 qs[64] @2 | u8 qh[8] @66 | u8 signs[32] @74 | u8 scales[4] @106
//   Sub-block s: group l's two kIq3s points are qs[8s+2l] | bit 2l of qh[s] << 8 and
//   qs[8s+2l+1] | bit 2l+1 of qh[s] << 8, its sign bits signs[4s+l]; l4 the nibble
//   (scales[s/2] >> 4(s%2)) & 15;  y = (d * (1 + 2 * l4)) * point value * sign
// IQ1_S, 50 bytes: half d @0 | u8 qs[32] @2 | u16 qh[8] @34
//   Sub-block s: group l is the kIq1s point qs[4s+l] | ((qh[s] >> 3l) & 7) << 8 (values -1..1);
//   l3 = (qh[s] >> 12) & 7, delta = -0.125 if bit 15 of qh[s] else 0.125;
//   y = (d * (2 * l3 + 1)) * (point value + delta)
// IQ1_M, 56 bytes: u8 qs[32] @0 | u8 qh[16] @32 | u16 sc[4] @48
//   The fp16 scale d is the top nibbles of sc[0..3], sc[0]'s the lowest. Group g (s = g / 4,
//   l = g % 4): nibble n = (qh[2s + l/2] >> 4(l%2)) & 15; kIq1s point qs[g] | (n & 7) << 8,
//   delta -0.125 if n & 8 else 0.125; scale l3 = (sc[s/2] >> (6(s%2) + 3(l/2))) & 7;
//   y = (d * (2 * l3 + 1)) * (point value + delta)
#pragma once

#include <cstdint>

namespace octo::qblock {

constexpr int kQK = 32;   // values per Q4_0/Q4_1/Q5_0/Q5_1/Q8_0 block
constexpr int kQK_K = 256; // values per K-quant super-block

constexpr int kQ4_0Bytes = 18;
constexpr int kQ4_1Bytes = 20;
constexpr int kQ5_0Bytes = 22;
constexpr int kQ5_1Bytes = 24;
constexpr int kQ8_0Bytes = 34;
constexpr int kQ4_KBytes = 144;
constexpr int kQ5_KBytes = 176;
constexpr int kQ6_KBytes = 210;
constexpr int kQ2_KBytes = 84;
constexpr int kQ3_KBytes = 110;
constexpr int kTQ1_0Bytes = 54;
constexpr int kTQ2_0Bytes = 66;
constexpr int kIQ4_NLBytes = 18;
constexpr int kIQ4_XSBytes = 136;
constexpr int kMXFP4Bytes = 17;
constexpr int kIQ2_XXSBytes = 66;
constexpr int kIQ2_XSBytes = 74;
constexpr int kIQ2_SBytes = 82;
constexpr int kIQ3_XXSBytes = 98;
constexpr int kIQ3_SBytes = 110;
constexpr int kIQ1_SBytes = 50;
constexpr int kIQ1_MBytes = 56;

// The 12 `scales` bytes of Q4_K/Q5_K hold eight 6-bit scales and eight 6-bit mins:
//   bytes 0..3:  sc[0..3] in bits 0-5, bits 4-5 of sc[4..7] in bits 6-7
//   bytes 4..7:  m[0..3]  in bits 0-5, bits 4-5 of m[4..7]  in bits 6-7
//   bytes 8..11: low 4 bits of sc[4..7] in bits 0-3, low 4 bits of m[4..7] in bits 4-7
inline void unpack_k_scale_min(const uint8_t* scales, int s, int& sc, int& m) {
    if (s < 4) {
        sc = scales[s] & 63;
        m = scales[s + 4] & 63;
    } else {
        sc = (scales[s + 4] & 15) | ((scales[s - 4] >> 6) << 4);
        m = (scales[s + 4] >> 4) | ((scales[s] >> 6) << 4);
    }
}

// The 6-bit scale of Q3_K sub-block s (s < 16), 0..63: its low 4 bits are the low (s < 8) or high
// nibble of scales[s % 8], its high 2 bits bits 2(s/4).. of scales[8 + s % 4].
inline int unpack_q3_k_scale(const uint8_t* scales, int s) {
    const int low = s < 8 ? scales[s] & 15 : scales[s - 8] >> 4;
    const int high = (scales[8 + s % 4] >> (2 * (s / 4))) & 3;
    return low | (high << 4);
}

// Inverse of unpack_k_scale_min; every sc[s] and m[s] must be below 64.
inline void pack_k_scales_mins(const uint8_t sc[8], const uint8_t m[8], uint8_t scales[12]) {
    for (int s = 0; s < 4; ++s) {
        scales[s] = static_cast<uint8_t>(sc[s] | ((sc[s + 4] >> 4) << 6));
        scales[s + 4] = static_cast<uint8_t>(m[s] | ((m[s + 4] >> 4) << 6));
        scales[s + 8] = static_cast<uint8_t>((sc[s + 4] & 15) | ((m[s + 4] & 15) << 4));
    }
}

} // namespace octo::qblock
