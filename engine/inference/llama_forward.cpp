#include "engine/inference/llama_forward.h"

namespace octo {

namespace {

const float* f32(const GgufTensorInfo* t) { return reinterpret_cast<const float*>(t->data); }

} // namespace

WeightMatrix weight_matrix(const GgufTensorInfo& t) {
    return WeightMatrix{t.type.type, t.data, t.ne[0], t.ne[1], *tensor_row_bytes(t.type, static_cast<uint64_t>(t.ne[0]))};
}

LlamaForward::LlamaForward(const Model& model, Backend& backend, int64_t n_batch)
    : model_(model), backend_(backend) {
    const ModelParams& p = model.params();
    n_embd_ = p.n_embd;
    n_embd_kv_ = p.head_dim() * p.n_head_kv;
    n_ff_ = p.n_ff;
    n_vocab_ = p.n_vocab;
    rope_.layout = p.architecture == "qwen2" ? RopeLayout::NeoX : RopeLayout::Normal;
    rope_.n_rot = p.n_rot;
    rope_.freq_base = p.rope_freq_base;
    rope_.freq_scale = p.rope_freq_scale;
    rope_.freq_factors = model.weights().rope_freqs ? f32(model.weights().rope_freqs) : nullptr;
    attn_shape_ = AttentionShape{p.n_head, p.n_head_kv, p.head_dim()};
    eps_ = static_cast<float>(p.rms_norm_eps);

    x_ = backend.allocate(n_batch * n_embd_);
    normed_ = backend.allocate(n_batch * n_embd_);
    q_ = backend.allocate(n_batch * n_embd_);
    k_ = backend.allocate(n_batch * n_embd_kv_);
    v_ = backend.allocate(n_batch * n_embd_kv_);
    attn_ = backend.allocate(n_batch * n_embd_);
    proj_ = backend.allocate(n_batch * n_embd_);
    gate_ = backend.allocate(n_batch * n_ff_);
    up_ = backend.allocate(n_batch * n_ff_);
    logits_ = backend.allocate(n_batch * n_vocab_);
}

void LlamaForward::attention_block(const LayerWeights& lw, int64_t layer, int64_t n,
                                   std::span<const int32_t> positions, KvCache& cache) {
    const AttentionShape& s = attn_shape_;
    backend_.rms_norm(x_->data(), f32(lw.attn_norm), normed_->data(), n, n_embd_, eps_);
    backend_.matmul(weight_matrix(*lw.attn_q), normed_->data(), q_->data(), n);
    backend_.matmul(weight_matrix(*lw.attn_k), normed_->data(), k_->data(), n);
    backend_.matmul(weight_matrix(*lw.attn_v), normed_->data(), v_->data(), n);
    if (lw.attn_q_bias) backend_.add_bias(q_->data(), f32(lw.attn_q_bias), n, n_embd_);
    if (lw.attn_k_bias) backend_.add_bias(k_->data(), f32(lw.attn_k_bias), n, n_embd_kv_);
    if (lw.attn_v_bias) backend_.add_bias(v_->data(), f32(lw.attn_v_bias), n, n_embd_kv_);
    backend_.rope(q_->data(), n, s.n_head, s.head_dim, positions, rope_);
    backend_.rope(k_->data(), n, s.n_head_kv, s.head_dim, positions, rope_);
    backend_.kv_write(cache, layer, k_->data(), v_->data(), positions);
    backend_.attention(cache, layer, q_->data(), attn_->data(), positions, s);
    backend_.matmul(weight_matrix(*lw.attn_output), attn_->data(), proj_->data(), n);
    backend_.add(x_->data(), proj_->data(), n * n_embd_);
}

void LlamaForward::ffn_block(const LayerWeights& lw, int64_t n) {
    backend_.rms_norm(x_->data(), f32(lw.ffn_norm), normed_->data(), n, n_embd_, eps_);
    backend_.matmul(weight_matrix(*lw.ffn_gate), normed_->data(), gate_->data(), n);
    backend_.matmul(weight_matrix(*lw.ffn_up), normed_->data(), up_->data(), n);
    backend_.swiglu(gate_->data(), up_->data(), gate_->data(), n * n_ff_);
    backend_.matmul(weight_matrix(*lw.ffn_down), gate_->data(), proj_->data(), n);
    backend_.add(x_->data(), proj_->data(), n * n_embd_);
}

Status LlamaForward::run(std::span<const int32_t> tokens, std::span<const int32_t> positions, KvCache& cache,
                         int64_t n_logit_rows, std::span<float> logits, const std::atomic<bool>* cancel) {
    const auto n = static_cast<int64_t>(tokens.size());
    const ModelWeights& w = model_.weights();
    backend_.embed(weight_matrix(*w.token_embd), tokens, x_->data());
    for (size_t l = 0; l < w.layers.size(); ++l) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            return make_error(ErrorCode::Cancelled, "evaluation was cancelled");
        }
        attention_block(w.layers[l], static_cast<int64_t>(l), n, positions, cache);
        ffn_block(w.layers[l], n);
    }
    if (n_logit_rows == 0) return Ok{};
    const float* last_rows = x_->data() + (n - n_logit_rows) * n_embd_; // [n_logit_rows, n_embd]
    backend_.rms_norm(last_rows, f32(w.output_norm), normed_->data(), n_logit_rows, n_embd_, eps_);
    backend_.matmul(weight_matrix(*w.output), normed_->data(), logits_->data(), n_logit_rows);
    backend_.read(logits_->data(), logits.first(static_cast<size_t>(n_logit_rows * n_vocab_)));
    return Ok{};
}

} // namespace octo
