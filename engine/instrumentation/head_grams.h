// Per-head Gram matrices of an output projection, and the explicit per-head contributions
// they stand for (the reference path of the contribution norms).
//
// W_O[n_embd, n_embd] maps the attention output z[n_head, head_dim] to the residual stream:
// W_O z = Σ_h W_h z_h, where W_h [n_embd, head_dim] are the head's head_dim columns. The
// contribution norm is ‖W_h z_h‖ = sqrt(z_hᵀ G_h z_h) with G_h = W_hᵀ W_h [head_dim, head_dim].
// With a post-attention norm (gemma) the residual receives p ⊙ W_h z_h · s (s = 1 / rms of the
// whole attention output): the Gram matrix takes p in, and the forward pass multiplies by s.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"

namespace octo {

// G_h for every head of one layer's attn_output tensor (any supported weight type, dequantised
// row by row), summed in double over the n_embd rows and rounded once to float:
// [n_head][head_dim][head_dim]. Errors when the tensor is not [n_head * head_dim, n_out] or its
// type cannot be dequantised.
// With `row_scale` ([n_out], a post-attention norm's weights p), row r counts p_r² times:
// G_h = W_hᵀ diag(p²) W_h, the Gram matrix of p ⊙ W_h z_h.
Result<std::vector<float>> head_grams(const GgufTensorInfo& attn_output, int64_t n_head, int64_t head_dim,
                                      const float* row_scale = nullptr);

// Reference path: the explicit contributions W_h z_h of one token, in double.
// w_o [n_out][n_head * head_dim] (dequantised), z [n_head * head_dim] -> [n_head][n_out].
std::vector<double> head_contributions(std::span<const float> w_o, std::span<const float> z, int64_t n_head,
                                       int64_t head_dim);

} // namespace octo
