// The tensors of a `llama` / `qwen2` model, bound by name to the GGUF file's tensor table.
// Nothing is copied: every field points at a GgufTensorInfo whose `data` lies in the memory map.
// Shapes are GGUF ne[] (innermost first): a matrix [n_in, n_out] has n_out rows of n_in values.
#pragma once

#include <vector>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/model/model_params.h"

namespace octo {

struct LayerWeights {
    const GgufTensorInfo* attn_norm = nullptr;   // [n_embd] F32
    const GgufTensorInfo* attn_q = nullptr;      // [n_embd, n_embd]
    const GgufTensorInfo* attn_k = nullptr;      // [n_embd, n_embd_kv]
    const GgufTensorInfo* attn_v = nullptr;      // [n_embd, n_embd_kv]
    const GgufTensorInfo* attn_q_bias = nullptr; // [n_embd] F32, qwen2 only (null otherwise)
    const GgufTensorInfo* attn_k_bias = nullptr; // [n_embd_kv] F32, qwen2 only
    const GgufTensorInfo* attn_v_bias = nullptr; // [n_embd_kv] F32, qwen2 only
    const GgufTensorInfo* attn_output = nullptr; // [n_embd, n_embd]
    const GgufTensorInfo* ffn_norm = nullptr;    // [n_embd] F32
    const GgufTensorInfo* ffn_gate = nullptr;    // [n_embd, n_ff]
    const GgufTensorInfo* ffn_up = nullptr;      // [n_embd, n_ff]
    const GgufTensorInfo* ffn_down = nullptr;    // [n_ff, n_embd]
    const GgufTensorInfo* router = nullptr;      // [n_embd, n_router_groups] F32 gate logits (octet), or null
};

struct ModelWeights {
    const GgufTensorInfo* token_embd = nullptr;  // [n_embd, n_vocab]
    const GgufTensorInfo* output_norm = nullptr; // [n_embd] F32
    const GgufTensorInfo* output = nullptr;      // [n_embd, n_vocab]; = token_embd when tied
    bool output_tied = false;                    // the file has no output.weight
    const GgufTensorInfo* rope_freqs = nullptr;  // [n_rot / 2] F32 frequency factors, or null
    std::vector<LayerWeights> layers;            // [n_layer]
    int64_t n_router_groups = 0;                 // head groups the routers gate; 0: no router

    bool has_router() const { return n_router_groups > 0; }
};

// Binds the tensors; call validate_model() first (it checks presence and shapes). Errors when
// a vector tensor (norm, bias, rope_freqs) is not F32.
Result<ModelWeights> bind_weights(const GgufFile& file, const ModelParams& params);

} // namespace octo
