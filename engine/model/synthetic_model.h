// Random-weight models of every supported architecture written with GgufWriter: for tests that must not
// depend on downloaded files, for `octoscope-cli bench` at realistic sizes, and for the
// quick-start demo. Every matrix is stored in one chosen weight type, or in the per-matrix types
// of a llama-quantize mix such as Q4_K_M (quant_mix.h); norms, biases and routers are F32. The
// vocabulary is printable ASCII plus newline (see write_ascii_vocab). Random weights: the output
// is noise.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/gguf/tensor_type.h"
#include "engine/model/quant_mix.h"

namespace octo {

struct SyntheticModelSpec {
    // "qwen2" adds q/k/v biases; "qwen3" q/k norms; "phi3" fuses QKV and gate/up; "octet" routers;
    // "qwen2moe", "olmoe", "qwen3moe" experts (n_expert below); "gpt-oss" experts, biases
    // everywhere, sink logits (uniform in ±2) and a window (sliding_window) on even layers.
    // The tensors follow the architecture's row in architecture.h.
    std::string architecture = "llama";
    TensorType weight_type = TensorType::F32; // every matrix's type, unless `mix` is set
    // Matrices typed as llama-quantize's mix would type them (quant_mix.h), instead of weight_type.
    std::optional<QuantMix> mix = std::nullopt;
    int64_t n_vocab = 99;   // the ASCII vocabulary: 4 specials + printable characters
    int64_t n_embd = 256;   // multiples of 256 let every type (K-quants too) store the rows
    int64_t n_ff = 256;
    int64_t n_head = 4;
    int64_t n_head_kv = 2;
    int64_t n_layer = 2;
    int64_t head_dim = 0;     // attention.key_length/value_length; 0: n_embd / n_head, keys not written
    int64_t context_length = 64;
    bool tied_output = false; // no output.weight: the embedding doubles as the output matrix
    bool rope_freqs = false;  // add a rope_freqs.weight tensor of frequency factors
    // phi3: LongRoPE factor tensors rope_factors_long/short (values in [1, 3] and [1, 1.5]), the
    // original context length they switch at and the attention factor sqrt(1 + ln(s)/ln(orig))
    // with s = context_length / orig, as convert_hf_to_gguf.py writes it.
    int64_t long_rope_original_context = 0; // 0: no factors
    int64_t sliding_window = 0; // phi3, gemma2, gemma3, gpt-oss: attention.sliding_window (always written for them; 0: none)
    float attn_logit_softcap = 0.0f;  // gemma2: attn_logit_softcapping (0: not written, the reader's default 50)
    float final_logit_softcap = 0.0f; // gemma2: final_logit_softcapping (0: not written, the reader's default 30)
    float yarn_factor = 0.0f;           // > 0: rope.scaling.type "yarn" with this factor …
    int64_t yarn_original_context = 0;  // … over rope.scaling.original_context_length positions
    float rope_freq_base_swa = 0.0f;  // gemma3: rope.freq_base_swa (0: not written, the reader's default 10000)
    uint32_t seed = 1;
    std::string chat_template = {}; // tokenizer.chat_template (Jinja text); empty: none
    int64_t router_groups = 8;      // "octet" only: head groups of the per-layer routers
    // Mixture of experts (required by qwen2moe, olmoe, qwen3moe; llama becomes Mixtral-style):
    // expert_count experts of width n_ff_exp (0: n_ff; llama and olmoe: n_ff only), the router's weights
    // uniform in ±router_spread; qwen2moe's shared expert has width n_ff.
    int64_t n_expert = 0;
    int64_t n_expert_used = 0;
    int64_t n_ff_exp = 0;
    float router_spread = 0.3f;
    std::optional<TensorType> expert_type = std::nullopt; // the experts' type (gpt-oss files: MXFP4); none: as the rest
    // deepseek2 (multi-head latent attention): head_dim is the key head (n_rot RoPE values last),
    // head_dim_v the value head; queries through rank n_lora_q (0: one attn_q), keys and values
    // from a latent of n_lora_kv; layers below n_layer_dense_lead dense (n_ff), the rest experts
    // (sigmoid gates, an exp_probs_b bias, renormalised, x2.5) plus n_expert_shared shared ones.
    int64_t n_rot = 0;
    int64_t head_dim_v = 0;
    int64_t n_lora_q = 0;
    int64_t n_lora_kv = 0;
    int64_t n_layer_dense_lead = 1;
    int64_t n_expert_shared = 1;
};

// Elements of all tensors a model of this spec holds.
int64_t synthetic_parameter_count(const SyntheticModelSpec& spec);

// The GGUF image of a model following `spec`. Errors (InvalidArgument) for shapes the
// weight types cannot store (K-quants, and so the mixes, need rows of a multiple of 256).
Result<std::vector<uint8_t>> make_synthetic_model(const SyntheticModelSpec& spec);

// A "llama" (SentencePiece-style) vocabulary as given, with <unk> 0, <s> 1, </s> 2.
void write_spm_vocab(GgufWriter& writer, const std::vector<std::string>& tokens, const std::vector<float>& scores,
                     const std::vector<int32_t>& types);

// n_vocab (>= 4) tokens: <unk>, <s>, </s>, the byte token <0x0A> (newline), one per printable
// ASCII character (space as "▁"), then unused fillers. Other text cannot be encoded (a clear
// error).
void write_ascii_vocab(GgufWriter& writer, int64_t n_vocab);

} // namespace octo
