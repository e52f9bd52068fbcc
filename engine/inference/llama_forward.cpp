#include "engine/inference/llama_forward.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace octo {

namespace {

const float* f32(const GgufTensorInfo* t) { return reinterpret_cast<const float*>(t->data); }

} // namespace

WeightMatrix weight_matrix(const GgufTensorInfo& t) { return weight_rows(t, 0, t.ne[1]); }

WeightMatrix weight_rows(const GgufTensorInfo& t, int64_t first, int64_t n) {
    const uint64_t row_bytes = *tensor_row_bytes(t.type, static_cast<uint64_t>(t.ne[0]));
    // llama.cpp repacks Q4_0 tensors of 8k rows for its products (including a tied output, which
    // it loads a second time for the product; the lookup reads the unrepacked copy)
    const bool repacked = t.type.type == TensorType::Q4_0 && t.ne[1] % 8 == 0;
    // its tiled products: a plain matrix (the experts' go through its one-token products), F32 /
    // F16 / BF16 rows a multiple of 8 long in a multiple of 4, IQ4_NL any
    const bool plain = t.ne[2] == 1 && t.ne[3] == 1;
    const bool tiled = plain && (t.type.type == TensorType::IQ4_NL || (t.ne[0] % 8 == 0 && t.ne[1] % 4 == 0));
    return WeightMatrix{t.type.type, t.data + static_cast<uint64_t>(first) * row_bytes, t.ne[0], n, row_bytes, repacked, tiled};
}

std::vector<LayerMatrices> layer_matrices(const Model& model) {
    const ModelParams& p = model.params();
    const int64_t n_q = p.n_embd_q(), n_kv = p.n_embd_kv();
    std::vector<LayerMatrices> out;
    for (const LayerWeights& lw : model.weights().layers) {
        LayerMatrices m;
        if (lw.attn_kv_a_mqa) { // latent attention
            m.q = weight_matrix(lw.attn_q_b ? *lw.attn_q_b : *lw.attn_q);
            if (lw.attn_q_a) m.q_a = weight_matrix(*lw.attn_q_a);
            m.kv_a = weight_matrix(*lw.attn_kv_a_mqa);
        } else if (lw.attn_qkv) { // rows Q, K, V
            m.q = weight_rows(*lw.attn_qkv, 0, n_q);
            m.k = weight_rows(*lw.attn_qkv, n_q, n_kv);
            m.v = weight_rows(*lw.attn_qkv, n_q + n_kv, n_kv);
        } else {
            m.q = weight_matrix(*lw.attn_q);
            m.k = weight_matrix(*lw.attn_k);
            m.v = weight_matrix(*lw.attn_v);
        }
        m.output = weight_matrix(*lw.attn_output);
        if (lw.ffn_gate_exps) {
            // experts: multiplied as row ranges of the 3-D tensors (moe_ffn)
        } else if (lw.ffn_gate) {
            m.gate = weight_matrix(*lw.ffn_gate);
            m.up = weight_matrix(*lw.ffn_up);
        } else { // rows gate, then up
            m.gate = weight_rows(*lw.ffn_up, 0, p.n_ff);
            m.up = weight_rows(*lw.ffn_up, p.n_ff, p.n_ff);
        }
        if (lw.ffn_down) m.down = weight_matrix(*lw.ffn_down);
        out.push_back(m);
    }
    return out;
}

ForwardFeatures forward_features(const Model& model, int64_t n_ctx) {
    const ModelParams& p = model.params();
    const ArchitectureInfo& a = *model.weights().arch;
    ForwardFeatures f;
    f.gelu = a.gelu_ffn;
    f.softcap = p.attn_logit_softcap > 0 || p.final_logit_softcap > 0;
    f.sliding_window = p.sliding_layers != SlidingLayers::None && p.sliding_window > 0 && p.sliding_window < n_ctx;
    f.scale = a.embed_scale || p.attn_scale > 0;
    f.yarn = p.rope_scaling_type == "yarn" && p.rope_freq_scale < 1.0;
    f.experts = p.n_expert > 0;
    f.sinks = a.attn_sinks;
    f.clamped_swiglu = a.clamped_swiglu;
    f.latent_attention = a.latent_attention;
    for (const GgufTensorInfo& t : model.file().tensors()) {
        if (t.n_dims >= 2 && std::find(f.weight_types.begin(), f.weight_types.end(), t.type.type) == f.weight_types.end()) {
            f.weight_types.push_back(t.type.type);
        }
    }
    return f;
}

