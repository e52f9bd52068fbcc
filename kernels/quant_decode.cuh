// Device decoders of the GGUF weight types the engine runs, value for value equal to the CPU's
// dequantize_row (engine/gguf/dequantize.cpp; layouts in engine/gguf/quant_blocks.h). Products
// and sums use the _rn intrinsics so nvcc cannot contract them into FMAs (the CPU rounds each).
// Block types decode 32-value chunks (a Q4_0…Q8_0 block or a K-quant sub-block); plain types
// decode single values.
#pragma once

#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace octo_cuda {

// GGUF type ids (engine TensorType).
enum GgmlType : uint32_t {
    kF32 = 0, kF16 = 1, kQ4_0 = 2, kQ4_1 = 3, kQ5_0 = 6, kQ5_1 = 7, kQ8_0 = 8,
    kQ4_K = 12, kQ5_K = 13, kQ6_K = 14, kBF16 = 30,
};

__device__ inline float load_half(const uint8_t* p) {
    return __half2float(__ushort_as_half(static_cast<unsigned short>(p[0] | (p[1] << 8))));
}

__device__ inline uint32_t load_u32(const uint8_t* p) {
    return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) | (static_cast<uint32_t>(p[2]) << 16) |
           (static_cast<uint32_t>(p[3]) << 24);
}

template <uint32_t T> struct Decoder;

// --- plain types: value i of a row ---------------------------------------------------------------
template <> struct Decoder<kF32> {
    static constexpr bool kPlain = true;
    __device__ static float value(const uint8_t* row, int64_t i) { return reinterpret_cast<const float*>(row)[i]; }
};
template <> struct Decoder<kF16> {
    static constexpr bool kPlain = true;
    __device__ static float value(const uint8_t* row, int64_t i) {
        return __half2float(reinterpret_cast<const __half*>(row)[i]);
    }
};
template <> struct Decoder<kBF16> {
    static constexpr bool kPlain = true;
    __device__ static float value(const uint8_t* row, int64_t i) {
        return __bfloat162float(reinterpret_cast<const __nv_bfloat16*>(row)[i]);
    }
};

// --- block types: the 32 values of chunk c of a row --------------------------------------------
template <> struct Decoder<kQ4_0> {
    static constexpr bool kPlain = false;
    __device__ static void chunk(const uint8_t* row, int64_t c, float y[32]) {
        const uint8_t* b = row + c * 18;
        const float d = load_half(b);
        for (int j = 0; j < 16; ++j) {
            y[j] = __fmul_rn(static_cast<float>((b[2 + j] & 15) - 8), d);
            y[j + 16] = __fmul_rn(static_cast<float>((b[2 + j] >> 4) - 8), d);
        }
    }
};
template <> struct Decoder<kQ4_1> {
    static constexpr bool kPlain = false;
    __device__ static void chunk(const uint8_t* row, int64_t c, float y[32]) {
        const uint8_t* b = row + c * 20;
        const float d = load_half(b);
        const float m = load_half(b + 2);
        for (int j = 0; j < 16; ++j) {
            y[j] = __fadd_rn(__fmul_rn(static_cast<float>(b[4 + j] & 15), d), m);
            y[j + 16] = __fadd_rn(__fmul_rn(static_cast<float>(b[4 + j] >> 4), d), m);
        }
    }
};

// The 32 five-bit values of a Q5_0/Q5_1 block.
__device__ inline int q5_value(uint32_t qh, const uint8_t* qs, int i) {
    const int low = i < 16 ? (qs[i] & 15) : (qs[i - 16] >> 4);
    return low | static_cast<int>(((qh >> i) & 1u) << 4);
}

template <> struct Decoder<kQ5_0> {
    static constexpr bool kPlain = false;
    __device__ static void chunk(const uint8_t* row, int64_t c, float y[32]) {
        const uint8_t* b = row + c * 22;
        const float d = load_half(b);
        const uint32_t qh = load_u32(b + 2);
        for (int i = 0; i < 32; ++i) y[i] = __fmul_rn(static_cast<float>(q5_value(qh, b + 6, i) - 16), d);
    }
};
template <> struct Decoder<kQ5_1> {
    static constexpr bool kPlain = false;
    __device__ static void chunk(const uint8_t* row, int64_t c, float y[32]) {
        const uint8_t* b = row + c * 24;
        const float d = load_half(b);
        const float m = load_half(b + 2);
        const uint32_t qh = load_u32(b + 4);
        for (int i = 0; i < 32; ++i) y[i] = __fadd_rn(__fmul_rn(static_cast<float>(q5_value(qh, b + 8, i)), d), m);
    }
};
template <> struct Decoder<kQ8_0> {
    static constexpr bool kPlain = false;
    __device__ static void chunk(const uint8_t* row, int64_t c, float y[32]) {
        const uint8_t* b = row + c * 34;
        const float d = load_half(b);
        for (int i = 0; i < 32; ++i) y[i] = __fmul_rn(static_cast<float>(static_cast<int8_t>(b[2 + i])), d);
    }
};

