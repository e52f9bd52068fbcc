// The tensors of a model, bound by name to the GGUF file's tensor table as its architecture
// (architecture.h) names them. Nothing is copied: every field points at a GgufTensorInfo whose
// `data` lies in the memory map. Shapes are GGUF ne[] (innermost first): a matrix [n_in, n_out]
// has n_out rows of n_in values. n_q = n_head * head_dim (= n_embd unless attention.key_length
// says otherwise), n_kv = n_head_kv * head_dim.
#pragma once

#include <vector>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/model/architecture.h"
#include "engine/model/model_params.h"

namespace octo {

struct LayerWeights {
    const GgufTensorInfo* attn_norm = nullptr;   // [n_embd] F32
    const GgufTensorInfo* attn_q = nullptr;      // [n_embd, n_q]; null with a fused attn_qkv
    const GgufTensorInfo* attn_k = nullptr;      // [n_embd, n_kv]; null with a fused attn_qkv
    const GgufTensorInfo* attn_v = nullptr;      // [n_embd, n_kv]; null with a fused attn_qkv
    const GgufTensorInfo* attn_qkv = nullptr;    // [n_embd, n_q + 2 n_kv], rows Q, K, V (fused_qkv), or null
    const GgufTensorInfo* attn_q_bias = nullptr; // [n_q] F32 (qkv_bias; null otherwise)
    const GgufTensorInfo* attn_k_bias = nullptr; // [n_kv] F32 (qkv_bias)
    const GgufTensorInfo* attn_v_bias = nullptr; // [n_kv] F32 (qkv_bias)
    const GgufTensorInfo* attn_q_norm = nullptr; // [head_dim] F32 (QkNorm::PerHead), [n_q] (Whole); null otherwise
    const GgufTensorInfo* attn_k_norm = nullptr; // [head_dim] F32 (QkNorm::PerHead), [n_kv] (Whole)
    // Latent attention (ArchitectureInfo::latent_attention; attn_q/k/v null then, except attn_q
    // without a q_lora_rank). nope = head_dim - n_rot:
    const GgufTensorInfo* attn_q_a = nullptr;       // [n_embd, n_lora_q]
    const GgufTensorInfo* attn_q_a_norm = nullptr;  // [n_lora_q] F32
    const GgufTensorInfo* attn_q_b = nullptr;       // [n_lora_q, n_q]: head h's rows h·head_dim …, nope then RoPE part
    const GgufTensorInfo* attn_kv_a_mqa = nullptr;  // [n_embd, n_lora_kv + n_rot]: rows latent, then the key's RoPE part
    const GgufTensorInfo* attn_kv_a_norm = nullptr; // [n_lora_kv] F32
    const GgufTensorInfo* attn_kv_b = nullptr;      // [n_lora_kv, n_head (nope + head_dim_v)]: head h's key rows, then value rows
    // ... or, in files of newer converters, the same split per head (attn_kv_b null then):
    const GgufTensorInfo* attn_k_b = nullptr;       // [nope, n_lora_kv, n_head]: head h's key rows transposed
    const GgufTensorInfo* attn_v_b = nullptr;       // [n_lora_kv, head_dim_v, n_head]: head h's value rows
    const GgufTensorInfo* attn_output = nullptr; // [n_embd_out, n_embd] (n_embd_out = n_q but under latent attention)
    const GgufTensorInfo* attn_output_bias = nullptr; // [n_embd] F32 (output_bias; null otherwise)
    const GgufTensorInfo* attn_sinks = nullptr;  // [n_head] F32 sink logits (attn_sinks; null otherwise)
    const GgufTensorInfo* ffn_norm = nullptr;    // [n_embd] F32 (named as ArchitectureInfo::ffn_norm says)
    const GgufTensorInfo* ffn_gate = nullptr;    // [n_embd, n_ff]; null with a fused ffn_up
    const GgufTensorInfo* ffn_up = nullptr;      // [n_embd, n_ff], or [n_embd, 2 n_ff] rows gate then up (fused_gate_up)
    const GgufTensorInfo* ffn_down = nullptr;    // [n_ff, n_embd]
    const GgufTensorInfo* router = nullptr;      // [n_embd, n_router_groups] F32 gate logits (octet), or null
    const GgufTensorInfo* attn_post_norm = nullptr; // [n_embd] F32: post_attention_norm (post_norms), or null
    const GgufTensorInfo* ffn_post_norm = nullptr;  // [n_embd] F32: post_ffw_norm (post_norms), or null
    // Mixture of experts (n_expert > 0; ffn_gate/up/down are null then):
    const GgufTensorInfo* ffn_gate_inp = nullptr;  // [n_embd, n_expert] router logits
    const GgufTensorInfo* ffn_gate_exps = nullptr; // [n_embd, n_ff_exp, n_expert]: expert e's gate is rows e·n_ff_exp …
    const GgufTensorInfo* ffn_up_exps = nullptr;   // [n_embd, n_ff_exp, n_expert]
    const GgufTensorInfo* ffn_down_exps = nullptr; // [n_ff_exp, n_embd, n_expert]
    const GgufTensorInfo* ffn_gate_inp_bias = nullptr;  // [n_expert] F32 (expert_biases; null otherwise)
    const GgufTensorInfo* ffn_exp_probs_b = nullptr;    // [n_expert] F32: added to the gates for choosing only (optional)
    const GgufTensorInfo* ffn_gate_exps_bias = nullptr; // [n_ff_exp, n_expert] F32: expert e's at e·n_ff_exp
    const GgufTensorInfo* ffn_up_exps_bias = nullptr;   // [n_ff_exp, n_expert] F32
    const GgufTensorInfo* ffn_down_exps_bias = nullptr; // [n_embd, n_expert] F32: expert e's at e·n_embd
    const GgufTensorInfo* ffn_gate_inp_shexp = nullptr; // [n_embd] F32: the shared expert's gate logit (shared_expert)
    const GgufTensorInfo* ffn_gate_shexp = nullptr;     // [n_embd, n_ff_shexp]
    const GgufTensorInfo* ffn_up_shexp = nullptr;       // [n_embd, n_ff_shexp]
    const GgufTensorInfo* ffn_down_shexp = nullptr;     // [n_ff_shexp, n_embd]
};

struct ModelWeights {
    const GgufTensorInfo* token_embd = nullptr;  // [n_embd, n_vocab]
    const GgufTensorInfo* output_norm = nullptr; // [n_embd] F32
    const GgufTensorInfo* output = nullptr;      // [n_embd, n_vocab]; = token_embd when tied
    bool output_tied = false;                    // the file has no output.weight
    const GgufTensorInfo* rope_freqs = nullptr;  // [n_rot / 2] F32 frequency factors, or null
    const GgufTensorInfo* rope_factors_long = nullptr;  // [head_dim / 2] F32 LongRoPE factors (long_rope), or null
    const GgufTensorInfo* rope_factors_short = nullptr; // [head_dim / 2] F32, or null
    std::vector<LayerWeights> layers;            // [n_layer]
    int64_t n_router_groups = 0;                 // head groups the routers gate; 0: no router
    const ArchitectureInfo* arch = nullptr;      // the architecture's row (never null once bound)

    bool has_router() const { return n_router_groups > 0; }
};

// Binds the tensors; call validate_model() first (it checks presence and shapes). Errors when
// a vector tensor (norm, bias, RoPE factors) is not F32.
Result<ModelWeights> bind_weights(const GgufFile& file, const ModelParams& params);

// The factors RoPE divides its frequencies by for sequences of up to n_ctx positions, as
// llama.cpp chooses them: rope_freqs when present; else LongRoPE's long factors when n_ctx
// exceeds rope.scaling.original_context_length and its short factors otherwise; else null.
const GgufTensorInfo* rope_factors(const ModelWeights& weights, const ModelParams& params, int64_t n_ctx);

} // namespace octo
