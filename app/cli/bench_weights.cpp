#include "app/cli/bench_weights.h"

namespace octo::cli {

MatmulWeights matmul_weights(const Model& model) {
    MatmulWeights m;
    auto add = [&](const GgufTensorInfo* t) {
        if (!t) return;
        m.bytes += t->n_bytes;
        m.elements += t->n_elements();
    };
    for (const LayerWeights& l : model.weights().layers) {
        for (const GgufTensorInfo* t : {l.attn_q, l.attn_k, l.attn_v, l.attn_qkv, l.attn_output, l.ffn_gate, l.ffn_up, l.ffn_down}) {
            add(t);
        }
    }
    add(model.weights().output);
    return m;
}

} // namespace octo::cli