LlamaForward::LlamaForward(const Model& model, Backend& backend, int64_t n_batch, Precision precision, int64_t n_ctx)
    : model_(model), backend_(backend), precision_(precision), matrices_(layer_matrices(model)) {
    const ModelParams& p = model.params();
    const ModelWeights& w = model.weights();
    n_embd_ = p.n_embd;
    n_q_ = p.n_embd_out();
    n_embd_kv_ = p.n_kv_heads() * p.kv_head_dim();
    n_ff_ = p.n_ff;
    n_vocab_ = p.n_vocab;
    rope_.layout = w.arch->neox_rope ? RopeLayout::NeoX : RopeLayout::Normal;
    rope_.n_rot = p.n_rot;
    rope_.freq_base = p.rope_freq_base;
    rope_.freq_scale = p.rope_freq_scale;
    const GgufTensorInfo* factors = rope_factors(w, p, n_ctx);
    rope_.freq_factors = factors ? f32(factors) : nullptr;
    rope_.attn_factor = static_cast<float>(p.rope_attn_factor);
    rope_.reference_steps = precision == Precision::Reference;
    if (p.rope_scaling_type == "yarn" && p.rope_freq_scale < 1.0) { // llama.cpp's YaRN: ext_factor 1
        rope_.ext_factor = 1.0f;
        yarn_corr_dims(p.n_rot, p.rope_orig_context, p.rope_freq_base, rope_.corr_low, rope_.corr_high);
    }
    rope_local_ = rope_;
    if (p.rope_freq_base_swa > 0) { // gemma3's local layers: their own base, no scaling
        rope_local_.freq_base = p.rope_freq_base_swa;
        rope_local_.freq_scale = 1.0;
    }
    float attn_scale = static_cast<float>(p.attn_scale);
    if (p.latent_attention() && rope_.ext_factor != 0.0f) {
        // llama.cpp's deepseek2 under YaRN: RoPE's own magnitude correction cancelled (attn_factor
        // 1 / (1 + 0.1 ln(1/s)), so the rotated part keeps its size) and the scores scaled by
        // mscale² / √head_dim instead, mscale = attn_factor (1 + yarn_log_multiplier · ln(1/s))
        const float ln = std::log(1.0f / static_cast<float>(p.rope_freq_scale));
        const float mscale = static_cast<float>(p.rope_attn_factor) * (1.0f + static_cast<float>(p.rope_yarn_log_mul) * ln);
        rope_.attn_factor = 1.0f / (1.0f + 0.1f * ln);
        attn_scale = mscale * mscale / std::sqrt(static_cast<float>(p.head_dim()));
    }
    attn_shape_ = AttentionShape{.n_head = p.n_head,
                                 .n_head_kv = p.latent_attention() ? p.n_head : p.n_head_kv,
                                 .head_dim = p.head_dim_v(),
                                 .scale = attn_scale,
                                 .softcap = static_cast<float>(p.attn_logit_softcap),
                                 .window = 0,
                                 .precision = precision,
                                 .scale_queries = w.arch->scales_queries};
    gelu_mode_ = precision == Precision::Reference ? GeluMode::F16Rounding : GeluMode::Exact;
    eps_ = static_cast<float>(p.rms_norm_eps);
    n_layer_ = p.n_layer;
    n_ctx_ = n_ctx;

    if (p.latent_attention()) {
        latent_shape_ = attn_shape_;
        latent_shape_.n_head_kv = 1;
        latent_shape_.head_dim = p.kv_head_dim();
        // 1 / √head_dim of the expanded heads (q_h · k_h over nope + n_rot values), not of the latent row
        if (latent_shape_.scale == 0.0f) latent_shape_.scale = 1.0f / std::sqrt(static_cast<float>(p.head_dim()));
        if (p.n_lora_q > 0) q_low_ = backend.allocate(n_batch * p.n_lora_q);
        kv_low_ = backend.allocate(n_batch * (p.n_lora_kv + p.n_rot));
        latent_ = backend.allocate(n_batch * p.n_lora_kv);
        q_lat_ = backend.allocate(n_batch * p.n_head * p.kv_head_dim());
        o_lat_ = backend.allocate(n_batch * p.n_head * p.kv_head_dim());
    }
    x_ = backend.allocate(n_batch * n_embd_);
    normed_ = backend.allocate(n_batch * n_embd_);
    q_ = backend.allocate(n_batch * std::max(n_q_, p.n_embd_q()));
    k_ = backend.allocate(n_batch * n_embd_kv_);
    v_ = backend.allocate(n_batch * n_embd_kv_);
    attn_ = backend.allocate(n_batch * n_q_);
    proj_ = backend.allocate(n_batch * n_embd_);
    gate_ = backend.allocate(n_batch * n_ff_);
    up_ = backend.allocate(n_batch * n_ff_);
    if (p.n_expert > 0) moe_ = std::make_unique<MoeBlock>(model, backend, n_batch, precision);
    if (p.latent_attention()) { // each layer's per-head projections, dequantised once per model
        auto projections = model.latent_projections();
        if (!projections) {
            latent_status_ = projections.error();
        } else {
            const auto keys = static_cast<size_t>(p.n_head * p.n_lora_kv * (p.head_dim() - p.n_rot));
            const auto values = static_cast<size_t>(p.n_head * p.head_dim_v() * p.n_lora_kv);
            const auto upload = [&](std::span<const float> part, std::vector<std::unique_ptr<DeviceBuffer>>& to) {
                to.push_back(backend.allocate(static_cast<int64_t>(part.size())));
                backend.write(part, to.back()->data());
            };
            for (const std::vector<float>& l : *projections.value()) {
                upload(std::span<const float>(l).first(keys), latent_keys_);
                upload(std::span<const float>(l).subspan(keys, values), latent_values_);
                upload(std::span<const float>(l).subspan(keys + values), latent_expand_);
            }
        }
    }
    if (model.weights().has_router()) {
        gates_ = backend.allocate(n_batch * p.n_router_groups);
        host_gates_.resize(static_cast<size_t>(n_batch * p.n_router_groups));
    }
    n_batch_ = n_batch;
}

