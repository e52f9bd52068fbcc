#include "app/cli/bench_weights.h"

namespace octo::cli {

MatmulWeights matmul_weights(const Model& model) {
    MatmulWeights m;
    auto add = [&](const GgufTensorInfo* t, int64_t used = 1, int64_t of = 1) {
        if (!t) return;
        m.bytes += t->n_bytes / static_cast<uint64_t>(of) * static_cast<uint64_t>(used);
        m.elements += t->n_elements() / of * used;
        m.all_bytes += t->n_bytes;
    };
    const int64_t n_expert = model.params().n_expert, n_used = model.params().n_expert_used;
    for (const LayerWeights& l : model.weights().layers) {
        for (const GgufTensorInfo* t : {l.attn_q, l.attn_k, l.attn_v, l.attn_qkv, l.attn_output, l.ffn_gate, l.ffn_up,
                                        l.ffn_down, l.ffn_gate_inp, l.ffn_gate_inp_shexp, l.ffn_gate_shexp, l.ffn_up_shexp,
                                        l.ffn_down_shexp, l.attn_q_a, l.attn_q_b, l.attn_kv_a_mqa}) {
            add(t);
        }
        // latent attention reads attn_kv_b (or attn_k_b, attn_v_b) as dequantised F32 copies
        // (Model::latent_projections): their elements, four bytes each
        for (const GgufTensorInfo* t : {l.attn_kv_b, l.attn_k_b, l.attn_v_b}) {
            if (!t) continue;
            m.bytes += static_cast<uint64_t>(t->n_elements()) * sizeof(float);
            m.elements += t->n_elements();
            m.all_bytes += static_cast<uint64_t>(t->n_elements()) * sizeof(float);
        }
        for (const GgufTensorInfo* t : {l.ffn_gate_exps, l.ffn_up_exps, l.ffn_down_exps}) add(t, n_used, n_expert);
    }
    add(model.weights().output);
    if (model.weights().output) m.output_elements = model.weights().output->n_elements();
    return m;
}

} // namespace octo::cli
