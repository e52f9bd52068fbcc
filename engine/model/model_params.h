// Hyperparameters of a transformer as the GGUF metadata states them
// (keys "<arch>.block_count", "<arch>.attention.head_count", ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"

namespace octo {

// Which layers a sliding window (<arch>.attention.sliding_window) applies to.
enum class SlidingLayers {
    None,
    All,      // every layer (phi3)
    Even,     // layers 0, 2, 4, …; the odd ones attend to everything (gemma2)
    FiveOfSix, // all but layers 5, 11, 17, … (gemma3: five local layers, then a global one)
};

struct ModelParams {
    std::string architecture;       // general.architecture ("llama", "qwen2", "phi3", ...)
    std::string name;               // general.name, empty when absent
    int64_t n_layer = 0;            // transformer blocks
    int64_t n_head = 0;             // query heads per layer
    int64_t n_head_kv = 0;          // key/value heads per layer (GQA); = n_head when absent
    int64_t n_embd = 0;             // residual stream width
    int64_t n_ff = 0;               // feed-forward hidden width
    int64_t n_vocab = 0;            // rows of token_embd (or tokenizer size for vocab-only files)
    int64_t context_length = 0;     // trained context, tokens
    int64_t n_embd_head = 0;        // attention.key_length: values per head; 0 (absent): n_embd / n_head
    int64_t n_embd_head_v = 0;      // attention.value_length; 0: the key head size
    int64_t n_rot = 0;              // rotated dims per head; = head_dim when absent
    double rope_freq_base = 10000.0;
    std::string rope_scaling_type;  // rope.scaling.type: "", "none", "linear", "yarn" ...
    double rope_freq_scale = 1.0;   // 1 / rope.scaling.factor (or rope.scale_linear)
    int64_t rope_orig_context = 0;  // rope.scaling.original_context_length (0: context_length)
    double rope_attn_factor = 1.0;  // rope.scaling.attn_factor: scales RoPE's cos and sin (LongRoPE)
    // attention.sliding_window: a query at p sees keys j with p - j < W; 0: no window; -1: the
    // architecture needs the key and the file lacks it (validate_hparams refuses).
    int64_t sliding_window = 0;
    SlidingLayers sliding_layers = SlidingLayers::None; // which layers it applies to
    double rope_freq_base_swa = 0.0; // > 0: sliding layers' RoPE base, unscaled (gemma3); 0: the global one
    double attn_logit_softcap = 0.0;  // > 0: attention scores soft-capped (gemma2)
    double final_logit_softcap = 0.0; // > 0: logits soft-capped (gemma2)
    double attn_scale = 0.0;        // attention scores are q·k · attn_scale; 0: 1 / sqrt(head_dim)
    double rms_norm_eps = 1e-5;
    int64_t n_expert = 0;           // expert_count: a mixture-of-experts FFN (docs/moe.md); 0: dense
    int64_t n_expert_used = 0;      // expert_used_count: experts each token runs through
    int64_t n_ff_exp = 0;           // expert_feed_forward_length: one expert's hidden width (experts only;
                                    // absent: n_ff, or n_ff / n_expert_used for qwen2moe, as llama.cpp)
    int64_t n_ff_shexp = 0;         // expert_shared_feed_forward_length: the shared expert's (absent: n_ff)
    int64_t n_router_groups = 0;    // router.group_count: head groups a per-token router gates (octet); 0: none
    // Multi-head latent attention (deepseek2, ArchitectureInfo::latent_attention): queries through
    // a rank-q_lora_rank bottleneck (0: one attn_q matrix, as V2-Lite), keys and values from one
    // shared latent of kv_lora_rank values plus a RoPE part of n_rot values, the only thing cached.
    int64_t n_lora_q = 0;           // attention.q_lora_rank
    int64_t n_lora_kv = 0;          // attention.kv_lora_rank; > 0 with latent attention
    int64_t n_layer_dense_lead = 0; // leading_dense_block_count: layers 0..n-1 have a dense FFN, not experts
    int64_t n_expert_shared = 0;    // expert_shared_count: shared experts (their width n_ff_exp each)
    bool expert_gating_sigmoid = false; // expert_gating_func 2: sigmoid per expert instead of a softmax
    bool expert_weights_norm = false;   // expert_weights_norm (set from the architecture's default where it reads no key)
    double expert_weights_scale = 1.0;  // expert_weights_scale: the chosen experts' weights times this
    double rope_yarn_log_mul = 0.0;     // rope.scaling.yarn_log_multiplier: YaRN's score scale (deepseek2)

    // The sliding window of layer il, or 0 when it attends to every earlier position.
    int64_t layer_window(int64_t il) const {
        return sliding_window > 0 && is_sliding_layer(il) ? sliding_window : 0;
    }
    bool is_sliding_layer(int64_t il) const {
        switch (sliding_layers) {
        case SlidingLayers::None: return false;
        case SlidingLayers::All: return true;
        case SlidingLayers::Even: return il % 2 == 0;
        case SlidingLayers::FiveOfSix: return il % 6 != 5;
        }
        return false;
    }
    int64_t head_dim() const { return n_embd_head > 0 ? n_embd_head : (n_head > 0 ? n_embd / n_head : 0); }
    int64_t n_embd_q() const { return n_head * head_dim(); }     // query width
    int64_t n_embd_kv() const { return n_head_kv * head_dim(); } // key and value width (not latent attention)
    // A head's output values (attention.value_length): head_dim() except under latent attention.
    int64_t head_dim_v() const { return n_embd_head_v > 0 ? n_embd_head_v : head_dim(); }
    // The attention output's width, attn_output's input: n_head × head_dim_v. "A head" of the
    // instrumentation is one head_dim_v slice of it, whatever the attention's form.
    int64_t n_embd_out() const { return n_head * head_dim_v(); }
    bool latent_attention() const { return n_lora_kv > 0; }
    // What the KV cache holds per position and layer: n_kv_heads() rows of kv_head_dim() values.
    // Latent attention: one row of the latent and the rotated key part [n_rot | kv_lora], which
    // serves as key and as value (KvCacheShape::values_in_keys).
    int64_t n_kv_heads() const { return latent_attention() ? 1 : n_head_kv; }
    int64_t kv_head_dim() const { return latent_attention() ? n_lora_kv + n_rot : head_dim(); }
    bool layer_has_experts(int64_t il) const { return n_expert > 0 && il >= n_layer_dense_lead; }
};

// Reads what the metadata says. Missing keys stay 0, wrong types are errors;
// validate_model() decides whether the values can be run.
Result<ModelParams> read_model_params(const GgufFile& file);

} // namespace octo
