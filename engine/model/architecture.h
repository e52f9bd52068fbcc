// The architectures the forward pass runs, each described as data: how it differs from the
// plain `llama` block (RMSNorm, separate Q/K/V projections, SwiGLU with separate gate and up,
// RoPE on pairs (2i, 2i+1)). Loading (model_params, model_validation, model_weights), the forward
// pass (inference/llama_forward) and `octoscope-cli info` read these flags instead of comparing
// names, so an architecture that recombines existing features is one row in architecture.cpp
// (plus its tests); a new kind of step needs a new flag and the code that honours it.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/gguf/gguf_file.h"
#include "engine/model/model_params.h"

namespace octo {

// How the queries and keys are RMS-normalised before RoPE, if at all.
enum class QkNorm {
    None,
    PerHead, // blk.N.attn_{q,k}_norm [head_dim]: every head on its own (qwen3, gemma3)
    Whole,   // blk.N.attn_q_norm [n_q], attn_k_norm [n_kv]: the whole projection (olmoe)
};

// The sliding window of a file that names none (<arch>.attention.sliding_window), as llama.cpp
// c392e50 chooses it.
enum class WindowDefault {
    None,     // -1: the architecture's sliding layers see everything
    Gemma2,   // 4,096 positions
    Phi3,     // from the layer count and context length (Phi-3 mini / medium)
};

// The experts' feed-forward width (<arch>.expert_feed_forward_length), as llama.cpp reads it.
enum class ExpertWidth {
    FromKey,       // the key, else n_ff
    DenseWidth,    // always n_ff, the key ignored (Mixtral-style llama, olmoe)
    PerUsedExpert, // the key, else n_ff / n_expert_used (qwen2moe)
};

struct ArchitectureInfo {
    std::string_view name;     // general.architecture
    bool neox_rope = false;    // RoPE rotates pairs (x[i], x[i + n_rot/2]) instead of (x[2i], x[2i+1])
    bool qkv_bias = false;     // blk.N.attn_{q,k,v}.bias [n_q], [n_kv], [n_kv] are required
    bool output_bias = false;  // blk.N.attn_output.bias [n_embd] is required (added after W_O, not per head)
    // blk.N.attn_sinks.weight [n_head]: one more logit per query head in the attention softmax's
    // denominator, a "sink" no value is read from (gpt-oss): weights e^(s_j - m) / (Σ e^(s_j - m) + e^(sink - m))
    bool attn_sinks = false;
    bool fused_qkv = false;    // blk.N.attn_qkv [n_embd -> n_q + 2 n_kv], rows Q then K then V
    bool fused_gate_up = false; // blk.N.ffn_up [n_embd -> 2 n_ff], rows gate then up (no ffn_gate)
    QkNorm qk_norm = QkNorm::None;
    bool rope_freqs = false;   // an optional rope_freqs.weight [n_rot/2] divides the frequencies
    bool long_rope = false;    // optional rope_factors_long/short [head_dim/2] (LongRoPE), chosen by context
    SlidingLayers sliding = SlidingLayers::None; // <arch>.attention.sliding_window W: a query sees only keys p - j < W
    bool embed_scale = false;  // the embeddings are multiplied by √n_embd (gemma)
    bool gelu_ffn = false;     // out = down(gelu(gate) · up), GELU in tanh form, instead of SiLU (gemma)
    bool post_norms = false;   // blk.N.post_attention_norm and post_ffw_norm: RMSNorm of each block's output before its residual add
    bool attn_softcap = false; // <arch>.attn_logit_softcapping c: scores become c · tanh(scores / c)
    bool final_softcap = false; // <arch>.final_logit_softcapping c: logits become c · tanh(logits / c)
    // The reference multiplies the queries by the attention scale after RoPE, not the scores
    // (phi3, gemma); reference precision rounds the same way (AttentionShape::scale_queries).
    bool scales_queries = false;
    bool local_rope_base = false; // sliding layers rotate with <arch>.rope.freq_base_swa (default 10000), unscaled (gemma3)
    bool router = false;       // router.group_count and blk.N.router.weight gate head groups (octet)
    // Mixture of experts (<arch>.expert_count > 0: blk.N.ffn_gate_inp and ffn_{gate,up,down}_exps
    // replace the FFN). llama files may have experts (Mixtral); these architectures must.
    bool requires_experts = false;
    bool renormalise_experts = true; // the chosen experts' probabilities are rescaled to sum 1 (Mixtral, qwen3moe)
    bool shared_expert = false; // blk.N.ffn_{gate,up,down}_shexp, a SwiGLU every token runs through
    bool shared_expert_gate = false; // ... weighted by sigmoid(h · ffn_gate_inp_shexp) (qwen2moe); else by 1 (deepseek2)
    // Multi-head latent attention (deepseek2; docs/models.md): blk.N.attn_q_a, attn_q_a_norm,
    // attn_q_b (or attn_q without attention.q_lora_rank), attn_kv_a_mqa, attn_kv_a_norm, attn_kv_b.
    // A head's key is [k_nope_h | k_rope], its value v_h, both from one cached latent (LlamaForward).
    bool latent_attention = false;
    // <arch>.leading_dense_block_count: the first layers have a dense FFN instead of experts
    bool leading_dense_blocks = false;
    // <arch>.expert_gating_func (sigmoid gates), expert_weights_norm, expert_weights_scale and an
    // optional blk.N.exp_probs_b.bias [n_expert] added to the gates for choosing only (deepseek2)
    bool expert_gating_keys = false;
    // blk.N.ffn_gate_inp.bias [n_expert] on the router's logits, ffn_{gate,up}_exps.bias
    // [n_ff_exp, n_expert] and ffn_down_exps.bias [n_embd, n_expert] on each expert's products (gpt-oss)
    bool expert_biases = false;
    // The FFN's SwiGLU clamped as gpt-oss trains it: g = min(gate, 7), u = clamp(up, -7, 7),
    // out = g · sigmoid(1.702 g) · (u + 1) (kClampedSwigluAlpha, kClampedSwigluLimit)
    bool clamped_swiglu = false;
    // blk.N.<ffn_norm>.weight: the RMSNorm before the FFN ("post_attention_norm" in gpt-oss files)
    std::string_view ffn_norm = "ffn_norm";
    WindowDefault window_default = WindowDefault::None;
    ExpertWidth expert_width = ExpertWidth::FromKey;
    // A model of this many layers scales queries by 1/√(n_embd / n_head) instead of 1/√head_dim
    // (the reference picks it by model size: Gemma 2 27B has 46, Gemma 3 27B 62); 0: never.
    int64_t width_scaled_queries_at = 0;
    bool exact_by_default = false; // runs at exact precision unless asked (octet, trained and shipped for it)
    // What the family's released files carry, for the files written here (synthetic models,
    // bench shapes): <arch>.rope.freq_base, and an output.weight of its own instead of the
    // embeddings tied (gpt-oss).
    float released_rope_base = 1e4f;
    bool released_untied_output = false;
};

// gpt-oss's SwiGLU constants (the published model code; llama.cpp hard-codes the same).
inline constexpr float kClampedSwigluAlpha = 1.702f;
inline constexpr float kClampedSwigluLimit = 7.0f;

// The row of a supported architecture, or null.
const ArchitectureInfo* find_architecture(std::string_view name);

// Every supported architecture, in the order they are listed to users.
std::span<const ArchitectureInfo> supported_architectures();

// "llama, qwen2, qwen3, phi3, octet"
std::string supported_architecture_list();

// The one sentence that refuses a file of an architecture the engine does not run.
std::string unsupported_architecture_message(std::string_view name);

// What a model of this architecture does beyond the plain llama block, one short phrase each
// (`octoscope-cli info`): e.g. "fused QKV", "per-head q/k RMSNorm", "NeoX RoPE",
// "sliding window 2047". Uses the file's values and optional tensors where they matter (window,
// head size, RoPE factors).
std::vector<std::string> architecture_features(const ArchitectureInfo& arch, const ModelParams& p,
                                               const GgufFile& file);

} // namespace octo
