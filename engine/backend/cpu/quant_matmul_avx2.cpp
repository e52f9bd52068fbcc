// Integer kernels, AVX2: u8 × i8 products summed in pairs to int16 (vpmaddubsw), then to int32 (vpmaddwd).
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

#define OCTO_Q __attribute__((target("avx2,fma,f16c")))

namespace octo {

namespace avx2_kernels {

OCTO_Q inline __m256i dot_u8_i8(__m256i u, __m256i s) { return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1)); }
#define OCTO_Q_DOT dot_u8_i8

#include "engine/backend/cpu/quant_matmul_x86.inc"

#undef OCTO_Q_DOT

} // namespace avx2_kernels

QuantKernel avx2_quant_matmul_kernel(TensorType type) { return avx2_kernels::kernel_for(type); }
QuantKernel avx2_q4_0_blockwise_kernel() { return avx2_kernels::q4_0_blockwise_kernel(); }

} // namespace octo
