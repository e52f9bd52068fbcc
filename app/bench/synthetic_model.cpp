#include "app/bench/synthetic_model.h"

#include <cmath>
#include <random>
#include <vector>

#include "engine/gguf/gguf_writer.h"

namespace octo::bench {

int64_t parameter_count(const SyntheticModelShape& s) {
    const int64_t n_embd_kv = s.n_embd / s.n_head * s.n_head_kv;
    const int64_t per_layer = 2 * s.n_embd * s.n_embd + 2 * s.n_embd * n_embd_kv + 3 * s.n_embd * s.n_ff + 2 * s.n_embd;
    return s.n_vocab * s.n_embd + s.n_embd + s.n_layer * per_layer;
}

Status write_synthetic_model(const SyntheticModelShape& s, const std::string& path) {
    GgufWriter w;
    w.add_string("general.architecture", "llama");
    w.add_string("general.name", "octoscope synthetic benchmark model");
    w.add_u32("llama.block_count", static_cast<uint32_t>(s.n_layer));
    w.add_u32("llama.context_length", static_cast<uint32_t>(s.context_length));
    w.add_u32("llama.embedding_length", static_cast<uint32_t>(s.n_embd));
    w.add_u32("llama.feed_forward_length", static_cast<uint32_t>(s.n_ff));
    w.add_u32("llama.attention.head_count", static_cast<uint32_t>(s.n_head));
    w.add_u32("llama.attention.head_count_kv", static_cast<uint32_t>(s.n_head_kv));
    w.add_f32("llama.attention.layer_norm_rms_epsilon", 1e-5f);

    std::mt19937 rng(1234);
    std::vector<float> values; // the tensor being written, [rows, n_in]
    auto add = [&](const std::string& name, std::vector<int64_t> ne, TensorType type, float center,
                   float spread) -> Status {
        int64_t n = 1;
        for (int64_t d : ne) n *= d;
        std::uniform_real_distribution<float> dist(center - spread, center + spread);
        values.resize(static_cast<size_t>(n));
        for (float& v : values) v = dist(rng);
        return w.add_tensor_f32(name, ne, type, values.data());
    };
    auto matrix = [&](const std::string& name, int64_t n_in, int64_t n_out) {
        return add(name, {n_in, n_out}, s.weight_type, 0.0f, std::sqrt(3.0f / static_cast<float>(n_in)));
    };

    const int64_t n_embd_kv = s.n_embd / s.n_head * s.n_head_kv;
    if (auto st = add("token_embd.weight", {s.n_embd, s.n_vocab}, s.weight_type, 0.0f, 1.0f); !st) return st;
    if (auto st = add("output_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.1f); !st) return st;
    for (int64_t l = 0; l < s.n_layer; ++l) {
        const std::string b = "blk." + std::to_string(l) + ".";
        for (const Status& st : {add(b + "attn_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.1f),
                                 matrix(b + "attn_q.weight", s.n_embd, s.n_embd),
                                 matrix(b + "attn_k.weight", s.n_embd, n_embd_kv),
                                 matrix(b + "attn_v.weight", s.n_embd, n_embd_kv),
                                 matrix(b + "attn_output.weight", s.n_embd, s.n_embd),
                                 add(b + "ffn_norm.weight", {s.n_embd}, TensorType::F32, 1.0f, 0.1f),
                                 matrix(b + "ffn_gate.weight", s.n_embd, s.n_ff),
                                 matrix(b + "ffn_up.weight", s.n_embd, s.n_ff),
                                 matrix(b + "ffn_down.weight", s.n_ff, s.n_embd)}) {
            if (!st) return st;
        }
    }
    return w.write_file(path);
}

} // namespace octo::bench