Status LlamaForward::configure(const InstrumentOptions& options, const HeadAblation& ablation,
                               const ExpertAblation& experts) {
    const AttentionShape& s = attn_shape_;
    if (moe_) {
        if (auto st = moe_->configure(experts, options.router_probs); !st) return st;
    } else if (!experts.experts.empty()) {
        return make_error(ErrorCode::InvalidArgument, "the model has no experts to disable");
    }
    if (!ablation.heads.empty()) {
        if (static_cast<int64_t>(ablation.heads.size()) != n_layer_ * s.n_head) {
            return make_error(ErrorCode::InvalidArgument, "ablation: expected " + std::to_string(n_layer_ * s.n_head) +
                                                              " head flags, got " + std::to_string(ablation.heads.size()));
        }
        if (ablation.mode == AblationMode::Mean && static_cast<int64_t>(ablation.baseline.size()) != n_layer_ * n_q_) {
            return make_error(ErrorCode::InvalidArgument, "mean ablation: expected a baseline of " +
                                                              std::to_string(n_layer_ * n_q_) + " values, got " +
                                                              std::to_string(ablation.baseline.size()));
        }
    }
    if (options.head_norms && grams_.empty()) {
        auto grams = model_.head_grams(); // computed once per model
        if (!grams) return grams.error();
        for (const std::vector<float>& g : *grams.value()) {
            grams_.push_back(backend_.allocate(static_cast<int64_t>(g.size())));
            backend_.write(g, grams_.back()->data());
        }
        norms_ = backend_.allocate(n_batch_ * s.n_head);
    }
    if (options.head_norms || options.head_outputs || options.dla || options.hidden_layer >= 0 || options.layer_hidden) {
        host_.resize(static_cast<size_t>(n_batch_ * std::max(n_embd_, n_q_)));
    }
    baseline_.reset();
    if (!ablation.heads.empty() && ablation.mode == AblationMode::Mean) {
        baseline_ = backend_.allocate(n_layer_ * n_q_);
        backend_.write(ablation.baseline, baseline_->data());
    }
    instrument_ = options;
    ablation_ = ablation;
    return Ok{};
}

void LlamaForward::attention_block(const LayerWeights& lw, const LayerMatrices& m, int64_t layer, int64_t n,
                                   const KvBatchCells& cells, KvCache& cache, std::span<TokenProbe> probes,
                                   std::span<const BatchSequence> sequences) {
    AttentionShape s = attn_shape_;
    s.window = model_.params().layer_window(layer);
    if (s.window >= n_ctx_) s.window = 0; // no position is ever that far back: nothing to mask
    if (lw.attn_sinks) s.sinks = f32(lw.attn_sinks);
    backend_.rms_norm(x_->data(), f32(lw.attn_norm), normed_->data(), n, n_embd_, eps_);
    const ProductPrecision precision{precision_, batched_};
    const auto stride = static_cast<int64_t>(cells.read_cells.size());
    float* weights = nullptr;
    if (instrument_.attention && !probes.empty()) {
        if (!attn_weights_ || attn_weights_->size() < n_batch_ * s.n_head * stride) {
            attn_weights_ = backend_.allocate(n_batch_ * s.n_head * stride);
        }
        weights = attn_weights_->data();
    }
    if (lw.attn_kv_a_mqa) {
        latent_attention(lw, m, layer, n, cells, cache, weights, stride, sequences);
    } else {
        const MatmulOutput qkv[] = {{&m.q, q_->data()}, {&m.k, k_->data()}, {&m.v, v_->data()}};
        backend_.matmuls(qkv, normed_->data(), n, precision);
        if (lw.attn_q_bias) backend_.add_bias(q_->data(), f32(lw.attn_q_bias), n, n_q_);
        if (lw.attn_k_bias) backend_.add_bias(k_->data(), f32(lw.attn_k_bias), n, n_embd_kv_);
        if (lw.attn_v_bias) backend_.add_bias(v_->data(), f32(lw.attn_v_bias), n, n_embd_kv_);
        if (lw.attn_q_norm && model_.weights().arch->qk_norm == QkNorm::Whole) { // each token's q (k) is one row
            backend_.rms_norm(q_->data(), f32(lw.attn_q_norm), q_->data(), n, n_q_, eps_);
            backend_.rms_norm(k_->data(), f32(lw.attn_k_norm), k_->data(), n, n_embd_kv_, eps_);
        } else if (lw.attn_q_norm) { // each head's head_dim values are one row
            backend_.rms_norm(q_->data(), f32(lw.attn_q_norm), q_->data(), n * s.n_head, s.head_dim, eps_);
            backend_.rms_norm(k_->data(), f32(lw.attn_k_norm), k_->data(), n * s.n_head_kv, s.head_dim, eps_);
        }
        const RopeParams& rope = model_.params().is_sliding_layer(layer) ? rope_local_ : rope_;
        backend_.rope(q_->data(), n, s.n_head, s.head_dim, cells.positions, rope);
        backend_.rope(k_->data(), n, s.n_head_kv, s.head_dim, cells.positions, rope);
        backend_.kv_write(cache, layer, k_->data(), v_->data(), cells);
        if (sequences.empty()) {
            backend_.attention(cache, layer, q_->data(), attn_->data(), cells, s, weights, stride);
        } else {
            const int64_t row = n_q_; // q and the attention output: [n, n_head, head_dim]
            for (const BatchSequence& seq : sequences) {
                const auto first = static_cast<size_t>(seq.first_row), rows = static_cast<size_t>(seq.n_rows);
                const KvBatchCells own{cells.positions.subspan(first, rows), cells.write_cells.subspan(first, rows),
                                       seq.read_cells, seq.prompt_batch_end};
                backend_.attention(cache, layer, q_->data() + seq.first_row * row, attn_->data() + seq.first_row * row, own, s);
            }
        }
    }
    if (lw.router) route(lw, layer, n, cells, probes);
    if (!ablation_.heads.empty()) {
        std::span<const uint8_t> heads(ablation_.heads.data() + layer * s.n_head, static_cast<size_t>(s.n_head));
        const float* replacement = baseline_ ? baseline_->data() + layer * n_q_ : nullptr;
        backend_.ablate_heads(attn_->data(), heads, replacement, n, s.n_head, s.head_dim);
    }
    if (!probes.empty()) probe(layer, n, cells, probes);
    backend_.matmul(m.output, attn_->data(), proj_->data(), n, precision);
    if (lw.attn_output_bias) backend_.add_bias(proj_->data(), f32(lw.attn_output_bias), n, n_embd_);
    if (lw.attn_post_norm && (instrument_.dla || instrument_.head_norms) && !probes.empty()) {
        probe_post_norm_scale(layer, n, probes);
    }
    if (lw.attn_post_norm) backend_.rms_norm(proj_->data(), f32(lw.attn_post_norm), proj_->data(), n, n_embd_, eps_);
    backend_.add(x_->data(), proj_->data(), n * n_embd_);
}

