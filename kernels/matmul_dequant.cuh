// Decode-sized matrix products (n_tokens <= kFusedMaxTokens): each weight row is decoded in
// registers and multiplied with every token's activations, never written out.
#pragma once

#include "context.cuh"

namespace octo_cuda {

constexpr int kFusedMaxTokens = 8;

int launch_matmul_dequant(OctoCudaContext* ctx, const OctoCudaWeight* w, const float* x, float* y, int64_t n_tokens,
                          ErrOut out_);

} // namespace octo_cuda
