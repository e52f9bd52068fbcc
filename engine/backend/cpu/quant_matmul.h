// Integer matrix-product kernels of the CPU backend at reference precision (precision.h): a
// quantised weight row times activation rows already quantised to the weight type's partner
// format (activation_quant.h), as llama.cpp's CPU backend computes it:
//   y[t, r] = Σ over blocks b of  scale(W[r], b) · scale(x[t], b) · (Σ integer products of b)
// (K-quants: per 256-value super-block, the integer sub-block products weighted by their 6-bit
// or 8-bit scales, minus the min term from the activation block sums).
//
// The integer sums are exact, so kernels for different instruction sets differ only in the
// order of the float steps. Within one kernel that order is fixed: each y element is computed
// the same way for any n_tokens, any rows given and any thread, so results are bit-identical
// across thread counts and batch splits. The scalar kernels are the reference the others are
// tested against. Internal to engine/backend/cpu.
#pragma once

#include <cstdint>

#include "engine/backend/backend.h"
#include "engine/backend/cpu/cpu_features.h"

namespace octo {

struct QuantMatmulArgs {
    const WeightMatrix* w = nullptr;
    const uint8_t* xq = nullptr; // [n_tokens][xq_row_bytes]: quantised activation rows
    int64_t xq_row_bytes = 0;
    const uint8_t* prepared = nullptr; // the rows in the kernel's own layout (QuantKernel::prepare), or null
    float* y = nullptr;          // [n_tokens, w->n_out]
    int64_t n_tokens = 0;
    // [n_tokens]: 1 where the reference evaluates the token in a batch (ProductPrecision::batched),
    // for the one type whose integer product has a batched order of its own (IQ4_NL); null: alone.
    const uint8_t* batched = nullptr;
};

// A kernel: `rows` computes y for output rows [row_begin, row_end). Kernels that read the
// activations in a layout of their own also give `prepared_bytes` (for n_tokens rows of n_in
// values; 0 when the kernel needs no layout for that many tokens, and then `prepared` is null)
// and `prepare`, which lays out token t from its quantised row; the backend calls it once per
// token before any `rows` call (tokens in parallel, each writing only its own bytes).
struct QuantKernel {
    void (*rows)(const QuantMatmulArgs& args, int64_t row_begin, int64_t row_end) = nullptr;
    int64_t (*prepared_bytes)(int64_t n_in, int64_t n_tokens) = nullptr;
    void (*prepare)(const QuantMatmulArgs& args, int64_t token, uint8_t* prepared) = nullptr;
};

// rows == nullptr when the path has no integer kernel for the type (F32/F16/BF16: float kernels).
QuantKernel scalar_quant_matmul_kernel(TensorType type);
QuantKernel avx2_quant_matmul_kernel(TensorType type);       // AVX2 multiply-add of u8 × i8
QuantKernel avxvnni_quant_matmul_kernel(TensorType type);    // AVX-VNNI dot products (256-bit)
QuantKernel avx512vnni_quant_matmul_kernel(TensorType type); // AVX-512 VNNI (512-bit)
QuantKernel avx512vnni_mxfp4_kernel(); // MXFP4 with the AVX2 kernel's bits (quant_matmul_mxfp4_avx512.cpp)
// The low-bit types (Q2_K, Q3_K, TQ1_0, TQ2_0, IQ4_NL, IQ4_XS, MXFP4, IQ2_*, IQ3_*, IQ1_*):
// scalar kernels in the reference's float order. The x86 paths have their own for Q2_K, Q3_K,
// IQ4_XS, IQ4_NL and MXFP4 (the AVX2 ones, on the AVX-512 paths too, but MXFP4's own on
// avx512vnni) and run these for the rest
// (docs/performance.md).
QuantKernel low_bit_quant_matmul_kernel(TensorType type);

// Q4_0 matrices the reference repacks (WeightMatrix::reference_blockwise): per (row, token)
//   acc = fma(float(Σ integer products of block b), d_w·d_x, acc)   for b = 0, 1, … from acc = 0,
// the order of llama.cpp's repacked x86 kernels (no lanes, no final reduction).
QuantKernel scalar_q4_0_blockwise_kernel();
QuantKernel avx2_q4_0_blockwise_kernel();
QuantKernel avxvnni_q4_0_blockwise_kernel();
QuantKernel avx512vnni_q4_0_blockwise_kernel(); // token groups, the avx2 one below 16 tokens (quant_matmul_token_groups.cpp)

// The path's kernel for the type, or the scalar one where the path has none.
inline QuantKernel quant_matmul_kernel(CpuPath path, TensorType type) {
    QuantKernel kernel;
    switch (path) {
    case CpuPath::Avx2:
    case CpuPath::Avx512: kernel = avx2_quant_matmul_kernel(type); break;
    case CpuPath::AvxVnni: kernel = avxvnni_quant_matmul_kernel(type); break;
    case CpuPath::Avx512Vnni:
        kernel = avx512vnni_quant_matmul_kernel(type);
        if (!kernel.rows) kernel = avx2_quant_matmul_kernel(type); // the low-bit types' 256-bit kernels
        break;
    case CpuPath::Scalar: break;
    }
    return kernel.rows ? kernel : scalar_quant_matmul_kernel(type);
}

// The kernel for one matrix: its type's, or the blockwise Q4_0 one (the avx512 path runs the AVX2
// kernel: the product is one fused step per block and token; avx512vnni has its own for prompts).
inline QuantKernel quant_matmul_kernel(CpuPath path, const WeightMatrix& w) {
    if (w.type != TensorType::Q4_0 || !w.reference_blockwise) return quant_matmul_kernel(path, w.type);
    switch (path) {
    case CpuPath::Avx2:
    case CpuPath::Avx512: return avx2_q4_0_blockwise_kernel();
    case CpuPath::Avx512Vnni: return avx512vnni_q4_0_blockwise_kernel();
    case CpuPath::AvxVnni: return avxvnni_q4_0_blockwise_kernel();
    case CpuPath::Scalar: break;
    }
    return scalar_q4_0_blockwise_kernel();
}

} // namespace octo