void LlamaForward::latent_attention(const LayerWeights& lw, const LayerMatrices& m, int64_t layer, int64_t n,
                                    const KvBatchCells& cells, KvCache& cache, float* weights, int64_t weights_stride,
                                    std::span<const BatchSequence> sequences) {
    const ModelParams& p = model_.params();
    const ProductPrecision precision{precision_, batched_};
    const int64_t n_head = p.n_head, rot = p.n_rot, rank = p.n_lora_kv, nope = p.head_dim() - rot;
    const int64_t qk = p.head_dim(), row = p.kv_head_dim(); // a query head [nope | rot]; a cache row [rot | rank]
    // the queries [n, n_head, nope | rot], through the low rank when there is one
    if (lw.attn_q_a) {
        backend_.matmul(m.q_a, normed_->data(), q_low_->data(), n, precision);
        backend_.rms_norm(q_low_->data(), f32(lw.attn_q_a_norm), q_low_->data(), n, p.n_lora_q, eps_);
        backend_.matmul(m.q, q_low_->data(), q_->data(), n, precision);
    } else {
        backend_.matmul(m.q, normed_->data(), q_->data(), n, precision);
    }
    // the latent and the shared RoPE key part: kv_low_ [n, rank | rot]
    backend_.matmul(m.kv_a, normed_->data(), kv_low_->data(), n, precision);
    backend_.copy_columns(kv_low_->data(), rank + rot, latent_->data(), rank, n, rank);
    backend_.rms_norm(latent_->data(), f32(lw.attn_kv_a_norm), latent_->data(), n, rank, eps_);
    float* key = k_->data(); // [n, rot | rank]: the rows the cache keeps
    backend_.copy_columns(kv_low_->data() + rank, rank + rot, key, row, n, rot);
    backend_.copy_columns(latent_->data(), rank, key + rot, row, n, rank);
    backend_.rope(key, n, 1, row, cells.positions, rope_);
    backend_.kv_write(cache, layer, key, key, cells);
    if (expanded_batch_ && expanded_attention(layer, n, cells, cache, weights, weights_stride)) {
        return;
    }
    // absorbed queries [n, n_head, rot | rank]: the RoPE part rotated, the nope part through Wk_hᵀ
    backend_.copy_columns(q_->data() + nope, qk, q_lat_->data(), row, n * n_head, rot);
    backend_.rope(q_lat_->data(), n, n_head, row, cells.positions, rope_);
    backend_.head_matmul(Backend::HeadProduct{latent_keys_[static_cast<size_t>(layer)]->data(), nope, rank,
                                              n_head * qk, qk, n_head * row, row},
                         q_->data(), q_lat_->data() + rot, n, n_head);
    if (sequences.empty()) {
        backend_.attention(cache, layer, q_lat_->data(), o_lat_->data(), cells, latent_shape_, weights, weights_stride);
    } else {
        const int64_t width = n_head * row;
        for (const BatchSequence& seq : sequences) {
            const auto first = static_cast<size_t>(seq.first_row), rows = static_cast<size_t>(seq.n_rows);
            const KvBatchCells own{cells.positions.subspan(first, rows), cells.write_cells.subspan(first, rows),
                                   seq.read_cells, seq.prompt_batch_end};
            backend_.attention(cache, layer, q_lat_->data() + seq.first_row * width, o_lat_->data() + seq.first_row * width,
                               own, latent_shape_);
        }
    }
    // each head's output a_h = Wv_h o_h from the weighted latent (past the RoPE part) into attn_
    const int64_t dv = p.head_dim_v();
    backend_.head_matmul(Backend::HeadProduct{latent_values_[static_cast<size_t>(layer)]->data(), rank, dv,
                                              n_head * row, row, n_head * dv, dv},
                         o_lat_->data() + rot, attn_->data(), n, n_head);
}

