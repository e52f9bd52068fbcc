// Integer kernels, AVX-VNNI: one vpdpbusd (VEX) per four u8 × i8 products.
// The kernels themselves: quant_matmul_x86.inc.
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/gguf/block_values.h"
#include "engine/gguf/iq_grids.h"
#include "engine/gguf/quant_blocks.h"

#define OCTO_Q __attribute__((target("avx2,fma,f16c,avxvnni")))

namespace octo {

namespace avxvnni_kernels {

OCTO_Q inline __m256i dot_u8_i8(__m256i u, __m256i s) { return _mm256_dpbusd_avx_epi32(_mm256_setzero_si256(), u, s); }
#define OCTO_Q_DOT dot_u8_i8

#include "engine/backend/cpu/quant_matmul_x86.inc"

#undef OCTO_Q_DOT

} // namespace avxvnni_kernels

QuantKernel avxvnni_quant_matmul_kernel(TensorType type) { return avxvnni_kernels::kernel_for(type); }
QuantKernel avxvnni_q4_0_blockwise_kernel() { return avxvnni_kernels::q4_0_blockwise_kernel(); }

} // namespace octo
