// Integer kernels, AVX-512 VNNI: one vpdpbusd (EVEX, 256-bit) per four u8 × i8 products.
// The kernels themselves: quant_matmul_x86.inc.
#include <immintrin.h>

#include <algorithm>
#include <cstring>

#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/gguf/quant_blocks.h"

#define OCTO_Q __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,avx2,fma,f16c")))

namespace octo {

namespace avx512vnni_kernels {

OCTO_Q inline __m256i dot_u8_i8(__m256i u, __m256i s) { return _mm256_dpbusd_epi32(_mm256_setzero_si256(), u, s); }
#define OCTO_Q_DOT dot_u8_i8

#include "engine/backend/cpu/quant_matmul_x86.inc"

#undef OCTO_Q_DOT

} // namespace avx512vnni_kernels

QuantMatmulKernel avx512vnni_quant_matmul_kernel(TensorType type) { return avx512vnni_kernels::kernel_for(type); }

} // namespace octo