// Whether the expanded form costs fewer multiply-adds for this batch (one sequence): it expands
// every position seen, P · r · (nope + dv) per head, and then needs qk + dv per query and seen
// position instead of the absorbed form's 2 (n_rot + r). With Octoscope's 64-token batches it never
// is for DeepSeek's shapes (it needs more than r (nope + dv) / (2 (n_rot + r) - qk - dv) tokens in
// a batch: 79 for bench's 1024x8x16, 158 for V3); a whole long prompt in one batch is.
bool LlamaForward::expanded_is_cheaper(const KvBatchCells& cells) const {
    const ModelParams& p = model_.params();
    const int64_t r = p.n_lora_kv, nope = p.head_dim() - p.n_rot, dv = p.head_dim_v(), qk = p.head_dim();
    const auto positions = static_cast<int64_t>(cells.read_cells.size());
    int64_t pairs = 0; // (query, seen position) pairs of the batch
    for (const int32_t pos : cells.positions) pairs += pos + 1;
    const int64_t saved_per_pair = 2 * (p.n_rot + r) - qk - dv;
    // its scratch (the latent read back, keys and values, their cache) stays under kExpandedScratchBytes
    const int64_t scratch = positions * (p.kv_head_dim() + 4 * p.n_head * qk) * static_cast<int64_t>(sizeof(float));
    return cells.positions.size() > 1 && saved_per_pair > 0 && scratch <= kExpandedScratchBytes &&
           positions * r * (nope + dv) < pairs * saved_per_pair;
}

// The expanded form (what the float64 pass computes), false (nothing done) when its scratch cache
// cannot be had: every seen position's latent read back
// from the cache and expanded into per-head keys [rope(k_r) | Wk_h c] and values Wv_h c (padded
// to the key size with zeros), queries [rope(q_r) | q_nope], plain multi-head attention over a
// scratch cache, each head's first dv outputs into attn_. The same logits as the absorbed form
// to float rounding (the sums run over other terms).
bool LlamaForward::expanded_attention(int64_t layer, int64_t n, const KvBatchCells& cells, const KvCache& cache,
                                      float* weights, int64_t weights_stride) {
    const ModelParams& p = model_.params();
    const int64_t n_head = p.n_head, rot = p.n_rot, rank = p.n_lora_kv, nope = p.head_dim() - rot;
    const int64_t qk = p.head_dim(), dv = p.head_dim_v(), row = p.kv_head_dim();
    const auto n_pos = static_cast<int64_t>(cells.read_cells.size());
    if (!expanded_cache_ || expanded_cache_->shape().n_cells < n_pos) { // grown to the positions seen
        auto scratch = backend_.create_kv_cache(KvCacheShape{1, std::max<int64_t>(n_pos, 2 * n_batch_), n_head, qk});
        if (!scratch) return false; // the absorbed form needs no scratch
        expanded_cache_ = std::move(scratch.value());
        const int64_t cells_n = expanded_cache_->shape().n_cells;
        expanded_rows_ = backend_.allocate(cells_n * row);
        expanded_k_ = backend_.allocate(cells_n * n_head * qk);
        expanded_v_ = backend_.allocate(cells_n * n_head * qk);
        backend_.write(std::vector<float>(static_cast<size_t>(cells_n * n_head * qk), 0.0f), expanded_v_->data()); // the padding stays 0
        identity_.resize(static_cast<size_t>(cells_n));
        for (size_t i = 0; i < identity_.size(); ++i) identity_[i] = static_cast<int32_t>(i);
    }
    if (!q_exp_) {
        q_exp_ = backend_.allocate(n_batch_ * n_head * qk);
        o_exp_ = backend_.allocate(n_batch_ * n_head * qk);
    }
    // every seen position's [rope(k_r) | c], then its heads' keys and values
    backend_.kv_read_keys(cache, layer, cells.read_cells, expanded_rows_->data());
    const float* rows = expanded_rows_->data();
    float* k = expanded_k_->data();
    for (int64_t h = 0; h < n_head; ++h) backend_.copy_columns(rows, row, k + h * qk, n_head * qk, n_pos, rot);
    backend_.head_matmul(Backend::HeadProduct{latent_expand_[static_cast<size_t>(layer)]->data(), rank, nope, row, 0,
                                              n_head * qk, qk},
                         rows + rot, k + rot, n_pos, n_head);
    backend_.head_matmul(Backend::HeadProduct{latent_values_[static_cast<size_t>(layer)]->data(), rank, dv, row, 0,
                                              n_head * qk, qk},
                         rows + rot, expanded_v_->data(), n_pos, n_head);
    const std::span<const int32_t> all(identity_.data(), static_cast<size_t>(n_pos));
    backend_.kv_write(*expanded_cache_, 0, k, expanded_v_->data(), KvBatchCells{all, all, all, cells.prompt_batch_end});
    // queries [rope(q_r) | q_nope] from q_'s [q_nope | q_r]
    backend_.copy_columns(q_->data() + nope, qk, q_exp_->data(), qk, n * n_head, rot);
    backend_.copy_columns(q_->data(), qk, q_exp_->data() + rot, qk, n * n_head, nope);
    backend_.rope(q_exp_->data(), n, n_head, qk, cells.positions, rope_);
    AttentionShape s = latent_shape_;
    s.n_head_kv = n_head;
    s.head_dim = qk;
    backend_.attention(*expanded_cache_, 0, q_exp_->data(), o_exp_->data(),
                       KvBatchCells{cells.positions, cells.write_cells, all, cells.prompt_batch_end}, s, weights, weights_stride);
    backend_.copy_columns(o_exp_->data(), qk, attn_->data(), dv, n * n_head, dv);
    return true;
}

