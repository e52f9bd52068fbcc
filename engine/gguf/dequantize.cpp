#include "engine/gguf/dequantize.h"

#include <string>

#include "engine/core/half.h"
#include "engine/core/le_bytes.h"
#include "engine/gguf/quant_blocks.h"

// Bit-exactness needs each product and sum rounded to float32 in the reference's order, so this
// file is compiled with -ffp-contract=off (engine/CMakeLists.txt): no fused multiply-adds.

namespace octo {

namespace {

using namespace qblock;

float load_half(const uint8_t* p) { return fp16_to_fp32(load_le16(p)); }

void dequant_q4_0(const uint8_t* b, float* y) {
    const float d = load_half(b);
    const uint8_t* qs = b + 2;
    for (int j = 0; j < 16; ++j) {
        y[j] = static_cast<float>((qs[j] & 15) - 8) * d;
        y[j + 16] = static_cast<float>((qs[j] >> 4) - 8) * d;
    }
}

void dequant_q4_1(const uint8_t* b, float* y) {
    const float d = load_half(b);
    const float m = load_half(b + 2);
    const uint8_t* qs = b + 4;
    for (int j = 0; j < 16; ++j) {
        y[j] = static_cast<float>(qs[j] & 15) * d + m;
        y[j + 16] = static_cast<float>(qs[j] >> 4) * d + m;
    }
}

// The 32 five-bit values of a Q5_0/Q5_1 block, 0..31.
void unpack_q5(uint32_t qh, const uint8_t* qs, int q[32]) {
    for (int j = 0; j < 16; ++j) {
        q[j] = (qs[j] & 15) | static_cast<int>(((qh >> j) & 1u) << 4);
        q[j + 16] = (qs[j] >> 4) | static_cast<int>(((qh >> (j + 16)) & 1u) << 4);
    }
}

void dequant_q5_0(const uint8_t* b, float* y) {
    const float d = load_half(b);
    int q[32];
    unpack_q5(load_le32(b + 2), b + 6, q);
    for (int i = 0; i < 32; ++i) y[i] = static_cast<float>(q[i] - 16) * d;
}

void dequant_q5_1(const uint8_t* b, float* y) {
    const float d = load_half(b);
    const float m = load_half(b + 2);
    int q[32];
    unpack_q5(load_le32(b + 4), b + 8, q);
    for (int i = 0; i < 32; ++i) y[i] = static_cast<float>(q[i]) * d + m;
}

void dequant_q8_0(const uint8_t* b, float* y) {
    const float d = load_half(b);
    for (int i = 0; i < 32; ++i) y[i] = static_cast<float>(static_cast<int8_t>(b[2 + i])) * d;
}

// Q4_K and Q5_K share everything but the fifth bit; qh is null for Q4_K.
void dequant_k_4or5(const uint8_t* b, const uint8_t* qh, const uint8_t* qs, float* y) {
    const float d = load_half(b);
    const float dmin = load_half(b + 2);
    const uint8_t* scales = b + 4;
    for (int s = 0; s < 8; ++s) {
        int sc = 0;
        int m = 0;
        unpack_k_scale_min(scales, s, sc, m);
        const float ds = d * static_cast<float>(sc);
        const float ms = dmin * static_cast<float>(m);
        const uint8_t* q = qs + 32 * (s / 2);
        const int shift = 4 * (s % 2);
        for (int l = 0; l < 32; ++l) {
            int v = (q[l] >> shift) & 15;
            if (qh != nullptr) v |= ((qh[l] >> s) & 1) << 4;
            y[32 * s + l] = ds * static_cast<float>(v) - ms;
        }
    }
}

void dequant_q6_k(const uint8_t* b, float* y) {
    const float d = load_half(b + 208);
    for (int h = 0; h < 2; ++h) {
        const uint8_t* ql = b + 64 * h;
        const uint8_t* qh = b + 128 + 32 * h;
        const int8_t* sc = reinterpret_cast<const int8_t*>(b + 192 + 8 * h);
        float* yh = y + 128 * h;
        for (int l = 0; l < 32; ++l) {
            const int q[4] = {
                (ql[l] & 15) | (((qh[l] >> 0) & 3) << 4),
                (ql[l + 32] & 15) | (((qh[l] >> 2) & 3) << 4),
                (ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4),
                (ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4),
            };
            for (int k = 0; k < 4; ++k) {
                const int i = l + 32 * k;
                const float ds = d * static_cast<float>(sc[i / 16]);
                yh[i] = ds * static_cast<float>(q[k] - 32);
            }
        }
    }
}

// Applies a per-block function to every block of a row.
template <class Fn>
void for_blocks(const uint8_t* src, float* dst, int64_t n, int values, int bytes, Fn fn) {
    for (int64_t b = 0; b < n / values; ++b) fn(src + b * bytes, dst + b * values);
}

} // namespace

void dequantize_row(TensorType type, const uint8_t* src, float* dst, int64_t n) {
    switch (type) {
    case TensorType::F32:
        for (int64_t i = 0; i < n; ++i) dst[i] = load_le_f32(src + 4 * i);
        return;
    case TensorType::F16:
        for (int64_t i = 0; i < n; ++i) dst[i] = fp16_to_fp32(load_le16(src + 2 * i));
        return;
    case TensorType::BF16:
        for (int64_t i = 0; i < n; ++i) dst[i] = bf16_to_fp32(load_le16(src + 2 * i));
        return;
    case TensorType::Q4_0: return for_blocks(src, dst, n, kQK, kQ4_0Bytes, dequant_q4_0);
    case TensorType::Q4_1: return for_blocks(src, dst, n, kQK, kQ4_1Bytes, dequant_q4_1);
    case TensorType::Q5_0: return for_blocks(src, dst, n, kQK, kQ5_0Bytes, dequant_q5_0);
    case TensorType::Q5_1: return for_blocks(src, dst, n, kQK, kQ5_1Bytes, dequant_q5_1);
    case TensorType::Q8_0: return for_blocks(src, dst, n, kQK, kQ8_0Bytes, dequant_q8_0);
    case TensorType::Q4_K:
        return for_blocks(src, dst, n, kQK_K, kQ4_KBytes, [](const uint8_t* b, float* y) {
            dequant_k_4or5(b, nullptr, b + 16, y);
        });
    case TensorType::Q5_K:
        return for_blocks(src, dst, n, kQK_K, kQ5_KBytes, [](const uint8_t* b, float* y) {
            dequant_k_4or5(b, b + 16, b + 48, y);
        });
    case TensorType::Q6_K: return for_blocks(src, dst, n, kQK_K, kQ6_KBytes, dequant_q6_k);
    default: dequantize_low_bit_row(type, src, dst, n); return; // or unsupported: the caller checks
    }
}

Result<std::vector<float>> dequantize_rows(const GgufTensorInfo& tensor, int64_t first_row,
                                           int64_t n_rows) {
    if (!tensor.type.supported) {
        return make_error(ErrorCode::Unsupported, "tensor '" + tensor.name + "' has type " +
                                                      std::string(tensor.type.name) +
                                                      ", which cannot be dequantised");
    }
    if (first_row < 0 || n_rows < 0 || first_row > tensor.n_rows() ||
        n_rows > tensor.n_rows() - first_row) {
        return make_error(ErrorCode::InvalidArgument,
                          "rows " + std::to_string(first_row) + "+" + std::to_string(n_rows) +
                              " out of range for tensor '" + tensor.name + "' with " +
                              std::to_string(tensor.n_rows()) + " rows");
    }
    const int64_t row_len = tensor.ne[0];
    const auto row_bytes = tensor_row_bytes(tensor.type, static_cast<uint64_t>(row_len));
    if (!row_bytes || tensor.data == nullptr) {
        return make_error(ErrorCode::InvalidModel,
                          "tensor '" + tensor.name + "' has no whole-block rows to dequantise");
    }
    std::vector<float> out(static_cast<size_t>(n_rows * row_len)); // [n_rows][row_len]
    for (int64_t r = 0; r < n_rows; ++r) {
        const uint8_t* src = tensor.data + static_cast<uint64_t>(first_row + r) * *row_bytes;
        dequantize_row(tensor.type.type, src, out.data() + r * row_len, row_len);
    }
    return out;
}

} // namespace octo
