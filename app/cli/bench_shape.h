// The `--synthetic` shape of octoscope-cli bench: "768x12x12:q8_0" = n_embd × n_layer × n_head,
// or "2048x16x32x8:q4_k_m" = n_embd × n_layer × n_head × n_head_kv; then the weight type (f32,
// f16, q8_0, q4_0, q4_k, q6_k …; any type the engine can quantise to) or a llama-quantize mix
// (q4_k_m, q5_k_m: engine/model/quant_mix.h). A third part makes it a Mixtral-style mixture of
// experts: "1024x8x16x4:q4_k_m:8/2" has 8 experts per layer, 2 chosen per token.
#pragma once

#include <string>

#include "engine/core/result.h"
#include "engine/model/synthetic_model.h"

namespace octo::cli {

// A llama model spec of that shape: n_ff = 3 × n_embd; without a fourth size n_head_kv =
// n_head / 3 when it divides (else n_head); a 32,000-token vocabulary with the output tied to
// the embedding, context 4096. Experts are n_ff wide each, the router's weights uniform in ±1.
Result<SyntheticModelSpec> parse_bench_shape(const std::string& shape);

// Makes `spec` a model of architecture `arch` (--arch) with its experts in `expert_type`
// (--expert-type; empty: the shape's type). Architectures with a window get 128 (gpt-oss's);
// gpt-oss keeps an output matrix of its own (its files have one) and needs the shape's experts.
// InvalidArgument naming the problem: an unknown architecture or type, experts without a mixture,
// or an architecture that needs experts given none.
Status apply_bench_architecture(SyntheticModelSpec& spec, const std::string& arch, const std::string& expert_type);

} // namespace octo::cli