void LlamaForward::route(const LayerWeights& lw, int64_t layer, int64_t n, const KvBatchCells& cells,
                         std::span<TokenProbe> probes) {
    const AttentionShape& s = attn_shape_;
    const int64_t n_groups = model_.weights().n_router_groups;
    backend_.matmul(weight_matrix(*lw.router), normed_->data(), gates_->data(), n, ProductPrecision{precision_, batched_}); // [n, n_groups] logits
    backend_.softmax_rows(gates_->data(), n, n_groups);
    std::span<float> host(host_gates_.data(), static_cast<size_t>(n * n_groups));
    backend_.read(gates_->data(), host);
    bool at_start = false; // position 0 (BOS) belongs to no group: every head's output is zeroed there
    for (int64_t t = 0; t < n; ++t) {
        if (cells.positions[static_cast<size_t>(t)] != 0) continue;
        std::fill_n(host.begin() + t * n_groups, n_groups, 0.0f);
        at_start = true;
    }
    if (at_start) backend_.write(host, gates_->data());
    backend_.scale_head_groups(attn_->data(), gates_->data(), n, s.n_head, s.head_dim, n_groups);
    for (int64_t t = 0; t < static_cast<int64_t>(probes.size()); ++t) {
        std::vector<float>& dst = probes[static_cast<size_t>(t)].gates; // [n_layer][n_groups]
        dst.resize(static_cast<size_t>(n_layer_ * n_groups));
        std::copy_n(host.begin() + t * n_groups, n_groups, dst.begin() + layer * n_groups);
    }
}

void LlamaForward::probe(int64_t layer, int64_t n, const KvBatchCells& cells, std::span<TokenProbe> probes) {
    const AttentionShape& s = attn_shape_;
    if (instrument_.head_norms) {
        backend_.head_norms(attn_->data(), grams_[static_cast<size_t>(layer)]->data(), norms_->data(), n, s.n_head,
                            s.head_dim);
        backend_.read(norms_->data(), std::span<float>(host_).first(static_cast<size_t>(n * s.n_head)));
        for (int64_t t = 0; t < n; ++t) {
            std::vector<float>& dst = probes[static_cast<size_t>(t)].head_norms; // [n_layer][n_head]
            dst.resize(static_cast<size_t>(n_layer_ * s.n_head));
            std::copy_n(host_.begin() + t * s.n_head, s.n_head, dst.begin() + layer * s.n_head);
        }
    }
    if (instrument_.head_outputs || instrument_.dla) {
        backend_.read(attn_->data(), std::span<float>(host_).first(static_cast<size_t>(n * n_q_)));
        for (int64_t t = 0; t < n; ++t) {
            std::vector<float>& dst = probes[static_cast<size_t>(t)].head_outputs; // [n_layer][n_q]
            dst.resize(static_cast<size_t>(n_layer_ * n_q_));
            std::copy_n(host_.begin() + t * n_q_, n_q_, dst.begin() + layer * n_q_);
        }
    }
    if (instrument_.attention) {
        const auto stride = static_cast<int64_t>(cells.read_cells.size());
        std::vector<float> w(static_cast<size_t>(n * s.n_head * stride)); // [n, n_head, stride]
        backend_.read(attn_weights_->data(), w);
        for (int64_t t = 0; t < n; ++t) {
            const int64_t seen = cells.positions[static_cast<size_t>(t)] + 1;
            std::vector<float>& dst = probes[static_cast<size_t>(t)].attention; // [n_layer][n_head][seen]
            dst.resize(static_cast<size_t>(n_layer_ * s.n_head * seen));
            for (int64_t h = 0; h < s.n_head; ++h) {
                std::copy_n(w.begin() + (t * s.n_head + h) * stride, seen, dst.begin() + (layer * s.n_head + h) * seen);
            }
            if (!model_.weights().arch->attn_sinks) continue;
            std::vector<float>& sink = probes[static_cast<size_t>(t)].attention_sink; // [n_layer][n_head]
            sink.resize(static_cast<size_t>(n_layer_ * s.n_head));
            for (int64_t h = 0; h < s.n_head; ++h) { // what the positions leave, summed in double
                double sum = 0.0;
                for (int64_t j = 0; j < seen; ++j) sum += w[static_cast<size_t>((t * s.n_head + h) * stride + j)];
                sink[static_cast<size_t>(layer * s.n_head + h)] = static_cast<float>(std::max(0.0, 1.0 - sum));
            }
        }
    }
}

