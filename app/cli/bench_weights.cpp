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
                                        l.ffn_down_shexp}) {
            add(t);
        }
        for (const GgufTensorInfo* t : {l.ffn_gate_exps, l.ffn_up_exps, l.ffn_down_exps}) add(t, n_used, n_expert);
    }
    add(model.weights().output);
    if (model.weights().output) m.output_elements = model.weights().output->n_elements();
    return m;
}

} // namespace octo::cli
