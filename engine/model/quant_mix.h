// The mixed-type layouts llama.cpp's llama-quantize writes for its "_M" file types, so that a
// synthetic model (synthetic_model.h) stores each matrix in the type a real Q4_K_M / Q5_K_M file
// of the same shape would:
//
//   the output matrix (token_embd when the output is tied)          Q6_K
//   attn_v and ffn_down of layers where use_more_bits(layer, n)     Q6_K
//   every other matrix (token_embd when untied included)           the base type (Q4_K / Q5_K)
//
// Norms, biases and other vectors are not matrices and stay F32 (the caller's business).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/gguf/tensor_type.h"

namespace octo {

enum class QuantMix : uint8_t {
    Q4_K_M, // base Q4_K
    Q5_K_M, // base Q5_K
};

std::string_view quant_mix_name(QuantMix mix);                  // "Q4_K_M", "Q5_K_M"
std::optional<QuantMix> parse_quant_mix(std::string_view name); // either case: "q4_k_m", "Q4_K_M"

// The matrices of a llama-style model.
enum class MatrixRole : uint8_t {
    TokenEmbd,
    Output, // output.weight (a model with a tied output has none: its TokenEmbd plays the part)
    AttnQ,
    AttnK,
    AttnV,
    AttnOutput,
    FfnGate,
    FfnUp,
    FfnDown,
};

// llama-quantize's choice of the layers that get more bits: the first and last eighth of the
// n_layer layers, and every third layer in between.
bool use_more_bits(int64_t layer, int64_t n_layer);

// The type `mix` stores a matrix of role `role` in layer `layer` (ignored for TokenEmbd and
// Output) of an n_layer model; `tied_output`: the model has no output.weight.
TensorType quant_mix_type(QuantMix mix, MatrixRole role, int64_t layer, int64_t n_layer, bool tied_output);

} // namespace octo