// The residual stream of each token after the configured layer (router embeddings).
void LlamaForward::probe_hidden(int64_t n, std::span<TokenProbe> probes) {
    backend_.read(x_->data(), std::span<float>(host_).first(static_cast<size_t>(n * n_embd_)));
    for (int64_t t = 0; t < n; ++t) {
        probes[static_cast<size_t>(t)].hidden.assign(host_.begin() + t * n_embd_, host_.begin() + (t + 1) * n_embd_);
    }
}

// The residual stream of each token after `layer`, into its place in layer_hidden (the logit lens).
void LlamaForward::probe_layer_hidden(int64_t layer, int64_t n, std::span<TokenProbe> probes) {
    backend_.read(x_->data(), std::span<float>(host_).first(static_cast<size_t>(n * n_embd_)));
    for (int64_t t = 0; t < n; ++t) {
        std::vector<float>& kept = probes[static_cast<size_t>(t)].layer_hidden;
        kept.resize(static_cast<size_t>(n_layer_ * n_embd_));
        std::copy(host_.begin() + t * n_embd_, host_.begin() + (t + 1) * n_embd_, kept.begin() + layer * n_embd_);
    }
}

// 1 / rms of each token's final residual: the output norm's scale, an input of direct logit
// attribution (computed in double from the same floats the output norm reads).
void LlamaForward::probe_final_scale(int64_t n, std::span<TokenProbe> probes) {
    backend_.read(x_->data(), std::span<float>(host_).first(static_cast<size_t>(n * n_embd_)));
    for (int64_t t = 0; t < n; ++t) {
        double sum = 0.0;
        for (int64_t i = 0; i < n_embd_; ++i) sum += static_cast<double>(host_[static_cast<size_t>(t * n_embd_ + i)]) * host_[static_cast<size_t>(t * n_embd_ + i)];
        probes[static_cast<size_t>(t)].final_inv_rms =
            static_cast<float>(1.0 / std::sqrt(sum / static_cast<double>(n_embd_) + static_cast<double>(eps_)));
    }
}

// 1 / rms of each token's attention output before the post-attention norm: the factor every
// head's contribution is scaled by on its way into the residual (an input of DLA, and of the
// head norms, which it scales; in double from the floats the norm reads).
void LlamaForward::probe_post_norm_scale(int64_t layer, int64_t n, std::span<TokenProbe> probes) {
    backend_.read(proj_->data(), std::span<float>(host_).first(static_cast<size_t>(n * n_embd_)));
    for (int64_t t = 0; t < n; ++t) {
        double sum = 0.0;
        for (int64_t i = 0; i < n_embd_; ++i) {
            const double v = host_[static_cast<size_t>(t * n_embd_ + i)];
            sum += v * v;
        }
        TokenProbe& probe = probes[static_cast<size_t>(t)];
        const auto s = static_cast<float>(1.0 / std::sqrt(sum / static_cast<double>(n_embd_) + static_cast<double>(eps_)));
        probe.post_attn_inv_rms.resize(static_cast<size_t>(n_layer_));
        probe.post_attn_inv_rms[static_cast<size_t>(layer)] = s;
        if (instrument_.head_norms) { // the Gram matrices hold the norm's weights; its scale is this token's
            const int64_t n_head = attn_shape_.n_head;
            for (int64_t h = 0; h < n_head; ++h) probe.head_norms[static_cast<size_t>(layer * n_head + h)] *= s;
        }
    }
}

