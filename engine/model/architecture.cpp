#include "engine/model/architecture.h"

#include <array>
#include <cstdio>

namespace octo {

namespace {

// Each row as llama.cpp loads the architecture (qwen3 from later llama.cpp than c392e50, which
// lacks it). docs/models.md says how each was verified.
constexpr std::array kArchitectures = {
    ArchitectureInfo{.name = "llama", .rope_freqs = true, .expert_width = ExpertWidth::DenseWidth},
    ArchitectureInfo{.name = "qwen2", .neox_rope = true, .qkv_bias = true, .rope_freqs = true, .released_rope_base = 1e6f},
    ArchitectureInfo{.name = "qwen3", .neox_rope = true, .qk_norm = QkNorm::PerHead, .released_rope_base = 1e6f},
    ArchitectureInfo{.name = "phi3",
                     .neox_rope = true,
                     .fused_qkv = true,
                     .fused_gate_up = true,
                     .long_rope = true,
                     .sliding = SlidingLayers::All,
                     .scales_queries = true,
                     .window_default = WindowDefault::Phi3},
    ArchitectureInfo{.name = "gemma2",
                     .neox_rope = true,
                     .sliding = SlidingLayers::Even,
                     .embed_scale = true,
                     .gelu_ffn = true,
                     .post_norms = true,
                     .attn_softcap = true,
                     .final_softcap = true,
                     .scales_queries = true,
                     .window_default = WindowDefault::Gemma2,
                     .width_scaled_queries_at = 46},
    // Gemma 3's text model (later llama.cpp than c392e50): gemma2 without soft-capping, with
    // per-head q/k RMSNorm, five local layers to one global, and a RoPE base of its own for the
    // local ones.
    ArchitectureInfo{.name = "gemma3",
                     .neox_rope = true,
                     .qk_norm = QkNorm::PerHead,
                     .sliding = SlidingLayers::FiveOfSix,
                     .embed_scale = true,
                     .gelu_ffn = true,
                     .post_norms = true,
                     .scales_queries = true,
                     .local_rope_base = true,
                     .width_scaled_queries_at = 62,
                     .released_rope_base = 1e6f},
    // Mixtures of experts besides Mixtral-style llama (docs/moe.md): Qwen1.5/2-MoE's routed
    // experts plus a gated shared expert, weights not renormalised; OLMoE's whole-width q/k norms;
    // Qwen3-MoE (later llama.cpp than c392e50) is qwen3's attention with renormalised experts.
    ArchitectureInfo{.name = "qwen2moe",
                     .neox_rope = true,
                     .qkv_bias = true,
                     .requires_experts = true,
                     .renormalise_experts = false,
                     .shared_expert = true,
                     .shared_expert_gate = true,
                     .expert_width = ExpertWidth::PerUsedExpert},
    ArchitectureInfo{.name = "olmoe", .neox_rope = true, .qk_norm = QkNorm::Whole, .requires_experts = true,
                     .renormalise_experts = false, .expert_width = ExpertWidth::DenseWidth},
    ArchitectureInfo{.name = "qwen3moe", .neox_rope = true, .qk_norm = QkNorm::PerHead, .requires_experts = true},
    // gpt-oss (later llama.cpp than c392e50): biased q/k/v/o projections, a sink logit per head,
    // a 128-position window on even layers, biased experts behind a biased router whose chosen
    // logits are soft-maxed (the same weights as softmax probabilities renormalised over the
    // chosen: p_k / Σ p = e^l_k / Σ e^l), the clamped SwiGLU, and the FFN norm stored under the
    // name post_attention_norm. YaRN comes from the file's rope.scaling keys, as for any row.
    ArchitectureInfo{.name = "gpt-oss",
                     .neox_rope = true,
                     .qkv_bias = true,
                     .output_bias = true,
                     .attn_sinks = true,
                     .sliding = SlidingLayers::Even,
                     .requires_experts = true,
                     .expert_biases = true,
                     .clamped_swiglu = true,
                     .ffn_norm = "post_attention_norm",
                     .released_rope_base = 1.5e5f,
                     .released_untied_output = true},
    // DeepSeek-V2/V2-Lite/V3 (deepseek2): multi-head latent attention with a decoupled RoPE part
    // (pairs (2i, 2i+1)), a leading dense block, then routed experts — softmax or sigmoid gates
    // (the file says), chosen with exp_probs_b, weights optionally renormalised and scaled — plus
    // ungated shared experts. Renormalisation is off unless the file says (llama.cpp's default).
    ArchitectureInfo{.name = "deepseek2",
                     .requires_experts = true,
                     .renormalise_experts = false,
                     .shared_expert = true,
                     .latent_attention = true,
                     .leading_dense_blocks = true,
                     .expert_gating_keys = true},
    ArchitectureInfo{.name = "octet", .rope_freqs = true, .router = true, .exact_by_default = true},
};

std::string number(double v) {
    char s[32];
    std::snprintf(s, sizeof s, "%.6g", v);
    return s;
}

} // namespace

const ArchitectureInfo* find_architecture(std::string_view name) {
    for (const ArchitectureInfo& a : kArchitectures) {
        if (a.name == name) return &a;
    }
    return nullptr;
}

std::span<const ArchitectureInfo> supported_architectures() { return kArchitectures; }

std::string supported_architecture_list() {
    std::string out;
    for (const ArchitectureInfo& a : kArchitectures) out.append(out.empty() ? "" : ", ").append(a.name);
    return out;
}

std::string unsupported_architecture_message(std::string_view name) {
    return "architecture '" + std::string(name) + "' is not supported (supported: " + supported_architecture_list() + ")";
}

std::vector<std::string> architecture_features(const ArchitectureInfo& a, const ModelParams& p, const GgufFile& file) {
    std::vector<std::string> f;
    f.emplace_back(a.neox_rope ? "NeoX RoPE" : "RoPE");
    if (a.fused_qkv) f.emplace_back("fused QKV");
    if (a.fused_gate_up) f.emplace_back("fused gate/up");
    if (a.qkv_bias) f.emplace_back(a.output_bias ? "q/k/v/o biases" : "q/k/v biases");
    if (a.attn_sinks) f.emplace_back("attention sinks (one logit per head)");
    if (a.qk_norm == QkNorm::PerHead) f.emplace_back("per-head q/k RMSNorm");
    if (a.qk_norm == QkNorm::Whole) f.emplace_back("q/k RMSNorm over the whole projection");
    if (a.latent_attention) {
        f.push_back("multi-head latent attention: " +
                    (p.n_lora_q > 0 ? "queries through rank " + std::to_string(p.n_lora_q) + ", " : std::string()) +
                    "keys and values from a cached latent of " + std::to_string(p.n_lora_kv) + " + " +
                    std::to_string(p.n_rot) + " RoPE values; key head " + std::to_string(p.head_dim()) + " (" +
                    std::to_string(p.head_dim() - p.n_rot) + " + " + std::to_string(p.n_rot) + " RoPE), value head " +
                    std::to_string(p.head_dim_v()));
    } else if (p.n_embd_q() != p.n_embd) {
        f.push_back("head size " + std::to_string(p.head_dim()) + " (n_head x head size " + std::to_string(p.n_embd_q()) +
                    " != n_embd " + std::to_string(p.n_embd) + ")");
    }
    if (p.n_head_kv != p.n_head && !a.latent_attention) f.push_back("grouped-query attention (" + std::to_string(p.n_head_kv) + " KV heads)");
    if (a.rope_freqs && file.find_tensor("rope_freqs.weight")) f.emplace_back("RoPE frequency factors");
    if (a.long_rope && file.find_tensor("rope_factors_long.weight")) {
        f.push_back("LongRoPE (long factors above " + std::to_string(p.rope_orig_context) +
                    " positions, attention factor " + number(p.rope_attn_factor) + ")");
    }
    if (a.sliding != SlidingLayers::None && p.sliding_window > 0) {
        f.push_back("sliding window " + std::to_string(p.sliding_window) +
                    (a.sliding == SlidingLayers::Even        ? " on even layers"
                     : a.sliding == SlidingLayers::FiveOfSix ? " on five of every six layers"
                                                             : ""));
    }
    if (a.local_rope_base && p.rope_freq_base_swa > 0) {
        f.push_back("local layers' RoPE base " + number(p.rope_freq_base_swa));
    }
    if (a.embed_scale) f.emplace_back("embeddings x sqrt(n_embd)");
    if (a.gelu_ffn) f.emplace_back("GELU gated FFN");
    if (a.clamped_swiglu) f.emplace_back("clamped SwiGLU (alpha 1.702, limit 7)");
    if (a.post_norms) f.emplace_back("post-attention and post-FFN norms");
    if (a.attn_softcap && p.attn_logit_softcap > 0) f.push_back("attention soft-cap " + number(p.attn_logit_softcap));
    if (a.final_softcap && p.final_logit_softcap > 0) f.push_back("final logit soft-cap " + number(p.final_logit_softcap));
    if (p.attn_scale > 0) f.push_back("query scale " + number(p.attn_scale));
    if (p.rope_freq_scale != 1.0) {
        f.push_back(p.rope_scaling_type == "yarn"
                        ? "YaRN RoPE scaling x" + number(1.0 / p.rope_freq_scale) + " (original context " +
                              std::to_string(p.rope_orig_context) + ")" +
                              (p.rope_yarn_log_mul > 0 ? ", score scale log multiplier " + number(p.rope_yarn_log_mul) : "")
                        : "linear RoPE scaling x" + number(1.0 / p.rope_freq_scale));
    }
    if (p.n_expert > 0) {
        f.push_back("mixture of experts: " + std::to_string(p.n_expert) + " experts of width " + std::to_string(p.n_ff_exp) +
                    ", " + std::to_string(p.n_expert_used) + " per token" +
                    (a.expert_biases             ? ", softmax over the chosen experts' logits"
                     : p.expert_weights_norm ? ", weights renormalised"
                                             : ", weights as the router gives them"));
        if (a.expert_biases) f.emplace_back("biased router and experts");
        if (a.expert_gating_keys) {
            f.push_back(std::string(p.expert_gating_sigmoid ? "sigmoid" : "softmax") + " gates" +
                        (p.expert_weights_scale != 1.0 ? ", weights x" + number(p.expert_weights_scale) : std::string()));
        }
        if (a.shared_expert) {
            f.push_back(std::string(a.shared_expert_gate ? "gated shared expert" : "shared expert") + " of width " +
                        std::to_string(p.n_ff_shexp));
        }
        if (p.n_layer_dense_lead > 0) f.push_back(std::to_string(p.n_layer_dense_lead) + " leading dense block(s)");
    }
    if (a.router) f.push_back("head-group router (" + std::to_string(p.n_router_groups) + " groups)");
    return f;
}

} // namespace octo
