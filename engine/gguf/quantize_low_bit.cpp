// Round-to-nearest quantisers of the low-bit types (layouts: quant_blocks.h), for test models and
// synthetic files: a scale per block or sub-block from the extreme value, then each value (or
// each group of 8 / 4 for the lattice types) to the nearest level or grid point. Plain choices,
// not llama-quantize's searches: the bytes differ from its files but decode with the same layout.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "engine/core/half.h"
#include "engine/core/le_bytes.h"
#include "engine/gguf/block_values.h"
#include "engine/gguf/iq_grids.h"
#include "engine/gguf/quant_blocks.h"
#include "engine/gguf/quantize.h"
#include "engine/gguf/quantize_steps.h"

namespace octo {

namespace {

using namespace qblock;
using namespace qstep;


float absmax(const float* x, int n) {
    float m = 0.0f;
    for (int i = 0; i < n; ++i) m = std::max(m, std::fabs(x[i]));
    return m;
}

// Index of the level nearest v among levels[0..n).
int nearest_level(float v, const int8_t* levels, int n) {
    int best = 0;
    for (int k = 1; k < n; ++k) {
        if (std::fabs(v - static_cast<float>(levels[k])) < std::fabs(v - static_cast<float>(levels[best]))) best = k;
    }
    return best;
}

void quant_q2_k(const float* x, uint8_t* b) {
    float scale[16];
    float min[16];
    for (int s = 0; s < 16; ++s) {
        const float lo = std::min(0.0f, *std::min_element(x + 16 * s, x + 16 * s + 16));
        const float hi = *std::max_element(x + 16 * s, x + 16 * s + 16);
        scale[s] = (hi - lo) / 3.0f;
        min[s] = -lo;
    }
    const float d = store_half(b + 80, *std::max_element(scale, scale + 16) / 15.0f);
    const float dmin = store_half(b + 82, *std::max_element(min, min + 16) / 15.0f);
    std::memset(b + 16, 0, 64);
    for (int s = 0; s < 16; ++s) {
        const int sc = d > 0.0f ? round_clamp(scale[s] / d, 0, 15) : 0;
        const int m = dmin > 0.0f ? round_clamp(min[s] / dmin, 0, 15) : 0;
        b[s] = static_cast<uint8_t>(sc | (m << 4));
        const float dl = d * static_cast<float>(sc);
        const float ml = dmin * static_cast<float>(m);
        for (int l = 0; l < 16; ++l) {
            const int i = 16 * s + l; // i = 128h + 32j + (l within 32)
            const int q = dl > 0.0f ? round_clamp((x[i] + ml) / dl, 0, 3) : 0;
            b[16 + 32 * (i / 128) + i % 32] |= static_cast<uint8_t>(q << (2 * ((i % 128) / 32)));
        }
    }
}

void quant_q3_k(const float* x, uint8_t* b) {
    float scale[16];
    float max_scale = 0.0f;
    for (int s = 0; s < 16; ++s) {
        scale[s] = signed_absmax(x + 16 * s, 16) / -4.0f;
        max_scale = std::max(max_scale, std::fabs(scale[s]));
    }
    const float d = store_half(b + 108, max_scale / 31.0f);
    std::memset(b, 0, 108);
    for (int s = 0; s < 16; ++s) {
        const int sc = d > 0.0f ? round_clamp(scale[s] / d, -32, 31) : 0;
        const int code = sc + 32;
        if (s < 8) {
            b[96 + s] = static_cast<uint8_t>(b[96 + s] | (code & 15));
        } else {
            b[96 + s - 8] = static_cast<uint8_t>(b[96 + s - 8] | ((code & 15) << 4));
        }
        b[104 + s % 4] = static_cast<uint8_t>(b[104 + s % 4] | ((code >> 4) << (2 * (s / 4))));
        const float dl = d * static_cast<float>(sc);
        for (int l = 0; l < 16; ++l) {
            const int i = 16 * s + l;
            const int u = (dl != 0.0f ? round_clamp(x[i] / dl, -4, 3) : 0) + 4; // 0..7
            const int h = i / 128;
            const int j = (i % 128) / 32;
            b[32 + 32 * h + i % 32] = static_cast<uint8_t>(b[32 + 32 * h + i % 32] | ((u & 3) << (2 * j)));
            b[i % 32] = static_cast<uint8_t>(b[i % 32] | ((u >> 2) << (4 * h + j)));
        }
    }
}

// Squared error of x[0..n) as ternary values with scale d.
float ternary_error(const float* x, int n, float d) {
    float err = 0.0f;
    for (int i = 0; i < n; ++i) {
        const float e = x[i] - d * static_cast<float>(round_clamp(x[i] / d, -1, 1));
        err += e * e;
    }
    return err;
}

// Ternary values t in -1..1 of a block, and its scale stored at b + at: of the scales
// absmax · k / 16 (k = 1..16), the one with the least squared error.
void ternary(const float* x, uint8_t* b, int at, int t[256]) {
    const float amax = absmax(x, 256);
    float best = amax;
    float best_error = amax > 0.0f ? ternary_error(x, 256, amax) : 0.0f;
    for (int k = 1; k < 16 && amax > 0.0f; ++k) {
        const float d = amax * static_cast<float>(k) / 16.0f;
        const float error = ternary_error(x, 256, d);
        if (error < best_error) {
            best = d;
            best_error = error;
        }
    }
    const float d = store_half(b + at, best);
    for (int i = 0; i < 256; ++i) t[i] = d > 0.0f ? round_clamp(x[i] / d, -1, 1) : 0;
}

// Digits (0..2, most significant first) as the byte that TQ1_0's decoder reads them from.
uint8_t pack_ternary_digits(const int* digits, int n) {
    int v = 0;
    for (int k = 0; k < 5; ++k) v = 3 * v + (k < n ? digits[k] : 0);
    return static_cast<uint8_t>((v * 256 + 242) / 243);
}

void quant_tq1_0(const float* x, uint8_t* b) {
    int t[256];
    ternary(x, b, 52, t);
    int digits[5];
    for (int m = 0; m < 32; ++m) {
        for (int n = 0; n < 5; ++n) digits[n] = t[32 * n + m] + 1;
        b[m] = pack_ternary_digits(digits, 5);
    }
    for (int m = 0; m < 16; ++m) {
        for (int n = 0; n < 5; ++n) digits[n] = t[160 + 16 * n + m] + 1;
        b[32 + m] = pack_ternary_digits(digits, 5);
    }
    for (int m = 0; m < 4; ++m) {
        for (int n = 0; n < 4; ++n) digits[n] = t[240 + 4 * n + m] + 1;
        b[48 + m] = pack_ternary_digits(digits, 4);
    }
}

void quant_tq2_0(const float* x, uint8_t* b) {
    int t[256];
    ternary(x, b, 64, t);
    std::memset(b, 0, 64);
    for (int i = 0; i < 256; ++i) b[32 * (i / 128) + i % 32] |= static_cast<uint8_t>((t[i] + 1) << (2 * ((i % 128) / 32)));
}

// 32 values to nibbles of the nearest of 16 levels, x[i] / d.
void nibble_levels(const float* x, float d, const int8_t* levels, uint8_t* qs) {
    int code[32];
    for (int i = 0; i < 32; ++i) code[i] = d != 0.0f ? nearest_level(x[i] / d, levels, 16) : nearest_level(0.0f, levels, 16);
    for (int j = 0; j < 16; ++j) qs[j] = static_cast<uint8_t>(code[j] | (code[j + 16] << 4));
}

void quant_iq4_nl(const float* x, uint8_t* b) {
    const float d = store_half(b, signed_absmax(x, 32) / -127.0f);
    nibble_levels(x, d, iq::kIq4nlValues, b + 2);
}

void quant_iq4_xs(const float* x, uint8_t* b) {
    float scale[8];
    float max_scale = 0.0f;
    for (int s = 0; s < 8; ++s) {
        scale[s] = signed_absmax(x + 32 * s, 32) / -127.0f;
        max_scale = std::max(max_scale, std::fabs(scale[s]));
    }
    const float d = store_half(b, max_scale / 31.0f);
    uint16_t high = 0;
    std::memset(b + 4, 0, 4);
    for (int s = 0; s < 8; ++s) {
        const int ls = d > 0.0f ? round_clamp(scale[s] / d, -32, 31) : 0;
        const int code = ls + 32;
        b[4 + s / 2] = static_cast<uint8_t>(b[4 + s / 2] | ((code & 15) << (4 * (s % 2))));
        high = static_cast<uint16_t>(high | ((code >> 4) << (2 * s)));
        nibble_levels(x + 32 * s, d * static_cast<float>(ls), iq::kIq4nlValues, b + 8 + 16 * s);
    }
    store_le16(b + 2, high);
}

void quant_mxfp4(const float* x, uint8_t* b) {
    const float amax = absmax(x, 32);
    const int e = amax > 0.0f ? std::clamp(static_cast<int>(std::ceil(std::log2(amax / 12.0f))) + 128, 0, 255) : 0;
    b[0] = static_cast<uint8_t>(e);
    nibble_levels(x, qblock::e8m0_half(b[0]), iq::kMxfp4Values, b + 1);
}

// The grid point nearest |x| / db over `count` points of kN coordinates.
template <class T, int kN>
int nearest_point(const float* magnitude, const T (*points)[kN], int count) {
    int best = 0;
    float best_err = std::numeric_limits<float>::max();
    for (int p = 0; p < count; ++p) {
        float err = 0.0f;
        for (int j = 0; j < kN; ++j) {
            const float e = magnitude[j] - static_cast<float>(points[p][j]);
            err += e * e;
        }
        if (err < best_err) {
            best_err = err;
            best = p;
        }
    }
    return best;
}

// The sign bits of 8 values; with `seven_bits`, the one of smallest magnitude is flipped where
// needed so that the count of negative values is even (the format stores 7 bits).
uint8_t sign_bits(const float* x, bool seven_bits) {
    uint8_t bits = 0;
    for (int j = 0; j < 8; ++j) bits = static_cast<uint8_t>(bits | ((x[j] < 0.0f ? 1 : 0) << j));
    if (seven_bits && (__builtin_popcount(bits) & 1)) {
        int smallest = 0;
        for (int j = 1; j < 8; ++j) {
            if (std::fabs(x[j]) < std::fabs(x[smallest])) smallest = j;
        }
        bits = static_cast<uint8_t>(bits ^ (1 << smallest));
    }
    return bits;
}

// The lattice types' shared steps: the scale codes l4 (one per 256 / kScales values) from the
// extreme magnitudes, so that each group's largest value meets the grid's largest level.
// db(l4) = d * step(l4); returns d.
template <int kScales, class Step>
float lattice_scales(const float* x, float top_level, Step step, uint8_t* d_at, uint8_t l4[kScales]) {
    constexpr int kLen = 256 / kScales;
    float want[kScales];
    float max_want = 0.0f;
    for (int s = 0; s < kScales; ++s) {
        want[s] = absmax(x + kLen * s, kLen) / top_level;
        max_want = std::max(max_want, want[s]);
    }
    const float d = store_half(d_at, max_want / step(15));
    for (int s = 0; s < kScales; ++s) {
        int best = 0;
        for (int c = 1; c < 16; ++c) {
            if (std::fabs(d * step(c) - want[s]) < std::fabs(d * step(best) - want[s])) best = c;
        }
        l4[s] = static_cast<uint8_t>(best);
    }
    return d;
}

// Magnitudes of 8 values over db.
void magnitudes(const float* x, float db, float m[8]) {
    for (int j = 0; j < 8; ++j) m[j] = db > 0.0f ? std::fabs(x[j]) / db : 0.0f;
}

float iq2_step(int l4) { return (0.5f + static_cast<float>(l4)) * 0.25f; }
float iq3_xxs_step(int l4) { return (0.5f + static_cast<float>(l4)) * 0.5f; }
float iq3_s_step(int l4) { return static_cast<float>(1 + 2 * l4); }

void quant_iq2_xxs(const float* x, uint8_t* b) {
    uint8_t l4[8];
    const float d = lattice_scales<8>(x, 43.0f, iq2_step, b, l4);
    const iq::Grids& g = iq::grids();
    for (int s = 0; s < 8; ++s) {
        uint32_t signs_scale = static_cast<uint32_t>(l4[s]) << 28;
        for (int l = 0; l < 4; ++l) {
            const float* xg = x + 32 * s + 8 * l;
            float m[8];
            magnitudes(xg, d * iq2_step(l4[s]), m);
            b[2 + 8 * s + l] = static_cast<uint8_t>(nearest_point(m, g.iq2xxs, 256));
            signs_scale |= static_cast<uint32_t>(sign_bits(xg, true) & 127) << (7 * l);
        }
        store_le32(b + 2 + 8 * s + 4, signs_scale);
    }
}

void quant_iq2_xs(const float* x, uint8_t* b) {
    uint8_t l4[16];
    const float d = lattice_scales<16>(x, 43.0f, iq2_step, b, l4);
    const iq::Grids& g = iq::grids();
    for (int group = 0; group < 32; ++group) {
        const float* xg = x + 8 * group;
        float m[8];
        magnitudes(xg, d * iq2_step(l4[group / 2]), m);
        const int point = nearest_point(m, g.iq2xs, 512);
        store_le16(b + 2 + 2 * group, static_cast<uint16_t>(point | ((sign_bits(xg, true) & 127) << 9)));
    }
    for (int s = 0; s < 8; ++s) b[66 + s] = static_cast<uint8_t>(l4[2 * s] | (l4[2 * s + 1] << 4));
}

void quant_iq2_s(const float* x, uint8_t* b) {
    uint8_t l4[16];
    const float d = lattice_scales<16>(x, 43.0f, iq2_step, b, l4);
    const iq::Grids& g = iq::grids();
    std::memset(b + 66, 0, 8);
    for (int group = 0; group < 32; ++group) {
        const float* xg = x + 8 * group;
        float m[8];
        magnitudes(xg, d * iq2_step(l4[group / 2]), m);
        const int point = nearest_point(m, g.iq2s, 1024);
        b[2 + group] = static_cast<uint8_t>(point & 255);
        b[66 + group / 4] = static_cast<uint8_t>(b[66 + group / 4] | ((point >> 8) << (2 * (group % 4))));
        b[34 + group] = sign_bits(xg, false);
    }
    for (int s = 0; s < 8; ++s) b[74 + s] = static_cast<uint8_t>(l4[2 * s] | (l4[2 * s + 1] << 4));
}

void quant_iq3_xxs(const float* x, uint8_t* b) {
    uint8_t l4[8];
    const float d = lattice_scales<8>(x, 62.0f, iq3_xxs_step, b, l4);
    const iq::Grids& g = iq::grids();
    for (int s = 0; s < 8; ++s) {
        uint32_t signs_scale = static_cast<uint32_t>(l4[s]) << 28;
        for (int l = 0; l < 4; ++l) {
            const float* xg = x + 32 * s + 8 * l;
            float m[8];
            magnitudes(xg, d * iq3_xxs_step(l4[s]), m);
            b[2 + 8 * s + 2 * l] = static_cast<uint8_t>(nearest_point(m, g.iq3xxs, 256));
            b[2 + 8 * s + 2 * l + 1] = static_cast<uint8_t>(nearest_point(m + 4, g.iq3xxs, 256));
            signs_scale |= static_cast<uint32_t>(sign_bits(xg, true) & 127) << (7 * l);
        }
        store_le32(b + 66 + 4 * s, signs_scale);
    }
}

void quant_iq3_s(const float* x, uint8_t* b) {
    uint8_t l4[8];
    const float d = lattice_scales<8>(x, 15.0f, iq3_s_step, b, l4);
    const iq::Grids& g = iq::grids();
    std::memset(b + 66, 0, 8);
    for (int s = 0; s < 8; ++s) {
        for (int l = 0; l < 4; ++l) {
            const float* xg = x + 32 * s + 8 * l;
            float m[8];
            magnitudes(xg, d * iq3_s_step(l4[s]), m);
            for (int half = 0; half < 2; ++half) {
                const int point = nearest_point(m + 4 * half, g.iq3s, 512);
                b[2 + 8 * s + 2 * l + half] = static_cast<uint8_t>(point & 255);
                b[66 + s] = static_cast<uint8_t>(b[66 + s] | ((point >> 8) << (2 * l + half)));
            }
            b[74 + 4 * s + l] = sign_bits(xg, false);
        }
    }
    for (int s = 0; s < 4; ++s) b[106 + s] = static_cast<uint8_t>(l4[2 * s] | (l4[2 * s + 1] << 4));
}

// IQ1: the nearest kIq1s point of 8 values over dl with the shift delta (±0.125); its error.
int iq1_point(const float* x, float dl, float delta, float& err) {
    float m[8];
    for (int j = 0; j < 8; ++j) m[j] = dl > 0.0f ? x[j] / dl - delta : 0.0f;
    const iq::Grids& g = iq::grids();
    const int p = nearest_point(m, g.iq1s, 2048);
    err = 0.0f;
    for (int j = 0; j < 8; ++j) {
        const float e = m[j] - static_cast<float>(g.iq1s[p][j]);
        err += e * e;
    }
    return p;
}

// IQ1 scale codes l3 (dl = d * (2 * l3 + 1)), one per 256 / kScales values, for the stored d.
template <int kScales>
void iq1_scales(const float* x, float d, uint8_t l3[kScales]) {
    constexpr int kLen = 256 / kScales;
    for (int s = 0; s < kScales; ++s) {
        const float want = absmax(x + kLen * s, kLen) / 1.125f;
        l3[s] = static_cast<uint8_t>(d > 0.0f ? round_clamp((want / d - 1.0f) / 2.0f, 0, 7) : 0);
    }
}

float iq1_max_scale(const float* x, int len) {
    float m = 0.0f;
    for (int s = 0; s < 256 / len; ++s) m = std::max(m, absmax(x + len * s, len) / 1.125f);
    return m / 15.0f;
}

void quant_iq1_s(const float* x, uint8_t* b) {
    uint8_t l3[8];
    const float d = store_half(b, iq1_max_scale(x, 32));
    iq1_scales<8>(x, d, l3);
    for (int s = 0; s < 8; ++s) {
        const float dl = d * static_cast<float>(2 * l3[s] + 1);
        int points[2][4];
        float total[2] = {0.0f, 0.0f};
        for (int sign = 0; sign < 2; ++sign) {
            for (int l = 0; l < 4; ++l) {
                float err = 0.0f;
                points[sign][l] = iq1_point(x + 32 * s + 8 * l, dl, sign ? -0.125f : 0.125f, err);
                total[sign] += err;
            }
        }
        const int sign = total[1] < total[0] ? 1 : 0;
        uint16_t qh = static_cast<uint16_t>((l3[s] << 12) | (sign << 15));
        for (int l = 0; l < 4; ++l) {
            b[2 + 4 * s + l] = static_cast<uint8_t>(points[sign][l] & 255);
            qh = static_cast<uint16_t>(qh | ((points[sign][l] >> 8) << (3 * l)));
        }
        store_le16(b + 34 + 2 * s, qh);
    }
}

void quant_iq1_m(const float* x, uint8_t* b) {
    // the fp16 scale goes in the top nibbles of the four scale words
    const uint16_t d_bits = fp32_to_fp16(iq1_max_scale(x, 16));
    uint8_t l3[16];
    const float d = fp16_to_fp32(d_bits);
    iq1_scales<16>(x, d, l3);
    std::memset(b + 32, 0, 16);
    for (int group = 0; group < 32; ++group) {
        const float dl = d * static_cast<float>(2 * l3[group / 2] + 1);
        float err_plus = 0.0f;
        float err_minus = 0.0f;
        const int plus = iq1_point(x + 8 * group, dl, 0.125f, err_plus);
        const int minus = iq1_point(x + 8 * group, dl, -0.125f, err_minus);
        const bool negative = err_minus < err_plus;
        const int point = negative ? minus : plus;
        b[group] = static_cast<uint8_t>(point & 255);
        const int nibble = (point >> 8) | (negative ? 8 : 0);
        const int s = group / 4;
        const int l = group % 4;
        b[32 + 2 * s + l / 2] = static_cast<uint8_t>(b[32 + 2 * s + l / 2] | (nibble << (4 * (l % 2))));
    }
    for (int k = 0; k < 4; ++k) {
        uint16_t word = static_cast<uint16_t>(((d_bits >> (4 * k)) & 15) << 12);
        for (int c = 0; c < 4; ++c) word = static_cast<uint16_t>(word | (l3[4 * k + c] << (3 * c)));
        store_le16(b + 48 + 2 * k, word);
    }
}

template <class Fn>
void for_blocks(const float* src, uint8_t* dst, int64_t n, int values, int bytes, Fn fn) {
    for (int64_t b = 0; b < n / values; ++b) fn(src + b * values, dst + b * bytes);
}

} // namespace

bool quantize_low_bit_row(TensorType type, const float* src, uint8_t* dst, int64_t n) {
    switch (type) {
    case TensorType::Q2_K: for_blocks(src, dst, n, kQK_K, kQ2_KBytes, quant_q2_k); return true;
    case TensorType::Q3_K: for_blocks(src, dst, n, kQK_K, kQ3_KBytes, quant_q3_k); return true;
    case TensorType::TQ1_0: for_blocks(src, dst, n, kQK_K, kTQ1_0Bytes, quant_tq1_0); return true;
    case TensorType::TQ2_0: for_blocks(src, dst, n, kQK_K, kTQ2_0Bytes, quant_tq2_0); return true;
    case TensorType::IQ4_NL: for_blocks(src, dst, n, kQK, kIQ4_NLBytes, quant_iq4_nl); return true;
    case TensorType::IQ4_XS: for_blocks(src, dst, n, kQK_K, kIQ4_XSBytes, quant_iq4_xs); return true;
    case TensorType::MXFP4: for_blocks(src, dst, n, kQK, kMXFP4Bytes, quant_mxfp4); return true;
    case TensorType::IQ2_XXS: for_blocks(src, dst, n, kQK_K, kIQ2_XXSBytes, quant_iq2_xxs); return true;
    case TensorType::IQ2_XS: for_blocks(src, dst, n, kQK_K, kIQ2_XSBytes, quant_iq2_xs); return true;
    case TensorType::IQ2_S: for_blocks(src, dst, n, kQK_K, kIQ2_SBytes, quant_iq2_s); return true;
    case TensorType::IQ3_XXS: for_blocks(src, dst, n, kQK_K, kIQ3_XXSBytes, quant_iq3_xxs); return true;
    case TensorType::IQ3_S: for_blocks(src, dst, n, kQK_K, kIQ3_SBytes, quant_iq3_s); return true;
    case TensorType::IQ1_S: for_blocks(src, dst, n, kQK_K, kIQ1_SBytes, quant_iq1_s); return true;
    case TensorType::IQ1_M: for_blocks(src, dst, n, kQK_K, kIQ1_MBytes, quant_iq1_m); return true;
    default: return false;
    }
}

} // namespace octo
