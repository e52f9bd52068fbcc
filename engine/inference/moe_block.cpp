#include "engine/inference/moe_block.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/backend/cpu/reference_float.h"
#include "engine/inference/llama_forward.h"

namespace octo {

void route_token(std::span<const float> logits, std::span<const uint8_t> disabled, int64_t n_used, const RouterRule& rule,
                 TokenRouting& out, Precision precision) {
    const auto n_expert = static_cast<int64_t>(logits.size());
    const auto off = [&](int64_t e) { return !disabled.empty() && disabled[static_cast<size_t>(e)] != 0; };
    const bool reference = precision == Precision::Reference && disabled.empty() && !rule.sigmoid;
    if (rule.sigmoid) {
        out.probs.assign(static_cast<size_t>(n_expert), 0.0f);
        for (int64_t e = 0; e < n_expert; ++e) {
            if (!off(e)) out.probs[static_cast<size_t>(e)] = 1.0f / (1.0f + std::exp(-logits[static_cast<size_t>(e)]));
        }
    } else {
        float max_logit = -INFINITY;
        for (int64_t e = 0; e < n_expert; ++e) {
            if (!off(e)) max_logit = std::max(max_logit, logits[static_cast<size_t>(e)]);
        }
        double sum = 0.0;
        if (reference) {
            out.probs.assign(logits.begin(), logits.end());
            sum = reference_softmax_exp(out.probs.data(), 0, n_expert, max_logit);
        } else {
            out.probs.assign(static_cast<size_t>(n_expert), 0.0f);
            for (int64_t e = 0; e < n_expert; ++e) {
                if (!off(e)) sum += (out.probs[static_cast<size_t>(e)] = std::exp(logits[static_cast<size_t>(e)] - max_logit));
            }
        }
        const auto inv = static_cast<float>(1.0 / sum);
        for (float& v : out.probs) v *= inv;
    }
    // what the choice compares: the gates, plus the selection bias where there is one
    const auto key = [&](int32_t e) {
        const float p = out.probs[static_cast<size_t>(e)];
        return rule.selection_bias ? p + rule.selection_bias[e] : p;
    };
    // The n_used highest enabled experts, highest first, ties to the lower id (no allocation:
    // this runs for every token of every layer).
    out.ids.clear();
    for (int64_t k = 0; k < n_used; ++k) {
        int32_t best = -1;
        for (int32_t e = 0; e < static_cast<int32_t>(n_expert); ++e) {
            if (off(e) || std::find(out.ids.begin(), out.ids.end(), e) != out.ids.end()) continue;
            if (best < 0 || key(e) > key(best)) best = e;
        }
        out.ids.push_back(best);
    }
    out.weights.resize(static_cast<size_t>(n_used));
    float used_sum = 0.0f;
    if (reference) {
        double total = 0.0;
        for (int32_t e : out.ids) total += static_cast<double>(out.probs[static_cast<size_t>(e)]);
        used_sum = static_cast<float>(total);
    } else {
        for (int32_t e : out.ids) used_sum += out.probs[static_cast<size_t>(e)];
    }
    for (int64_t k = 0; k < n_used; ++k) {
        const float p = out.probs[static_cast<size_t>(out.ids[static_cast<size_t>(k)])];
        const float w = rule.renormalise ? p / used_sum : p;
        out.weights[static_cast<size_t>(k)] = rule.scale != 1.0f ? w * rule.scale : w;
    }
}

MoeBlock::MoeBlock(const Model& model, Backend& backend, int64_t n_batch, Precision precision)
    : backend_(backend), precision_(precision) {
    const ModelParams& p = model.params();
    const ArchitectureInfo& a = *model.weights().arch;
    n_layer_ = p.n_layer;
    n_embd_ = p.n_embd;
    n_expert_ = p.n_expert;
    n_used_ = p.n_expert_used;
    n_ff_exp_ = p.n_ff_exp;
    n_ff_shexp_ = a.shared_expert ? p.n_ff_shexp : 0;
    n_slots_ = n_used_ + (a.shared_expert ? 1 : 0);
    rule_ = RouterRule{.sigmoid = p.expert_gating_sigmoid,
                       .renormalise = p.expert_weights_norm,
                       .scale = static_cast<float>(p.expert_weights_scale)};
    clamped_swiglu_ = a.clamped_swiglu;
    const int64_t n_ff = std::max(n_ff_exp_, n_ff_shexp_);
    host_logits_.resize(static_cast<size_t>(n_batch * n_expert_));
    host_weights_.resize(static_cast<size_t>(n_batch * n_slots_));
    routing_.resize(static_cast<size_t>(n_batch));
    tokens_of_.resize(static_cast<size_t>(n_expert_));
    slots_of_.resize(static_cast<size_t>(n_expert_));
    for (int64_t t = 0; t < n_batch && a.shared_expert; ++t) shared_slots_.push_back(static_cast<int32_t>(t * n_slots_ + n_used_));
    logits_ = backend.allocate(n_batch * n_expert_);
    in_ = backend.allocate(n_batch * n_embd_);
    gate_ = backend.allocate(n_batch * n_ff);
    up_ = backend.allocate(n_batch * n_ff);
    res_ = backend.allocate(n_batch * n_embd_);
    slots_ = backend.allocate(n_batch * n_slots_ * n_embd_);
    weights_ = backend.allocate(n_batch * n_slots_);
}

Status MoeBlock::configure(const ExpertAblation& ablation, bool router_probs) {
    if (!ablation.experts.empty() && static_cast<int64_t>(ablation.experts.size()) != n_layer_ * n_expert_) {
        return make_error(ErrorCode::InvalidArgument, "expert ablation: expected " + std::to_string(n_layer_ * n_expert_) +
                                                          " expert flags, got " + std::to_string(ablation.experts.size()));
    }
    ablation_ = ablation;
    router_probs_ = router_probs;
    return Ok{};
}

// The SwiGLU of `expert` over the n gathered tokens in in_ (or h itself when every token of the
// batch chose it), into res_.
void MoeBlock::run_expert(const LayerWeights& lw, int64_t expert, const float* h, int64_t n) {
    const WeightMatrix gate = weight_rows(*lw.ffn_gate_exps, expert * n_ff_exp_, n_ff_exp_);
    const WeightMatrix up = weight_rows(*lw.ffn_up_exps, expert * n_ff_exp_, n_ff_exp_);
    const MatmulOutput gate_up[] = {{&gate, gate_->data()}, {&up, up_->data()}};
    backend_.matmuls(gate_up, h, n, precision_);
    const auto bias = [&](const GgufTensorInfo* t, int64_t width) { // expert e's row of a [width, n_expert] bias
        return reinterpret_cast<const float*>(t->data) + expert * width;
    };
    if (lw.ffn_gate_exps_bias) {
        backend_.add_bias(gate_->data(), bias(lw.ffn_gate_exps_bias, n_ff_exp_), n, n_ff_exp_);
        backend_.add_bias(up_->data(), bias(lw.ffn_up_exps_bias, n_ff_exp_), n, n_ff_exp_);
    }
    if (clamped_swiglu_) {
        backend_.clamped_swiglu(gate_->data(), up_->data(), gate_->data(), n * n_ff_exp_, kClampedSwigluAlpha,
                                kClampedSwigluLimit);
    } else {
        backend_.swiglu(gate_->data(), up_->data(), gate_->data(), n, n_ff_exp_, precision_);
    }
    backend_.matmul(weight_rows(*lw.ffn_down_exps, expert * n_embd_, n_embd_), gate_->data(), res_->data(), n, precision_);
    if (lw.ffn_down_exps_bias) backend_.add_bias(res_->data(), bias(lw.ffn_down_exps_bias, n_embd_), n, n_embd_);
}

// The shared expert over every token, into the last slot, weighted by its sigmoid gate (qwen2moe:
// computed as silu(x) / x, as llama.cpp does) or by 1 (no gate: deepseek2).
void MoeBlock::shared_expert(const LayerWeights& lw, const float* h, int64_t n, const ProductPrecision& precision) {
    if (lw.ffn_gate_inp_shexp) {
        const auto& g = *lw.ffn_gate_inp_shexp;
        const WeightMatrix gate_row{g.type.type, g.data, n_embd_, 1, static_cast<uint64_t>(n_embd_) * sizeof(float)};
        backend_.matmul(gate_row, h, res_->data(), n, precision);
        std::span<float> x(host_logits_.data(), static_cast<size_t>(n)); // the router's logits are routed by now
        backend_.read(res_->data(), x);
        for (int64_t t = 0; t < n; ++t) {
            const float v = x[static_cast<size_t>(t)];
            host_weights_[static_cast<size_t>(t * n_slots_ + n_used_)] = v == 0.0f ? 0.5f : v / (1.0f + std::exp(-v)) / v;
        }
    } else {
        for (int64_t t = 0; t < n; ++t) host_weights_[static_cast<size_t>(t * n_slots_ + n_used_)] = 1.0f;
    }
    const WeightMatrix gate = weight_matrix(*lw.ffn_gate_shexp);
    const WeightMatrix up = weight_matrix(*lw.ffn_up_shexp);
    const MatmulOutput gate_up[] = {{&gate, gate_->data()}, {&up, up_->data()}};
    backend_.matmuls(gate_up, h, n, precision);
    backend_.swiglu(gate_->data(), up_->data(), gate_->data(), n, n_ff_shexp_, precision_);
    backend_.matmul(weight_matrix(*lw.ffn_down_shexp), gate_->data(), res_->data(), n, precision);
    backend_.scatter_rows(res_->data(), std::span<const int32_t>(shared_slots_).first(static_cast<size_t>(n)), slots_->data(),
                          n_embd_);
}

void MoeBlock::run(const LayerWeights& lw, int64_t layer, const float* h, float* out, int64_t n,
                   std::span<TokenProbe> probes, std::span<const uint8_t> batched) {
    const ProductPrecision precision{precision_, batched};
    backend_.matmul(weight_matrix(*lw.ffn_gate_inp), h, logits_->data(), n, precision);
    if (lw.ffn_gate_inp_bias) {
        backend_.add_bias(logits_->data(), reinterpret_cast<const float*>(lw.ffn_gate_inp_bias->data), n, n_expert_);
    }
    std::span<float> logits(host_logits_.data(), static_cast<size_t>(n * n_expert_));
    backend_.read(logits_->data(), logits);
    RouterRule rule = rule_;
    if (lw.ffn_exp_probs_b) rule.selection_bias = reinterpret_cast<const float*>(lw.ffn_exp_probs_b->data);
    std::span<const uint8_t> disabled;
    if (!ablation_.experts.empty()) {
        disabled = std::span<const uint8_t>(ablation_.experts).subspan(static_cast<size_t>(layer * n_expert_),
                                                                       static_cast<size_t>(n_expert_));
    }
    for (auto& v : tokens_of_) v.clear();
    for (auto& v : slots_of_) v.clear();
    for (int64_t t = 0; t < n; ++t) {
        TokenRouting& r = routing_[static_cast<size_t>(t)];
        route_token(logits.subspan(static_cast<size_t>(t * n_expert_), static_cast<size_t>(n_expert_)), disabled, n_used_,
                    rule, r, precision_);
        for (int64_t k = 0; k < n_used_; ++k) {
            const int32_t e = r.ids[static_cast<size_t>(k)];
            tokens_of_[static_cast<size_t>(e)].push_back(static_cast<int32_t>(t));
            slots_of_[static_cast<size_t>(e)].push_back(static_cast<int32_t>(t * n_slots_ + k));
            host_weights_[static_cast<size_t>(t * n_slots_ + k)] = r.weights[static_cast<size_t>(k)];
        }
    }
    for (int64_t e = 0; e < n_expert_; ++e) {
        const std::vector<int32_t>& tokens = tokens_of_[static_cast<size_t>(e)];
        if (tokens.empty()) continue; // its weights are not read
        const auto m = static_cast<int64_t>(tokens.size());
        const float* x = h;
        if (m != n) { // not every token chose it: gather those that did
            backend_.gather_rows(h, tokens, in_->data(), n_embd_);
            x = in_->data();
        }
        run_expert(lw, e, x, m);
        backend_.scatter_rows(res_->data(), slots_of_[static_cast<size_t>(e)], slots_->data(), n_embd_);
    }
    if (lw.ffn_gate_shexp) shared_expert(lw, h, n, precision);
    backend_.write(std::span<const float>(host_weights_.data(), static_cast<size_t>(n * n_slots_)), weights_->data());
    backend_.weighted_sum(slots_->data(), weights_->data(), out, n, n_slots_, n_embd_);

    for (int64_t t = 0; t < static_cast<int64_t>(probes.size()); ++t) {
        const TokenRouting& r = routing_[static_cast<size_t>(t)];
        TokenProbe& p = probes[static_cast<size_t>(t)];
        // -1: no routing in that layer (deepseek2's leading dense blocks)
        p.expert_ids.resize(static_cast<size_t>(n_layer_ * n_used_), -1);
        p.expert_weights.resize(static_cast<size_t>(n_layer_ * n_used_));
        std::copy(r.ids.begin(), r.ids.end(), p.expert_ids.begin() + layer * n_used_);
        std::copy(r.weights.begin(), r.weights.end(), p.expert_weights.begin() + layer * n_used_);
        if (n_slots_ > n_used_) {
            p.shared_gate.resize(static_cast<size_t>(n_layer_));
            p.shared_gate[static_cast<size_t>(layer)] = host_weights_[static_cast<size_t>(t * n_slots_ + n_used_)];
        }
        if (router_probs_) {
            p.router_probs.resize(static_cast<size_t>(n_layer_ * n_expert_));
            std::copy(r.probs.begin(), r.probs.end(), p.router_probs.begin() + layer * n_expert_);
        }
    }
}

} // namespace octo
