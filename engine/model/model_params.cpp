#include "engine/model/model_params.h"

#include <cmath>

#include "engine/model/architecture.h"

namespace octo {

namespace {

// Reads an optional integer key into `out`; absent keeps the default.
Status read_int(const GgufFile& f, const std::string& key, int64_t& out) {
    if (!f.find(key)) return Ok{};
    auto v = f.get_int(key);
    if (!v) return v.error();
    out = v.value();
    return Ok{};
}

Status read_float(const GgufFile& f, const std::string& key, double& out) {
    if (!f.find(key)) return Ok{};
    auto v = f.get_float(key);
    if (!v) return v.error();
    out = v.value();
    return Ok{};
}

// llama.cpp's defaults for Phi-3 files written before `phi3.attention.sliding_window` existed
// (keyed by layer count, context and KV heads: the 4K mini/medium and 128K mini/medium models);
// -1 when none applies.
int64_t phi3_default_window(const ModelParams& p) {
    if ((p.n_layer == 32 || p.n_layer == 40) && p.context_length == 4096) return 2047;
    if (p.n_layer == 32 && p.n_head_kv == 32 && p.context_length == 131072) return 262144;
    if (p.n_layer == 40 && p.context_length == 131072) return 131072;
    return -1;
}

bool info_latent(const std::string& architecture) {
    const ArchitectureInfo* info = find_architecture(architecture);
    return info && info->latent_attention;
}

} // namespace

namespace {

// RoPE's base, scaling type and factors (`a`: "<arch>.").
Status read_rope(const GgufFile& f, const std::string& a, ModelParams& p) {
    if (auto s = read_float(f, a + "rope.freq_base", p.rope_freq_base); !s) return s.error();
    if (f.find(a + "rope.scaling.type")) {
        auto type = f.get_string(a + "rope.scaling.type");
        if (!type) return type.error();
        p.rope_scaling_type = type.value();
    }
    double scale_factor = 0.0; // absent: no scaling
    if (auto s = read_float(f, a + "rope.scale_linear", scale_factor); !s) return s.error();
    if (auto s = read_float(f, a + "rope.scaling.factor", scale_factor); !s) return s.error();
    if (scale_factor > 0.0) p.rope_freq_scale = 1.0 / scale_factor;
    if (auto s = read_float(f, a + "rope.scaling.attn_factor", p.rope_attn_factor); !s) return s.error();
    return Ok{};
}

// What depends on the architecture's row (ArchitectureInfo): the sliding window and its default,
// Gemma's local RoPE base and soft-caps, the experts' widths and gating keys, the width-scaled
// queries of the largest Gemmas.
Status read_architecture_keys(const GgufFile& f, const std::string& a, ModelParams& p) {
    const ArchitectureInfo* info = find_architecture(p.architecture);
    // Only architectures that use a window read it (llama files may carry an unused one).
    if (info && info->sliding != SlidingLayers::None) {
        p.sliding_layers = info->sliding;
        if (f.find(a + "attention.sliding_window")) {
            if (auto s = read_int(f, a + "attention.sliding_window", p.sliding_window); !s) return s.error();
        } else {
            p.sliding_window = info->window_default == WindowDefault::Gemma2 ? 4096
                               : info->window_default == WindowDefault::Phi3 ? phi3_default_window(p)
                                                                             : -1;
        }
    }
    if (info && info->local_rope_base) {
        p.rope_freq_base_swa = 10000.0; // llama.cpp's value for Gemma 3's local layers
        if (auto s = read_float(f, a + "rope.freq_base_swa", p.rope_freq_base_swa); !s) return s.error();
    }
    // Gemma 2's defaults where the file does not say (llama.cpp c392e50 reads them optionally).
    if (info && info->attn_softcap) {
        p.attn_logit_softcap = 50.0;
        if (auto s = read_float(f, a + "attn_logit_softcapping", p.attn_logit_softcap); !s) return s.error();
    }
    if (info && info->final_softcap) {
        p.final_logit_softcap = 30.0;
        if (auto s = read_float(f, a + "final_logit_softcapping", p.final_logit_softcap); !s) return s.error();
    }
    // Experts' width as llama.cpp reads it (ExpertWidth).
    const ExpertWidth width = info ? info->expert_width : ExpertWidth::FromKey;
    if (width == ExpertWidth::DenseWidth) {
        p.n_ff_exp = p.n_expert > 0 ? p.n_ff : 0;
    } else if (p.n_expert > 0 && p.n_ff_exp == 0) {
        p.n_ff_exp = width == ExpertWidth::PerUsedExpert && p.n_expert_used > 0 ? p.n_ff / p.n_expert_used : p.n_ff;
    }
    if (!info || !info->leading_dense_blocks) p.n_layer_dense_lead = 0; // a key only deepseek2 reads
    if (info && info->shared_expert && p.n_ff_shexp == 0) {
        // deepseek2's shared experts are n_expert_shared experts' width side by side
        p.n_ff_shexp = p.n_expert_shared > 0 ? p.n_ff_exp * p.n_expert_shared : p.n_ff;
    }
    p.expert_weights_norm = info && info->renormalise_experts;
    if (info && info->expert_gating_keys) { // as llama.cpp reads deepseek2's
        if (f.find(a + "expert_weights_norm")) {
            auto norm = f.get_bool(a + "expert_weights_norm");
            if (!norm) return norm.error();
            p.expert_weights_norm = norm.value();
        }
        if (auto s = read_float(f, a + "expert_weights_scale", p.expert_weights_scale); !s) return s.error();
        int64_t gating = 0; // 0 (absent, V2 / V2.5 files) and 1: softmax; 2: sigmoid
        if (auto s = read_int(f, a + "expert_gating_func", gating); !s) return s.error();
        if (gating < 0 || gating > 2) {
            return make_error(ErrorCode::Unsupported, a + "expert_gating_func " + std::to_string(gating) +
                                                          " is not one the engine knows (1 softmax, 2 sigmoid)");
        }
        p.expert_gating_sigmoid = gating == 2;
        if (auto s = read_float(f, a + "rope.scaling.yarn_log_multiplier", p.rope_yarn_log_mul); !s) return s.error();
    }
    // an architecture whose every FFN is experts needs no dense width (gpt-oss files may omit it)
    if (info && info->requires_experts && p.n_ff == 0) p.n_ff = p.n_ff_exp;
    // Gemma 2 27B and Gemma 3 27B scale queries by the model width (ArchitectureInfo::width_scaled_queries_at).
    if (info && info->width_scaled_queries_at > 0 && p.n_layer == info->width_scaled_queries_at && p.n_head > 0) {
        p.attn_scale = 1.0 / std::sqrt(static_cast<double>(p.n_embd / p.n_head));
    }
    return Ok{};
}

} // namespace

Result<ModelParams> read_model_params(const GgufFile& f) {
    ModelParams p;
    auto arch = f.get_string("general.architecture");
    if (!arch) return arch.error();
    p.architecture = arch.value();
    if (f.find("general.name")) {
        auto name = f.get_string("general.name");
        if (!name) return name.error();
        p.name = name.value();
    }
    const std::string a = p.architecture + ".";
    for (auto [key, out] : {std::pair{"block_count", &p.n_layer},
                            std::pair{"attention.head_count", &p.n_head},
                            std::pair{"attention.head_count_kv", &p.n_head_kv},
                            std::pair{"embedding_length", &p.n_embd},
                            std::pair{"feed_forward_length", &p.n_ff},
                            std::pair{"context_length", &p.context_length},
                            std::pair{"rope.dimension_count", &p.n_rot},
                            std::pair{"attention.key_length", &p.n_embd_head},
                            std::pair{"attention.value_length", &p.n_embd_head_v},
                            std::pair{"rope.scaling.original_context_length", &p.rope_orig_context},
                            std::pair{"vocab_size", &p.n_vocab},
                            std::pair{"router.group_count", &p.n_router_groups},
                            std::pair{"expert_count", &p.n_expert},
                            std::pair{"expert_used_count", &p.n_expert_used},
                            std::pair{"expert_feed_forward_length", &p.n_ff_exp},
                            std::pair{"expert_shared_feed_forward_length", &p.n_ff_shexp},
                            std::pair{"attention.q_lora_rank", &p.n_lora_q},
                            std::pair{"attention.kv_lora_rank", &p.n_lora_kv},
                            std::pair{"leading_dense_block_count", &p.n_layer_dense_lead},
                            std::pair{"expert_shared_count", &p.n_expert_shared}}) {
        if (auto s = read_int(f, a + key, *out); !s) return s.error();
    }
    if (auto s = read_rope(f, a, p); !s) return s.error();
    if (auto s = read_float(f, a + "attention.layer_norm_rms_epsilon", p.rms_norm_eps); !s) return s.error();
    if (info_latent(p.architecture)) {
        // newer converters store attn_k_b / attn_v_b and describe the absorbed cache in
        // key_length / value_length (kv_lora_rank + n_rot, kv_lora_rank); the heads' own sizes
        // are then in key_length_mla / value_length_mla
        int64_t key_mla = 0, value_mla = 0;
        if (auto s = read_int(f, a + "attention.key_length_mla", key_mla); !s) return s.error();
        if (auto s = read_int(f, a + "attention.value_length_mla", value_mla); !s) return s.error();
        if (key_mla > 0) p.n_embd_head = key_mla;
        if (value_mla > 0) p.n_embd_head_v = value_mla;
    }
    if (p.n_head_kv == 0) p.n_head_kv = p.n_head;
    if (p.n_embd_head_v == 0) p.n_embd_head_v = p.head_dim();
    if (p.rope_orig_context == 0) p.rope_orig_context = p.context_length;
    if (auto s = read_architecture_keys(f, a, p); !s) return s.error();
    if (p.n_rot == 0) p.n_rot = p.head_dim();
    if (const GgufTensorInfo* emb = f.find_tensor("token_embd.weight"); emb && emb->n_dims == 2) {
        p.n_vocab = emb->ne[1];
    } else if (p.n_vocab == 0) {
        if (auto tokens = f.get_array("tokenizer.ggml.tokens"); tokens) {
            p.n_vocab = static_cast<int64_t>(tokens.value()->size());
        }
    }
    return p;
}

} // namespace octo
