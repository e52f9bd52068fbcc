// Prompt products on AVX-512 VNNI with the tokens across the register: 16 tokens a group, one token
// per 32-bit lane, so that a weight's four bytes are broadcast to the whole register and one
// vpdpbusd gives 16 tokens' sums of the same four products. For Q4_0 as the reference repacks it
// (quant_matmul.h: whole-block sums) a block's eight 4-product sums are added in integers and
// each token lane takes fma(sum, d_w·d_x, acc): one conversion and one fused step per block for
// 16 tokens, where the 8-lane kernels take one per block and token.
// (Q8_0's 8-lane order in this layout — eight accumulators per row, its lanes summed across them
// at the end — measured no faster than the token-pair tiles: each 4-product sum still takes its
// own conversion and fused step, and the broadcasts cost what the pairs' scale products did.)
// Activations are laid out once per product (QuantKernel::prepare), per group and 32-value block:
//   q: [4-value group j = 0..7][token 0..15][4 bytes]   (u8: q + 128)   512 bytes
//   d: float[16]                                        (0 for the tokens past the last)  64 bytes
// Q4_0's nibbles are unpacked to signed bytes (value - 8) once per row and pass over the groups:
// the dot product of q + 128 starts from -128·(the block's weight sum), so that each lane is
// exactly the signed sum. Internal to engine/backend/cpu (avx512vnni, 16 tokens or more).
#pragma once

#include <cstdint>

#include "engine/backend/cpu/quant_matmul.h"

namespace octo::token_groups {

constexpr int64_t kGroup = 16; // tokens a group

// The layout of Q8_0 activation rows (QuantKernel::prepared_bytes / prepare).
int64_t q8_0_prepared_bytes(int64_t n_in, int64_t n_tokens);
void q8_0_prepare(const QuantMatmulArgs& args, int64_t token, uint8_t* prepared);
// Q4_0 with WeightMatrix::reference_blockwise, from that layout.
void q4_0_blockwise_rows(const QuantMatmulArgs& args, int64_t row_begin, int64_t row_end);

} // namespace octo::token_groups
