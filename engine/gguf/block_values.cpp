#include "engine/gguf/block_values.h"

#include <cmath>

#include "engine/core/le_bytes.h"
#include "engine/gguf/iq_grids.h"
#include "engine/gguf/quant_blocks.h"

namespace octo::qblock {

namespace {

// n values of a grid point with sign bits applied.
template <class T, int kN>
inline void signed_point(const T (&point)[kN], uint8_t signs, int8_t* q) {
    for (int j = 0; j < kN; ++j) {
        const int v = point[j];
        q[j] = static_cast<int8_t>(((signs >> j) & 1) ? -v : v);
    }
}

// One ternary digit of a TQ1_0 byte (digit n, most significant first), as -1..1.
inline int8_t ternary_digit(uint8_t byte, int n) {
    static constexpr uint8_t kPow3[5] = {1, 3, 9, 27, 81};
    const auto shifted = static_cast<uint8_t>(byte * kPow3[n]);
    return static_cast<int8_t>(((static_cast<uint16_t>(shifted) * 3) >> 8) - 1);
}

// Eight bytes of two 4-bit scale codes each, low nibble first: l4[0..16).
inline void nibble_scales(const uint8_t* bytes, uint8_t l4[16]) {
    for (int s = 0; s < 8; ++s) {
        l4[2 * s] = bytes[s] & 15;
        l4[2 * s + 1] = bytes[s] >> 4;
    }
}

} // namespace

void q2_k_values(const uint8_t* block, int8_t q[256]) {
    const uint8_t* qs = block + 16;
    for (int h = 0; h < 2; ++h) {
        for (int j = 0; j < 4; ++j) {
            for (int l = 0; l < 32; ++l) q[128 * h + 32 * j + l] = static_cast<int8_t>((qs[32 * h + l] >> (2 * j)) & 3);
        }
    }
}

void q3_k_values(const uint8_t* block, int8_t q[256]) {
    const uint8_t* hmask = block;
    const uint8_t* qs = block + 32;
    for (int h = 0; h < 2; ++h) {
        for (int j = 0; j < 4; ++j) {
            const int bit = 4 * h + j;
            for (int l = 0; l < 32; ++l) {
                const int low = (qs[32 * h + l] >> (2 * j)) & 3;
                q[128 * h + 32 * j + l] = static_cast<int8_t>(low - (((hmask[l] >> bit) & 1) ? 0 : 4));
            }
        }
    }
}

void tq1_0_values(const uint8_t* block, int8_t q[256]) {
    const uint8_t* qs = block;
    const uint8_t* qh = block + 48;
    for (int n = 0; n < 5; ++n) {
        for (int m = 0; m < 32; ++m) q[32 * n + m] = ternary_digit(qs[m], n);
        for (int m = 0; m < 16; ++m) q[160 + 16 * n + m] = ternary_digit(qs[32 + m], n);
    }
    for (int n = 0; n < 4; ++n) {
        for (int m = 0; m < 4; ++m) q[240 + 4 * n + m] = ternary_digit(qh[m], n);
    }
}

void tq2_0_values(const uint8_t* block, int8_t q[256]) {
    for (int c = 0; c < 2; ++c) {
        for (int l = 0; l < 4; ++l) {
            for (int m = 0; m < 32; ++m) q[128 * c + 32 * l + m] = static_cast<int8_t>(((block[32 * c + m] >> (2 * l)) & 3) - 1);
        }
    }
}

void iq4_values(const uint8_t* qs, int8_t q[32]) {
    for (int j = 0; j < 16; ++j) {
        q[j] = iq::kIq4nlValues[qs[j] & 15];
        q[j + 16] = iq::kIq4nlValues[qs[j] >> 4];
    }
}

void mxfp4_values(const uint8_t* qs, int8_t q[32]) {
    for (int j = 0; j < 16; ++j) {
        q[j] = iq::kMxfp4Values[qs[j] & 15];
        q[j + 16] = iq::kMxfp4Values[qs[j] >> 4];
    }
}


void iq2_xxs_values(const uint8_t* block, int8_t q[256], uint8_t l4[8]) {
    const iq::Grids& g = iq::grids();
    for (int s = 0; s < 8; ++s) {
        const uint8_t* points = block + 2 + 8 * s;
        const uint32_t signs_scale = load_le32(block + 2 + 8 * s + 4);
        for (int l = 0; l < 4; ++l) {
            signed_point(g.iq2xxs[points[l]], iq::iq2_signs(signs_scale >> (7 * l)), q + 32 * s + 8 * l);
        }
        l4[s] = static_cast<uint8_t>(signs_scale >> 28);
    }
}

void iq2_xs_values(const uint8_t* block, int8_t q[256], uint8_t l4[16]) {
    const iq::Grids& g = iq::grids();
    for (int group = 0; group < 32; ++group) {
        const uint16_t code = load_le16(block + 2 + 2 * group);
        signed_point(g.iq2xs[code & 511], iq::iq2_signs(code >> 9), q + 8 * group);
    }
    nibble_scales(block + 66, l4);
}

void iq2_s_values(const uint8_t* block, int8_t q[256], uint8_t l4[16]) {
    const iq::Grids& g = iq::grids();
    const uint8_t* qs = block + 2;
    const uint8_t* signs = block + 34;
    const uint8_t* qh = block + 66;
    for (int group = 0; group < 32; ++group) {
        const int point = qs[group] | (((qh[group / 4] >> (2 * (group % 4))) & 3) << 8);
        signed_point(g.iq2s[point], signs[group], q + 8 * group);
    }
    nibble_scales(block + 74, l4);
}

void iq3_xxs_values(const uint8_t* block, int8_t q[256], uint8_t l4[8]) {
    const iq::Grids& g = iq::grids();
    const uint8_t* qs = block + 2;
    for (int s = 0; s < 8; ++s) {
        const uint32_t signs_scale = load_le32(block + 66 + 4 * s);
        for (int l = 0; l < 4; ++l) {
            const uint8_t signs = iq::iq2_signs(signs_scale >> (7 * l));
            int8_t* out = q + 32 * s + 8 * l;
            signed_point(g.iq3xxs[qs[8 * s + 2 * l]], signs, out);
            signed_point(g.iq3xxs[qs[8 * s + 2 * l + 1]], static_cast<uint8_t>(signs >> 4), out + 4);
        }
        l4[s] = static_cast<uint8_t>(signs_scale >> 28);
    }
}

void iq3_s_values(const uint8_t* block, int8_t q[256], uint8_t l4[8]) {
    const iq::Grids& g = iq::grids();
    const uint8_t* qs = block + 2;
    const uint8_t* qh = block + 66;
    const uint8_t* signs = block + 74;
    for (int s = 0; s < 8; ++s) {
        for (int l = 0; l < 4; ++l) {
            const int first = qs[8 * s + 2 * l] | (((qh[s] >> (2 * l)) & 1) << 8);
            const int second = qs[8 * s + 2 * l + 1] | (((qh[s] >> (2 * l + 1)) & 1) << 8);
            const uint8_t sign_bits = signs[4 * s + l];
            int8_t* out = q + 32 * s + 8 * l;
            signed_point(g.iq3s[first], sign_bits, out);
            signed_point(g.iq3s[second], static_cast<uint8_t>(sign_bits >> 4), out + 4);
        }
        l4[s] = (block[106 + s / 2] >> (4 * (s % 2))) & 15;
    }
}

void iq1_s_values(const uint8_t* block, int8_t q[256], uint8_t l3[8], int8_t delta[32]) {
    const iq::Grids& g = iq::grids();
    const uint8_t* qs = block + 2;
    for (int s = 0; s < 8; ++s) {
        const uint16_t qh = load_le16(block + 34 + 2 * s);
        for (int l = 0; l < 4; ++l) {
            const int point = qs[4 * s + l] | (((qh >> (3 * l)) & 7) << 8);
            for (int j = 0; j < 8; ++j) q[32 * s + 8 * l + j] = g.iq1s[point][j];
            delta[4 * s + l] = static_cast<int8_t>((qh & 0x8000) ? -1 : 1);
        }
        l3[s] = static_cast<uint8_t>((qh >> 12) & 7);
    }
}

void iq1_m_values(const uint8_t* block, int8_t q[256], uint8_t l3[16], int8_t delta[32]) {
    const iq::Grids& g = iq::grids();
    const uint8_t* qs = block;
    const uint8_t* qh = block + 32;
    for (int group = 0; group < 32; ++group) {
        const int s = group / 4;
        const int l = group % 4;
        const int nibble = (qh[2 * s + l / 2] >> (4 * (l % 2))) & 15;
        const int point = qs[group] | ((nibble & 7) << 8);
        for (int j = 0; j < 8; ++j) q[8 * group + j] = g.iq1s[point][j];
        delta[group] = static_cast<int8_t>((nibble & 8) ? -1 : 1);
    }
    for (int s = 0; s < 8; ++s) {
        const uint16_t word = load_le16(block + 48 + 2 * (s / 2));
        l3[2 * s] = static_cast<uint8_t>((word >> (6 * (s % 2))) & 7);
        l3[2 * s + 1] = static_cast<uint8_t>((word >> (6 * (s % 2) + 3)) & 7);
    }
}

uint16_t iq1_m_scale_bits(const uint8_t* block) {
    uint16_t bits = 0;
    for (int k = 0; k < 4; ++k) bits = static_cast<uint16_t>(bits | ((load_le16(block + 48 + 2 * k) >> 12) << (4 * k)));
    return bits;
}

} // namespace octo::qblock
