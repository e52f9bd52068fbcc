#include "engine/model/model_weights.h"

#include <string>

namespace octo {

namespace {

// Looks up a tensor validate_model() has already checked; vectors must be F32.
struct Binder {
    const GgufFile& file;
    Status status = Ok{};

    const GgufTensorInfo* matrix(const std::string& name) {
        const GgufTensorInfo* t = file.find_tensor(name);
        if (!t && status) status = make_error(ErrorCode::InvalidModel, "tensor '" + name + "' is missing");
        return t;
    }

    const GgufTensorInfo* vector(const std::string& name, bool optional = false) {
        const GgufTensorInfo* t = file.find_tensor(name);
        if (!t) {
            if (!optional && status) status = make_error(ErrorCode::InvalidModel, "tensor '" + name + "' is missing");
            return nullptr;
        }
        if (t->type.type != TensorType::F32 && status) {
            status = make_error(ErrorCode::Unsupported, "tensor '" + name + "' has type " +
                                                            std::string(t->type.name) + "; vectors must be F32");
        }
        return t;
    }
};

} // namespace

Result<ModelWeights> bind_weights(const GgufFile& file, const ModelParams& p) {
    const ArchitectureInfo* a = find_architecture(p.architecture);
    if (!a) return make_error(ErrorCode::Unsupported, unsupported_architecture_message(p.architecture));
    Binder b{file};
    ModelWeights w;
    w.arch = a;
    w.token_embd = b.matrix("token_embd.weight");
    w.output_norm = b.vector("output_norm.weight");
    w.output = file.find_tensor("output.weight");
    w.output_tied = w.output == nullptr;
    if (w.output_tied) w.output = w.token_embd;
    if (a->rope_freqs) w.rope_freqs = b.vector("rope_freqs.weight", /*optional=*/true);
    if (a->long_rope) {
        w.rope_factors_long = b.vector("rope_factors_long.weight", /*optional=*/true);
        w.rope_factors_short = b.vector("rope_factors_short.weight", /*optional=*/true);
    }
    for (int64_t l = 0; l < p.n_layer; ++l) {
        const std::string blk = "blk." + std::to_string(l) + ".";
        LayerWeights layer;
        layer.attn_norm = b.vector(blk + "attn_norm.weight");
        if (a->latent_attention) {
            if (p.n_lora_q > 0) {
                layer.attn_q_a = b.matrix(blk + "attn_q_a.weight");
                layer.attn_q_a_norm = b.vector(blk + "attn_q_a_norm.weight");
                layer.attn_q_b = b.matrix(blk + "attn_q_b.weight");
            } else {
                layer.attn_q = b.matrix(blk + "attn_q.weight");
            }
            layer.attn_kv_a_mqa = b.matrix(blk + "attn_kv_a_mqa.weight");
            layer.attn_kv_a_norm = b.vector(blk + "attn_kv_a_norm.weight");
            if (file.find_tensor(blk + "attn_kv_b.weight") || !file.find_tensor(blk + "attn_k_b.weight")) {
                layer.attn_kv_b = b.matrix(blk + "attn_kv_b.weight");
            } else {
                layer.attn_k_b = b.matrix(blk + "attn_k_b.weight");
                layer.attn_v_b = b.matrix(blk + "attn_v_b.weight");
            }
        } else if (a->fused_qkv) {
            layer.attn_qkv = b.matrix(blk + "attn_qkv.weight");
        } else {
            layer.attn_q = b.matrix(blk + "attn_q.weight");
            layer.attn_k = b.matrix(blk + "attn_k.weight");
            layer.attn_v = b.matrix(blk + "attn_v.weight");
        }
        if (a->qkv_bias) {
            layer.attn_q_bias = b.vector(blk + "attn_q.bias");
            layer.attn_k_bias = b.vector(blk + "attn_k.bias");
            layer.attn_v_bias = b.vector(blk + "attn_v.bias");
        }
        if (a->qk_norm != QkNorm::None) {
            layer.attn_q_norm = b.vector(blk + "attn_q_norm.weight");
            layer.attn_k_norm = b.vector(blk + "attn_k_norm.weight");
        }
        layer.attn_output = b.matrix(blk + "attn_output.weight");
        if (a->output_bias) layer.attn_output_bias = b.vector(blk + "attn_output.bias");
        if (a->attn_sinks) layer.attn_sinks = b.vector(blk + "attn_sinks.weight");
        layer.ffn_norm = b.vector(blk + std::string(a->ffn_norm) + ".weight");
        if (p.layer_has_experts(l)) {
            layer.ffn_gate_inp = b.matrix(blk + "ffn_gate_inp.weight");
            if (a->expert_gating_keys) layer.ffn_exp_probs_b = b.vector(blk + "exp_probs_b.bias", /*optional=*/true);
            layer.ffn_gate_exps = b.matrix(blk + "ffn_gate_exps.weight");
            layer.ffn_up_exps = b.matrix(blk + "ffn_up_exps.weight");
            layer.ffn_down_exps = b.matrix(blk + "ffn_down_exps.weight");
            if (a->expert_biases) {
                layer.ffn_gate_inp_bias = b.vector(blk + "ffn_gate_inp.bias");
                layer.ffn_gate_exps_bias = b.vector(blk + "ffn_gate_exps.bias");
                layer.ffn_up_exps_bias = b.vector(blk + "ffn_up_exps.bias");
                layer.ffn_down_exps_bias = b.vector(blk + "ffn_down_exps.bias");
            }
            if (a->shared_expert_gate) layer.ffn_gate_inp_shexp = b.vector(blk + "ffn_gate_inp_shexp.weight");
            if (a->shared_expert) {
                layer.ffn_gate_shexp = b.matrix(blk + "ffn_gate_shexp.weight");
                layer.ffn_up_shexp = b.matrix(blk + "ffn_up_shexp.weight");
                layer.ffn_down_shexp = b.matrix(blk + "ffn_down_shexp.weight");
            }
        } else {
            if (!a->fused_gate_up) layer.ffn_gate = b.matrix(blk + "ffn_gate.weight");
            layer.ffn_up = b.matrix(blk + "ffn_up.weight");
            layer.ffn_down = b.matrix(blk + "ffn_down.weight");
        }
        if (p.n_router_groups > 0) layer.router = b.vector(blk + "router.weight");
        if (a->post_norms) {
            layer.attn_post_norm = b.vector(blk + "post_attention_norm.weight");
            layer.ffn_post_norm = b.vector(blk + "post_ffw_norm.weight");
        }
        w.layers.push_back(layer);
    }
    w.n_router_groups = p.n_router_groups;
    if (!b.status) return b.status.error();
    return w;
}

const GgufTensorInfo* rope_factors(const ModelWeights& w, const ModelParams& p, int64_t n_ctx) {
    if (w.rope_freqs) return w.rope_freqs;
    const int64_t original = p.rope_orig_context > 0 ? p.rope_orig_context : p.context_length;
    return n_ctx > original ? w.rope_factors_long : w.rope_factors_short;
}

} // namespace octo
