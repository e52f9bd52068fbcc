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

// Inverse of unpack_k_scale_min; every sc[s] and m[s] must be below 64.
inline void pack_k_scales_mins(const uint8_t sc[8], const uint8_t m[8], uint8_t scales[12]) {
    for (int s = 0; s < 4; ++s) {
        scales[s] = static_cast<uint8_t>(sc[s] | ((sc[s + 4] >> 4) << 6));
        scales[s + 4] = static_cast<uint8_t>(m[s] | ((m[s + 4] >> 4) << 6));
        scales[s + 8] = static_cast<uint8_t>((sc[s + 4] & 15) | ((m[s + 4] & 15) << 4));
    }
}

} // namespace octo::qblock