// Scale and min of sub-block s of a Q4_K/Q5_K super-block (engine qblock::unpack_k_scale_min).
__device__ inline void k_scale_min(const uint8_t* scales, int s, int& sc, int& m) {
    if (s < 4) {
        sc = scales[s] & 63;
        m = scales[s + 4] & 63;
    } else {
        sc = (scales[s + 4] & 15) | ((scales[s - 4] >> 6) << 4);
        m = (scales[s + 4] >> 4) | ((scales[s] >> 6) << 4);
    }
}

// Sub-block s of a Q4_K (qh null) or Q5_K super-block b.
__device__ inline void k_4or5_chunk(const uint8_t* b, const uint8_t* qh, const uint8_t* qs, int s, float y[32]) {
    int sc = 0;
    int m = 0;
    k_scale_min(b + 4, s, sc, m);
    const float ds = __fmul_rn(load_half(b), static_cast<float>(sc));
    const float ms = __fmul_rn(load_half(b + 2), static_cast<float>(m));
    const uint8_t* q = qs + 32 * (s / 2);
    const int shift = 4 * (s % 2);
    for (int l = 0; l < 32; ++l) {
        int v = (q[l] >> shift) & 15;
        if (qh) v |= ((qh[l] >> s) & 1) << 4;
        y[l] = __fsub_rn(__fmul_rn(ds, static_cast<float>(v)), ms);
    }
}

template <> struct Decoder<kQ4_K> {
    static constexpr bool kPlain = false;
    __device__ static void chunk(const uint8_t* row, int64_t c, float y[32]) {
        const uint8_t* b = row + (c / 8) * 144;
        k_4or5_chunk(b, nullptr, b + 16, static_cast<int>(c % 8), y);
    }
};
template <> struct Decoder<kQ5_K> {
    static constexpr bool kPlain = false;
    __device__ static void chunk(const uint8_t* row, int64_t c, float y[32]) {
        const uint8_t* b = row + (c / 8) * 176;
        k_4or5_chunk(b, b + 16, b + 48, static_cast<int>(c % 8), y);
    }
};
template <> struct Decoder<kQ6_K> {
    static constexpr bool kPlain = false;
    // Chunk s of a super-block: half h = s / 4, quarter k = s % 4 (values 32k..32k+31 of the half).
    __device__ static void chunk(const uint8_t* row, int64_t c, float y[32]) {
        const uint8_t* b = row + (c / 8) * 210;
        const int s = static_cast<int>(c % 8);
        const int h = s / 4;
        const int k = s % 4;
        const uint8_t* ql = b + 64 * h + (k % 2) * 32;
        const uint8_t* qh = b + 128 + 32 * h;
        const int8_t* sc = reinterpret_cast<const int8_t*>(b + 192 + 8 * h);
        const float d = load_half(b + 208);
        const int low_shift = 4 * (k / 2);
        const int high_shift = 2 * k;
        for (int l = 0; l < 32; ++l) {
            const int q = ((ql[l] >> low_shift) & 15) | (((qh[l] >> high_shift) & 3) << 4);
            const float ds = __fmul_rn(d, static_cast<float>(sc[(32 * k + l) / 16]));
            y[l] = __fmul_rn(ds, static_cast<float>(q - 32));
        }
    }
};

// Calls fn(Decoder<T>) for the runtime type id; false when the type is not one of these.
template <class Fn>
bool dispatch_type(uint32_t type, Fn&& fn) {
    switch (type) {
    case kF32: fn(Decoder<kF32>{}); return true;
    case kF16: fn(Decoder<kF16>{}); return true;
    case kBF16: fn(Decoder<kBF16>{}); return true;
    case kQ4_0: fn(Decoder<kQ4_0>{}); return true;
    case kQ4_1: fn(Decoder<kQ4_1>{}); return true;
    case kQ5_0: fn(Decoder<kQ5_0>{}); return true;
    case kQ5_1: fn(Decoder<kQ5_1>{}); return true;
    case kQ8_0: fn(Decoder<kQ8_0>{}); return true;
    case kQ4_K: fn(Decoder<kQ4_K>{}); return true;
    case kQ5_K: fn(Decoder<kQ5_K>{}); return true;
    case kQ6_K: fn(Decoder<kQ6_K>{}); return true;
    default: return false;
    }
}

} // namespace octo_cuda
