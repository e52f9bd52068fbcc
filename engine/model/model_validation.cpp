#include "engine/model/model_validation.h"

#include <cmath>
#include <string>
#include <vector>

#include "engine/model/architecture.h"

namespace octo {

namespace {

Error invalid(const std::string& what) { return make_error(ErrorCode::InvalidModel, what); }

std::string shape_string(const std::vector<int64_t>& ne) {
    std::string s = "[";
    for (size_t k = 0; k < ne.size(); ++k) s += (k ? ", " : "") + std::to_string(ne[k]);
    return s + "]";
}

std::string shape_string(const GgufTensorInfo& t) {
    return shape_string(std::vector<int64_t>(t.ne, t.ne + t.n_dims));
}

// A tensor the architecture uses: its expected shape (innermost first) and whether it may be absent.
struct Expected {
    std::string name;
    std::vector<int64_t> ne;
    bool optional = false;
};

// split_kv_b: a latent-attention file stores attn_k_b / attn_v_b instead of attn_kv_b (newer converters).
std::vector<Expected> expected_tensors(const ArchitectureInfo& a, const ModelParams& p, bool split_kv_b) {
    const int64_t n_q = p.n_embd_q();
    const int64_t n_kv = p.n_embd_kv();
    std::vector<Expected> e = {
        {"token_embd.weight", {p.n_embd, p.n_vocab}},
        {"output_norm.weight", {p.n_embd}},
        {"output.weight", {p.n_embd, p.n_vocab}, true}, // absent: tied to token_embd
    };
    if (a.rope_freqs) e.push_back({"rope_freqs.weight", {p.n_rot / 2}, true}); // Llama 3.1+ frequency factors
    if (a.long_rope) {
        e.push_back({"rope_factors_long.weight", {p.head_dim() / 2}, true});
        e.push_back({"rope_factors_short.weight", {p.head_dim() / 2}, true});
    }
    for (int64_t l = 0; l < p.n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        e.push_back({b + "attn_norm.weight", {p.n_embd}});
        if (a.latent_attention) {
            const int64_t nope = p.head_dim() - p.n_rot;
            if (p.n_lora_q > 0) {
                e.push_back({b + "attn_q_a.weight", {p.n_embd, p.n_lora_q}});
                e.push_back({b + "attn_q_a_norm.weight", {p.n_lora_q}});
                e.push_back({b + "attn_q_b.weight", {p.n_lora_q, n_q}});
            } else {
                e.push_back({b + "attn_q.weight", {p.n_embd, n_q}});
            }
            e.push_back({b + "attn_kv_a_mqa.weight", {p.n_embd, p.n_lora_kv + p.n_rot}});
            e.push_back({b + "attn_kv_a_norm.weight", {p.n_lora_kv}});
            if (split_kv_b) { // per head: the key rows transposed, then the value rows
                e.push_back({b + "attn_k_b.weight", {nope, p.n_lora_kv, p.n_head}});
                e.push_back({b + "attn_v_b.weight", {p.n_lora_kv, p.head_dim_v(), p.n_head}});
            } else {
                e.push_back({b + "attn_kv_b.weight", {p.n_lora_kv, p.n_head * (nope + p.head_dim_v())}});
            }
        } else if (a.fused_qkv) {
            e.push_back({b + "attn_qkv.weight", {p.n_embd, n_q + 2 * n_kv}});
        } else {
            e.push_back({b + "attn_q.weight", {p.n_embd, n_q}});
            e.push_back({b + "attn_k.weight", {p.n_embd, n_kv}});
            e.push_back({b + "attn_v.weight", {p.n_embd, n_kv}});
        }
        if (a.qkv_bias) {
            e.push_back({b + "attn_q.bias", {n_q}});
            e.push_back({b + "attn_k.bias", {n_kv}});
            e.push_back({b + "attn_v.bias", {n_kv}});
        }
        if (a.qk_norm == QkNorm::PerHead) {
            e.push_back({b + "attn_q_norm.weight", {p.head_dim()}});
            e.push_back({b + "attn_k_norm.weight", {p.head_dim()}});
        } else if (a.qk_norm == QkNorm::Whole) {
            e.push_back({b + "attn_q_norm.weight", {n_q}});
            e.push_back({b + "attn_k_norm.weight", {n_kv}});
        }
        e.push_back({b + "attn_output.weight", {p.n_embd_out(), p.n_embd}});
        if (a.output_bias) e.push_back({b + "attn_output.bias", {p.n_embd}});
        if (a.attn_sinks) e.push_back({b + "attn_sinks.weight", {p.n_head}});
        e.push_back({b + std::string(a.ffn_norm) + ".weight", {p.n_embd}});
        if (p.layer_has_experts(l)) {
            e.push_back({b + "ffn_gate_inp.weight", {p.n_embd, p.n_expert}});
            if (a.expert_gating_keys) e.push_back({b + "exp_probs_b.bias", {p.n_expert}, true});
            e.push_back({b + "ffn_gate_exps.weight", {p.n_embd, p.n_ff_exp, p.n_expert}});
            e.push_back({b + "ffn_up_exps.weight", {p.n_embd, p.n_ff_exp, p.n_expert}});
            e.push_back({b + "ffn_down_exps.weight", {p.n_ff_exp, p.n_embd, p.n_expert}});
            if (a.expert_biases) {
                e.push_back({b + "ffn_gate_inp.bias", {p.n_expert}});
                e.push_back({b + "ffn_gate_exps.bias", {p.n_ff_exp, p.n_expert}});
                e.push_back({b + "ffn_up_exps.bias", {p.n_ff_exp, p.n_expert}});
                e.push_back({b + "ffn_down_exps.bias", {p.n_embd, p.n_expert}});
            }
            if (a.shared_expert_gate) e.push_back({b + "ffn_gate_inp_shexp.weight", {p.n_embd}});
            if (a.shared_expert) {
                e.push_back({b + "ffn_gate_shexp.weight", {p.n_embd, p.n_ff_shexp}});
                e.push_back({b + "ffn_up_shexp.weight", {p.n_embd, p.n_ff_shexp}});
                e.push_back({b + "ffn_down_shexp.weight", {p.n_ff_shexp, p.n_embd}});
            }
        } else if (a.fused_gate_up) {
            e.push_back({b + "ffn_up.weight", {p.n_embd, 2 * p.n_ff}});
        } else {
            e.push_back({b + "ffn_gate.weight", {p.n_embd, p.n_ff}});
            e.push_back({b + "ffn_up.weight", {p.n_embd, p.n_ff}});
        }
        if (!p.layer_has_experts(l)) e.push_back({b + "ffn_down.weight", {p.n_ff, p.n_embd}});
        if (p.n_router_groups > 0) e.push_back({b + "router.weight", {p.n_embd, p.n_router_groups}});
        if (a.post_norms) {
            e.push_back({b + "post_attention_norm.weight", {p.n_embd}});
            e.push_back({b + "post_ffw_norm.weight", {p.n_embd}});
        }
    }
    return e;
}

} // namespace

Status validate_hparams(const ModelParams& p) {
    if (p.n_layer <= 0) return invalid("block_count is " + std::to_string(p.n_layer) + " (must be at least 1)");
    if (p.n_layer > 4096) return invalid("block_count " + std::to_string(p.n_layer) + " is implausibly large");
    if (p.n_head <= 0) return invalid("attention.head_count is " + std::to_string(p.n_head) + " (must be at least 1)");
    if (p.n_head_kv <= 0) return invalid("attention.head_count_kv is " + std::to_string(p.n_head_kv));
    if (p.n_embd <= 0) return invalid("embedding_length is " + std::to_string(p.n_embd));
    if (p.n_embd_head == 0 && p.n_embd % p.n_head != 0) {
        return invalid("embedding_length " + std::to_string(p.n_embd) + " is not divisible by head_count " +
                       std::to_string(p.n_head) + " (and attention.key_length is absent)");
    }
    if (p.n_embd_head < 0 || p.n_embd_head > 65536) {
        return invalid("attention.key_length " + std::to_string(p.n_embd_head) + " is out of range");
    }
    const ArchitectureInfo* row = find_architecture(p.architecture);
    const bool latent = row && row->latent_attention;
    if (latent) {
        if (p.n_lora_kv <= 0 || p.n_lora_kv > 65536 || p.n_lora_q < 0 || p.n_lora_q > 65536) {
            return invalid(p.architecture + " needs attention.kv_lora_rank (and a q_lora_rank that is not negative)");
        }
        if (p.n_rot >= p.head_dim() || p.n_embd_head_v <= 0 || p.n_embd_head_v > 65536) {
            return invalid("attention.key_length " + std::to_string(p.head_dim()) +
                           " must exceed rope.dimension_count " + std::to_string(p.n_rot) +
                           " and attention.value_length must be positive (latent attention)");
        }
        if (p.n_layer_dense_lead < 0 || p.n_layer_dense_lead > p.n_layer) {
            return invalid("leading_dense_block_count " + std::to_string(p.n_layer_dense_lead) + " is out of range");
        }
        if (!(p.expert_weights_scale > 0.0) || !std::isfinite(p.expert_weights_scale) || !std::isfinite(p.rope_yarn_log_mul)) {
            return invalid("expert_weights_scale must be positive and rope.scaling.yarn_log_multiplier finite");
        }
    } else if (p.n_embd_head_v != 0 && p.n_embd_head_v != p.head_dim()) {
        return make_error(ErrorCode::Unsupported, "attention.value_length " + std::to_string(p.n_embd_head_v) +
                                                      " differs from the key head size " +
                                                      std::to_string(p.head_dim()) +
                                                      "; the engine needs equal key and value head sizes");
    }
    if (p.n_head % p.n_head_kv != 0) {
        return invalid("head_count " + std::to_string(p.n_head) + " is not divisible by head_count_kv " +
                       std::to_string(p.n_head_kv));
    }
    if (p.n_ff <= 0) return invalid("feed_forward_length is " + std::to_string(p.n_ff));
    if (p.n_rot <= 0 || p.n_rot > p.head_dim() || p.n_rot % 2 != 0) {
        return invalid("rope.dimension_count " + std::to_string(p.n_rot) + " must be even and at most head_dim " +
                       std::to_string(p.head_dim()));
    }
    if (p.context_length <= 0) return invalid("context_length is " + std::to_string(p.context_length));
    if (!(p.rope_freq_base > 0.0)) return invalid("rope.freq_base must be positive");
    if (!(p.rms_norm_eps > 0.0)) return invalid("attention.layer_norm_rms_epsilon must be positive");
    if (!(p.rope_attn_factor > 0.0)) return invalid("rope.scaling.attn_factor must be positive");
    if (p.rope_orig_context < 0) return invalid("rope.scaling.original_context_length must be positive");
    if (p.sliding_window < 0) {
        return invalid(p.architecture + ".attention.sliding_window is missing (the architecture needs it)");
    }
    if (p.n_expert < 0 || p.n_expert > 1024 || p.n_expert_used < 0 || p.n_expert_used > p.n_expert ||
        (p.n_expert > 0 && p.n_expert_used == 0)) {
        return invalid("expert_used_count " + std::to_string(p.n_expert_used) + " must be between 1 and expert_count " +
                       std::to_string(p.n_expert));
    }
    if (p.n_expert > 0 && (p.n_ff_exp <= 0 || p.n_ff_shexp < 0)) {
        return invalid("expert_feed_forward_length " + std::to_string(p.n_ff_exp) + " must be at least 1");
    }
    if (const ArchitectureInfo* arch = find_architecture(p.architecture); arch && arch->requires_experts && p.n_expert == 0) {
        return invalid(p.architecture + " models need expert_count and expert_used_count");
    }
    if (!(p.attn_logit_softcap >= 0.0) || !(p.final_logit_softcap >= 0.0)) {
        return invalid("attn_logit_softcapping and final_logit_softcapping must not be negative");
    }
    if (p.n_router_groups < 0 || (p.n_router_groups > 0 && p.n_head % p.n_router_groups != 0)) {
        return invalid("router.group_count " + std::to_string(p.n_router_groups) + " must divide head_count " +
                       std::to_string(p.n_head));
    }
    const ArchitectureInfo* a = find_architecture(p.architecture);
    if (a && a->router && p.n_router_groups == 0) return invalid(p.architecture + " models need router.group_count");
    return Ok{};
}

Status check_tensor_types(const GgufFile& file) {
    for (const auto& t : file.tensors()) {
        if (!t.type.supported) {
            return make_error(ErrorCode::Unsupported, "tensor '" + t.name + "' has type " +
                                                          std::string(t.type.name) +
                                                          ", which the engine cannot run");
        }
    }
    return Ok{};
}

Status validate_model(const GgufFile& file, const ModelParams& p, int64_t n_tokenizer_vocab) {
    const ArchitectureInfo* a = find_architecture(p.architecture);
    if (!a) return make_error(ErrorCode::Unsupported, unsupported_architecture_message(p.architecture));
    if (auto s = check_tensor_types(file); !s) return s;
    if (auto s = validate_hparams(p); !s) return s;
    const bool split_kv_b = a->latent_attention && !file.find_tensor("blk.0.attn_kv_b.weight") &&
                            file.find_tensor("blk.0.attn_k_b.weight");
    for (const auto& e : expected_tensors(*a, p, split_kv_b)) {
        const GgufTensorInfo* t = file.find_tensor(e.name);
        if (!t) {
            if (e.optional) continue;
            return invalid("tensor '" + e.name + "' is missing");
        }
        if (t->n_dims != e.ne.size() || !std::equal(e.ne.begin(), e.ne.end(), t->ne)) {
            return invalid("tensor '" + e.name + "' has shape " + shape_string(*t) + ", expected " +
                           shape_string(e.ne) + " from the hyperparameters");
        }
    }
    if (p.n_vocab != n_tokenizer_vocab) {
        return invalid("token_embd.weight has " + std::to_string(p.n_vocab) + " rows but the tokenizer has " +
                       std::to_string(n_tokenizer_vocab) + " tokens");
    }
    return Ok{};
}

} // namespace octo
