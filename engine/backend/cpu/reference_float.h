// Float steps outside the matrix products, computed as the reference's CPU backend computes them
// in its AVX2 build (llama.cpp c392e50 built for AVX2 + FMA; its AVX-512 build differs from its own
// AVX2 build in these steps), for `reference` precision:
//   - exp: the reference's vector exp, a polynomial after range reduction, not the C library's
//     expf — it differs in the last bit for many inputs, which is enough to move an activation
//     across a rounding boundary of the 8-bit quantiser;
//   - SiLU as x / (1 + exp(0 - x)) with that exp;
//   - attention's q·k as its float dot product sums (four 8-lane accumulators over steps of 32),
//     the softmax's sum as it adds its exps (eight positions at a time), and the weighted sum of
//     the values in the order of its tiled product (a batch of tokens) or of its dot product (one
//     token alone), the two orders it has.
//   - the float matrix products (F32 / F16 / BF16 weights; activations rounded to the weight's
//     precision beforehand), in its two orders (reference_float_kernel, matmul_kernels.h):
//       its tiled product, for a token evaluated in a batch when the matrix is reference_tiled:
//         one 8-lane accumulator, value i to lane i % 8 by multiply-add, then lanes_sum's
//         (l + (l + 4)), (0 + 2) + (1 + 3);
//       its dot product otherwise: F32 as reference_dot; F16 the same over whole steps of 32,
//         then the rest added in double, each product rounded to float; BF16 four accumulators
//         added (0 + 2) + (1 + 3), then (l + (l + 4)), (0 + 2) + (1 + 3), the rest in double.
// Every function here gives the same bits with or without AVX2 (the scalar code uses std::fma
// where the vector code fuses), which tests/engine/backend/cpu/test_reference_float.cpp checks.
#pragma once

#include <cmath>
#include <cstdint>

namespace octo {

// The same product of F16 values (given as floats) as the reference's F16 dot product sums it:
// reference_dot's whole steps of 32, then each remaining product rounded to float and added in
// double, the total rounded to float.
float reference_dot_f16(const float* a, const float* b, int64_t n);

// Σ a[i]·b[i] in the reference's tiled order (n a multiple of 8): value i to lane i % 8 by
// multiply-add, lanes added (l + (l + 4)), then (0 + 2) + (1 + 3).
float reference_lanes_dot(const float* a, const float* b, int64_t n);

// e^x as the reference's vector code computes it: n = round(x·log2 e), b = x − n·ln 2 (in two
// fused steps), 2^n · (1 + p(b)) with a degree-5 polynomial; |n| > 126 scaled in two steps,
// |n| > 192 gives 0 or infinity.
float reference_expf(float x);

// out[i] = silu(gate[i]) · up[i] for n values from column `column` of rows of `row` values, as the
// reference computes silu row by row: x / (1 + reference_expf(0 − x)) over the whole groups of
// eight from a row's start, x / (1 + expf(−x)) (the C library's) for the rest of the row. out may
// alias gate or up.
void reference_silu_mul(const float* gate, const float* up, float* out, int64_t n, int64_t column, int64_t row);

// Σ a[i]·b[i] as the reference's float dot product: value i to accumulator (i % 32) / 8, lane
// i % 8, by multiply-add over whole steps of 32; accumulators added (0 + 2) + (1 + 3), the two
// 128-bit halves added, then two horizontal adds; then the values past the last whole step,
// as its build compiles that loop: groups of eight, then one of four, with each product rounded
// and added in order, and the last one to three values multiply-added.
float reference_dot(const float* a, const float* b, int64_t n);

// e[p] = reference_expf(s[p] − max) in place for p in [first, n), 0 before first; returns Σ e as
// the reference's softmax adds it: positions in groups of eight from 0, each group summed in float
// as ((e0 + e4) + (e2 + e6)) + ((e1 + e5) + (e3 + e7)), the groups added in double.
double reference_softmax_exp(float* s, int64_t first, int64_t n, float max);

// The same over part of a row: s[i] holds position origin + i (origin a multiple of 8, at most
// first), positions origin .. first - 1 are set to 0 and the groups start at first's group, the
// earlier ones adding nothing (exactly 0.0 in double). The same sum and exps as the whole row.
double reference_softmax_exp_from(float* s, int64_t origin, int64_t first, int64_t n, float max);

// A sink logit's term in a softmax's sum (gpt-oss: AttentionShape::sinks), added after the
// positions' exps: e^(sink - max) by the C library's expf, 0 for no sink (-inf). The maximum
// must already include the sink.
inline double softmax_sink_term(float sink, float max) { return sink > -INFINITY ? static_cast<double>(std::exp(sink - max)) : 0.0; }

// How the reference sums attention's weighted values, Σ_p w[p] · v_p[d].
enum class ValueSumOrder {
    Batch,  // its tiled product, used for a batch of two or more tokens: position p to lane
            // p % 8 by multiply-add, lanes added (l + (l + 4)), then (0 + 2) + (1 + 3)
    Single, // its dot product, used for one token alone: reference_dot's order over positions,
            // which it pads with zero weights to whole steps of 32
};

// Value rows of the attended positions: position p's row is base + cell[p] · stride.
struct ValueRows {
    const float* base = nullptr;
    int64_t stride = 0;
    const int32_t* cell = nullptr;
    const float* operator()(int64_t p) const { return base + static_cast<int64_t>(cell[p]) * stride; }
};

// out[d] = Σ_p w[p] · v_p[d] over p in [first, n) (positions before first weigh 0), head_dim values.
void reference_weighted_values(const float* w, int64_t first, int64_t n, const ValueRows& v, int64_t head_dim,
                               ValueSumOrder order, float* out);

} // namespace octo
