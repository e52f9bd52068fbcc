// Activation rows rounded the way llama.cpp's CPU backend rounds them before a product with a
// weight of each type (Precision::Reference, backend/precision.h). The block formats and their
// rounding are public facts of the GGUF ecosystem:
//
//   Q8_0, partner of Q4_0 / Q5_0 / Q8_0 / IQ4_NL / MXFP4 — blocks of 32 values x:
//     amax = max |x|;  d = fp16(amax / 127);  q = round_half_even(x * (127 / amax))  (0 if amax = 0)
//   Q8_1, partner of Q4_1 / Q5_1 — as Q8_0, plus  s = fp16((amax / 127) * Σ q)
//   Q8_K, partner of the other K-quants, IQ4_XS, the IQ1/IQ2/IQ3 and the ternary types — blocks
//   of 256 values x:
//     max = the first x of largest |x|;  iscale = -127 / max;  q = min(127, round_half_even(iscale * x));
//     d = 1 / iscale (float, not fp16);  bsums[j] = Σ q[16j .. 16j+15]   (all 0 if max = 0)
//   F16 / BF16 weights: each activation rounded to fp16 / bf16 (to nearest, ties to even).
//
// The scales are kept here as the floats the reference computes with (the fp16 ones widened).
// `sum` (Σ q of a Q8_0 block) comes free with the rounding; the kernels take the sums they need
// per lane of four values themselves. Internal to engine/backend/cpu.
#pragma once

#include <cstdint>

#include "engine/gguf/tensor_type.h"

namespace octo {

struct ActQ8_0 {
    float d = 0.0f;
    int32_t sum = 0; // Σ qs
    int8_t qs[32] = {};
};

struct ActQ8_1 {
    float d = 0.0f;
    float s = 0.0f; // fp16((amax / 127) * Σ qs), widened
    int8_t qs[32] = {};
};

struct ActQ8_K {
    float d = 0.0f;
    int16_t bsums[16] = {};
    int8_t qs[256] = {};
};

// What a product with a `weight` type at reference precision makes of the activations.
enum class ActivationFormat {
    F32,  // unchanged (F32 weights, and types without a reference partner)
    F16,  // rounded to fp16 values (kept as floats)
    BF16, // rounded to bf16 values (kept as floats)
    Q8_0,
    Q8_1,
    Q8_K,
};

ActivationFormat activation_format(TensorType weight);

// Bytes one quantised row of n values takes (Q8_0/Q8_1/Q8_K; n a multiple of the block).
int64_t activation_row_bytes(ActivationFormat format, int64_t n);

// One row x[n] -> dst (n a multiple of 32 for Q8_0/Q8_1, of 256 for Q8_K), with AVX2 where the
// CPU has it; quantize_activation_row_scalar is the plain loop the SIMD code is tested against
// (the two are bit-identical).
void quantize_activation_row(ActivationFormat format, const float* x, void* dst, int64_t n);
void quantize_activation_row_scalar(ActivationFormat format, const float* x, void* dst, int64_t n);

// x[n] rounded to fp16 / bf16 and widened back (F16, BF16 formats); dst may alias x. With AVX2
// (F16C) where the CPU has it; round_activation_row_scalar is the plain loop it is tested against.
void round_activation_row(ActivationFormat format, const float* x, float* dst, int64_t n);
void round_activation_row_scalar(ActivationFormat format, const float* x, float* dst, int64_t n);

} // namespace octo