void LlamaForward::ffn_block(const LayerWeights& lw, const LayerMatrices& m, int64_t layer, int64_t n,
                             std::span<TokenProbe> probes) {
    backend_.rms_norm(x_->data(), f32(lw.ffn_norm), normed_->data(), n, n_embd_, eps_);
    const std::span<const uint8_t> batched = layer == n_layer_ - 1 ? batched_last_ : batched_;
    const ProductPrecision precision{precision_, batched};
    if (moe_ && lw.ffn_gate_exps) {
        moe_->run(lw, layer, normed_->data(), proj_->data(), n, probes, batched);
        backend_.add(x_->data(), proj_->data(), n * n_embd_);
        return;
    }
    const MatmulOutput gate_up[] = {{&m.gate, gate_->data()}, {&m.up, up_->data()}};
    backend_.matmuls(gate_up, normed_->data(), n, precision);
    if (model_.weights().arch->gelu_ffn) {
        backend_.gelu_gate(gate_->data(), up_->data(), gate_->data(), n * n_ff_, gelu_mode_);
    } else if (model_.weights().arch->clamped_swiglu) {
        backend_.clamped_swiglu(gate_->data(), up_->data(), gate_->data(), n * n_ff_, kClampedSwigluAlpha, kClampedSwigluLimit);
    } else {
        backend_.swiglu(gate_->data(), up_->data(), gate_->data(), n, n_ff_, precision_);
    }
    backend_.matmul(m.down, gate_->data(), proj_->data(), n, precision);
    if (lw.ffn_post_norm) backend_.rms_norm(proj_->data(), f32(lw.ffn_post_norm), proj_->data(), n, n_embd_, eps_);
    backend_.add(x_->data(), proj_->data(), n * n_embd_);
}

Status LlamaForward::run(std::span<const int32_t> tokens, const KvBatchCells& cells, KvCache& cache,
                         int64_t n_logit_rows, std::span<float> logits, const std::atomic<bool>* cancel,
                         std::span<TokenProbe> probes, std::span<const BatchSequence> sequences) {
    const auto n = static_cast<int64_t>(tokens.size());
    if (!latent_status_) return latent_status_;
    if (!sequences.empty()) {
        int64_t covered = 0;
        for (const BatchSequence& seq : sequences) {
            if (seq.first_row != covered || seq.n_rows < 1) break;
            covered += seq.n_rows;
        }
        if (covered != n) return make_error(ErrorCode::InvalidArgument, "the batch's sequences do not cover its rows in order");
        if (instrument_.attention) {
            return make_error(ErrorCode::InvalidArgument, "attention weights are not recorded for a batch of several sequences");
        }
    }
    // The reference evaluates a prompt of two or more tokens as one batch and a generated token
    // alone (KvBatchCells::prompt_batch_end). In the last layer, after attention, it keeps only
    // the rows whose logits are asked — in its ordinary use the prompt's last token, alone.
    batched_.assign(static_cast<size_t>(n), 0);
    batched_last_.assign(static_cast<size_t>(n), 0);
    for (int64_t t = 0, s = 0; t < n; ++t) {
        while (!sequences.empty() && t >= sequences[static_cast<size_t>(s)].first_row + sequences[static_cast<size_t>(s)].n_rows) ++s;
        const int64_t end = sequences.empty() ? cells.prompt_batch_end : sequences[static_cast<size_t>(s)].prompt_batch_end;
        const int64_t pos = cells.positions[static_cast<size_t>(t)];
        batched_[static_cast<size_t>(t)] = pos < end;
        batched_last_[static_cast<size_t>(t)] = pos + 1 < end;
    }
    // latent attention's form, one choice for every layer of the batch
    expanded_batch_ = model_.params().latent_attention() && sequences.empty() && expanded_is_cheaper(cells);
    const ModelWeights& w = model_.weights();
    backend_.embed(weight_matrix(*w.token_embd), tokens, x_->data());
    if (w.arch->embed_scale) backend_.scale(x_->data(), n * n_embd_, std::sqrt(static_cast<float>(n_embd_)));
    for (size_t l = 0; l < w.layers.size(); ++l) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            return make_error(ErrorCode::Cancelled, "evaluation was cancelled");
        }
        attention_block(w.layers[l], matrices_[l], static_cast<int64_t>(l), n, cells, cache, probes, sequences);
        ffn_block(w.layers[l], matrices_[l], static_cast<int64_t>(l), n, probes);
        if (instrument_.hidden_layer == static_cast<int64_t>(l) && !probes.empty()) probe_hidden(n, probes);
        if (instrument_.layer_hidden && !probes.empty()) probe_layer_hidden(static_cast<int64_t>(l), n, probes);
    }
    if (instrument_.dla && !probes.empty()) probe_final_scale(n, probes);
    if (n_logit_rows == 0) return Ok{};
    if (n_logit_rows > logits_rows_) { // most runs ask for one row: the batch's rows are allocated only when asked for
        logits_ = backend_.allocate(n_logit_rows * n_vocab_);
        logits_rows_ = n_logit_rows;
    }
    const float* last_rows = x_->data() + (n - n_logit_rows) * n_embd_; // [n_logit_rows, n_embd]
    backend_.rms_norm(last_rows, f32(w.output_norm), normed_->data(), n_logit_rows, n_embd_, eps_);
    const ProductPrecision last_rows_precision{
        precision_, std::span<const uint8_t>(batched_last_).subspan(static_cast<size_t>(n - n_logit_rows))};
    backend_.matmul(weight_matrix(*w.output), normed_->data(), logits_->data(), n_logit_rows, last_rows_precision);
    if (const double cap = model_.params().final_logit_softcap; cap > 0.0) {
        backend_.softcap(logits_->data(), n_logit_rows * n_vocab_, static_cast<float>(cap));
    }
    backend_.read(logits_->data(), logits.first(static_cast<size_t>(n_logit_rows * n_vocab_)));
    return Ok{};
}

} // namespace octo
