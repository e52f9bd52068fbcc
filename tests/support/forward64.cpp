#include "tests/support/forward64.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/inference/session.h"
#include "tests/support/error_norms.h"

namespace octo::test {

Vec f32_vector(const GgufTensorInfo* t) {
    const auto* f = reinterpret_cast<const float*>(t->data);
    return Vec(f, f + t->ne[0]);
}

// x[first, first + n) / sqrt(mean(x²) + eps) * w
void rms_norm(Vec& x, int64_t first, int64_t n, const Vec& w, double eps) {
    double ss = 0.0;
    for (int64_t i = 0; i < n; ++i) ss += x[static_cast<size_t>(first + i)] * x[static_cast<size_t>(first + i)];
    const double scale = 1.0 / std::sqrt(ss / static_cast<double>(n) + eps);
    for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(first + i)] *= scale * w[static_cast<size_t>(i)];
}


// One head of head_dim values at x[first...], position pos.
void rope(Vec& x, int64_t first, int64_t pos, const RopeSpec& r) {
    // YaRN (Peng et al. 2023, as llama.cpp implements it): pairs rotating fewer than once over the
    // original context are interpolated, those rotating more than 32 times are kept, a linear ramp
    // in between; the attention is sharpened by 1 + 0.1 ln(factor).
    const auto corr = [&](double rotations) {
        return static_cast<double>(r.n_rot) * std::log(static_cast<double>(r.yarn_orig_ctx) / (rotations * 2.0 * M_PI)) /
               (2.0 * std::log(r.base));
    };
    const double low = r.yarn ? std::max(0.0, std::floor(corr(32.0))) : 0.0;
    const double high = r.yarn ? std::min(static_cast<double>(r.n_rot - 1), std::ceil(corr(1.0))) : 0.0;
    const double mscale = r.yarn ? 1.0 + 0.1 * std::log(1.0 / r.freq_scale) : 1.0;
    for (int64_t i = 0; i < r.n_rot / 2; ++i) {
        double theta = static_cast<double>(pos) * std::pow(r.base, -2.0 * static_cast<double>(i) / static_cast<double>(r.n_rot));
        if (!r.factors.empty()) theta /= r.factors[static_cast<size_t>(i)];
        if (r.yarn) {
            const double ramp = 1.0 - std::clamp((static_cast<double>(i) - low) / std::max(0.001, high - low), 0.0, 1.0);
            theta = theta * r.freq_scale * (1.0 - ramp) + theta * ramp;
        } else {
            theta *= r.freq_scale;
        }
        const auto a = static_cast<size_t>(first + (r.neox ? i : 2 * i));
        const auto b = static_cast<size_t>(first + (r.neox ? i + r.n_rot / 2 : 2 * i + 1));
        const double x0 = x[a], x1 = x[b];
        x[a] = (x0 * std::cos(theta) - x1 * std::sin(theta)) * r.attn_factor * mscale;
        x[b] = (x0 * std::sin(theta) + x1 * std::cos(theta)) * r.attn_factor * mscale;
    }
}


namespace {

double gelu64(double x) { return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x))); }

// SwiGLU over rows [first, first + n_ff) of gate and up and the n_embd rows of down from `down_first`.
Vec swiglu64(const Matrix& gate, const Matrix& up, const Matrix& down, int64_t first, int64_t n_ff, int64_t down_first,
             int64_t n_embd, const Vec& h) {
    Vec g = gate.times(h, first, n_ff);
    const Vec u = up.times(h, first, n_ff);
    for (size_t i = 0; i < g.size(); ++i) g[i] = g[i] / (1.0 + std::exp(-g[i])) * u[i];
    return down.times(g, down_first, n_embd);
}

// A mixture of experts from its definition (Mixtral, Qwen-MoE, OLMoE, Qwen3-MoE): softmax over
// the router logits of the experts not disabled, the n_used most probable, their probabilities
// (renormalised when the architecture does) weighting each expert's SwiGLU; qwen2moe adds its
// shared expert times sigmoid(h · g).
Vec experts64(const Model& model, const LayerWeights& lw, int64_t layer, const Vec& h, const Steps& steps) {
    const ModelParams& p = model.params();
    const ArchitectureInfo& a = *model.weights().arch;
    Vec logits = Matrix(*lw.ffn_gate_inp).times(h);
    const auto off = [&](int64_t e) {
        return !steps.disabled_experts.empty() && steps.disabled_experts[static_cast<size_t>(layer * p.n_expert + e)] != 0;
    };
    Vec prob(static_cast<size_t>(p.n_expert), 0.0);
    if (p.expert_gating_sigmoid) { // DeepSeek-V3: an independent sigmoid gate per expert
        for (int64_t e = 0; e < p.n_expert; ++e) {
            if (!off(e)) prob[static_cast<size_t>(e)] = 1.0 / (1.0 + std::exp(-logits[static_cast<size_t>(e)]));
        }
    } else {
        double max_logit = -INFINITY, sum = 0.0;
        for (int64_t e = 0; e < p.n_expert; ++e) {
            if (!off(e)) max_logit = std::max(max_logit, logits[static_cast<size_t>(e)]);
        }
        for (int64_t e = 0; e < p.n_expert; ++e) {
            if (!off(e)) sum += (prob[static_cast<size_t>(e)] = std::exp(logits[static_cast<size_t>(e)] - max_logit));
        }
        for (double& v : prob) v /= sum;
    }
    // DeepSeek-V3 chooses by gate + a per-expert bias (exp_probs_b) that does not weight the output
    Vec choice = prob;
    if (lw.ffn_exp_probs_b) {
        const Vec b = f32_vector(lw.ffn_exp_probs_b);
        for (size_t e = 0; e < choice.size(); ++e) choice[e] += b[e];
    }
    std::vector<int64_t> chosen;
    for (int64_t k = 0; k < p.n_expert_used; ++k) {
        int64_t best = -1;
        for (int64_t e = 0; e < p.n_expert; ++e) {
            if (off(e) || std::find(chosen.begin(), chosen.end(), e) != chosen.end()) continue;
            if (best < 0 || choice[static_cast<size_t>(e)] > choice[static_cast<size_t>(best)]) best = e;
        }
        chosen.push_back(best);
    }
    double chosen_sum = 0.0;
    for (int64_t e : chosen) chosen_sum += prob[static_cast<size_t>(e)];
    const Matrix gate(*lw.ffn_gate_exps), up(*lw.ffn_up_exps), down(*lw.ffn_down_exps);
    Vec out(static_cast<size_t>(p.n_embd), 0.0);
    for (int64_t e : chosen) {
        const bool renormalise = (a.expert_gating_keys ? p.expert_weights_norm : a.renormalise_experts) && steps.renormalise_experts;
        const double weight = prob[static_cast<size_t>(e)] / (renormalise ? chosen_sum : 1.0) * p.expert_weights_scale;
        const Vec y = swiglu64(gate, up, down, e * p.n_ff_exp, p.n_ff_exp, e * p.n_embd, p.n_embd, h);
        for (size_t i = 0; i < out.size(); ++i) out[i] += weight * y[i];
    }
    if (lw.ffn_gate_shexp) { // qwen2moe gates it by sigmoid(h · g); DeepSeek adds it as it is
        double sigmoid = 1.0;
        if (lw.ffn_gate_inp_shexp) {
            const Vec g = f32_vector(lw.ffn_gate_inp_shexp);
            double dot = 0.0;
            for (size_t i = 0; i < g.size(); ++i) dot += g[i] * h[i];
            sigmoid = 1.0 / (1.0 + std::exp(-dot));
        }
        const Vec y = swiglu64(Matrix(*lw.ffn_gate_shexp), Matrix(*lw.ffn_up_shexp), Matrix(*lw.ffn_down_shexp), 0,
                               p.n_ff_shexp, 0, p.n_embd, h);
        for (size_t i = 0; i < out.size(); ++i) out[i] += sigmoid * y[i];
    }
    return out;
}

// gpt-oss's experts as its published model code defines them: router logits h · Wrᵀ + br, the
// top n_used logits, their softmax as the weights; each expert g = h · Wgᵀ + bg, u = h · Wuᵀ + bu,
// g clamped above at 7 and u to ±7, y = (g · sigmoid(1.702 g) · (u + 1)) · Wdᵀ + bd.
Vec biased_experts64(const Model& model, const LayerWeights& lw, const Vec& h, const Steps& steps) {
    const ModelParams& p = model.params();
    Vec logits = Matrix(*lw.ffn_gate_inp).times(h);
    const Vec router_bias = f32_vector(lw.ffn_gate_inp_bias);
    for (size_t e = 0; e < logits.size(); ++e) logits[e] += router_bias[e];
    std::vector<int64_t> order(static_cast<size_t>(p.n_expert));
    for (int64_t e = 0; e < p.n_expert; ++e) order[static_cast<size_t>(e)] = e;
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return logits[static_cast<size_t>(a)] > logits[static_cast<size_t>(b)]; });
    order.resize(static_cast<size_t>(p.n_expert_used));
    double top = -INFINITY, sum = 0.0;
    for (int64_t e : order) top = std::max(top, logits[static_cast<size_t>(e)]);
    for (int64_t e : order) sum += std::exp(logits[static_cast<size_t>(e)] - top);
    const Matrix gate(*lw.ffn_gate_exps), up(*lw.ffn_up_exps), down(*lw.ffn_down_exps);
    const auto* gate_bias = reinterpret_cast<const float*>(lw.ffn_gate_exps_bias->data);
    const auto* up_bias = reinterpret_cast<const float*>(lw.ffn_up_exps_bias->data);
    const auto* down_bias = reinterpret_cast<const float*>(lw.ffn_down_exps_bias->data);
    const double limit = steps.clamp ? 7.0 : INFINITY;
    Vec out(static_cast<size_t>(p.n_embd), 0.0);
    for (int64_t e : order) {
        const double weight = std::exp(logits[static_cast<size_t>(e)] - top) / sum;
        Vec g = gate.times(h, e * p.n_ff_exp, p.n_ff_exp);
        const Vec u = up.times(h, e * p.n_ff_exp, p.n_ff_exp);
        for (int64_t i = 0; i < p.n_ff_exp; ++i) {
            const double gi = std::min(g[static_cast<size_t>(i)] + gate_bias[e * p.n_ff_exp + i], limit);
            const double ui = std::clamp(u[static_cast<size_t>(i)] + up_bias[e * p.n_ff_exp + i], -limit, limit);
            g[static_cast<size_t>(i)] = gi / (1.0 + std::exp(-1.702 * gi)) * (ui + 1.0);
        }
        const Vec y = down.times(g, e * p.n_embd, p.n_embd);
        for (int64_t i = 0; i < p.n_embd; ++i) {
            out[static_cast<size_t>(i)] += weight * (y[static_cast<size_t>(i)] + down_bias[e * p.n_embd + i]);
        }
    }
    return out;
}

// DeepSeek-V2's multi-head latent attention for position t over positions 0..t, in the expanded
// form of its paper (every head's key and value built from the latent): nope = head_dim - n_rot,
//   q = W_qb · rms_norm(W_qa h) (or W_q h);  [c | k_r] = W_kva h;  c = rms_norm(c)
//   k_h = [W_kb,h c | rope(k_r)],  v_h = W_vb,h c,  q_h = [q_nope,h | rope(q_r,h)]
//   a_h = Σ_j softmax_j(q_h · k_h(j) · mscale² / √head_dim) v_h(j)
// with RoPE unscaled and mscale = 1 + yarn_log_multiplier · ln(factor) under YaRN (1 otherwise).
// Returns [n_head · head_dim_v], the input of attn_output. x: the residual stream of every position.
Vec latent_attention64(const Model& model, const LayerWeights& lw, const std::vector<Vec>& x, int64_t t,
                       const RopeSpec& rope_spec) {
    const ModelParams& p = model.params();
    const int64_t hd = p.head_dim(), rot = p.n_rot, nope = hd - rot, dv = p.head_dim_v(), rank = p.n_lora_kv;
    const double eps = p.rms_norm_eps;
    RopeSpec r = rope_spec; // the rotation only: YaRN's magnitude goes into the score scale instead
    double mscale = 1.0;
    if (r.yarn && r.freq_scale < 1.0) {
        r.attn_factor = 1.0 / (1.0 + 0.1 * std::log(1.0 / r.freq_scale));
        mscale = static_cast<double>(static_cast<float>(p.rope_attn_factor)) *
                 (1.0 + static_cast<double>(static_cast<float>(p.rope_yarn_log_mul)) * std::log(1.0 / r.freq_scale));
    }
    const double scale = mscale * mscale / std::sqrt(static_cast<double>(hd));
    const Matrix kv_a(*lw.attn_kv_a_mqa), kv_b(*lw.attn_kv_b);
    std::vector<Vec> keys, values; // [j][n_head · hd], [j][n_head · dv]
    Vec query;
    for (int64_t j = 0; j <= t; ++j) {
        Vec h = x[static_cast<size_t>(j)];
        rms_norm(h, 0, p.n_embd, f32_vector(lw.attn_norm), eps);
        Vec ckr = kv_a.times(h); // [rank | rot]
        rms_norm(ckr, 0, rank, f32_vector(lw.attn_kv_a_norm), eps);
        rope(ckr, rank, j, r);
        const Vec kv = kv_b.times(Vec(ckr.begin(), ckr.begin() + rank)); // per head [nope | dv]
        Vec k(static_cast<size_t>(p.n_head * hd)), v(static_cast<size_t>(p.n_head * dv));
        for (int64_t hh = 0; hh < p.n_head; ++hh) {
            for (int64_t d = 0; d < nope; ++d) k[static_cast<size_t>(hh * hd + d)] = kv[static_cast<size_t>(hh * (nope + dv) + d)];
            for (int64_t d = 0; d < rot; ++d) k[static_cast<size_t>(hh * hd + nope + d)] = ckr[static_cast<size_t>(rank + d)];
            for (int64_t d = 0; d < dv; ++d) v[static_cast<size_t>(hh * dv + d)] = kv[static_cast<size_t>(hh * (nope + dv) + nope + d)];
        }
        keys.push_back(std::move(k));
        values.push_back(std::move(v));
        if (j < t) continue;
        if (lw.attn_q_a) {
            Vec low = Matrix(*lw.attn_q_a).times(h);
            rms_norm(low, 0, p.n_lora_q, f32_vector(lw.attn_q_a_norm), eps);
            query = Matrix(*lw.attn_q_b).times(low);
        } else {
            query = Matrix(*lw.attn_q).times(h);
        }
        for (int64_t hh = 0; hh < p.n_head; ++hh) rope(query, hh * hd + nope, t, r);
    }
    Vec a(static_cast<size_t>(p.n_head * dv), 0.0);
    for (int64_t hh = 0; hh < p.n_head; ++hh) {
        Vec scores(static_cast<size_t>(t + 1));
        double max_score = -INFINITY, sum = 0.0;
        for (int64_t j = 0; j <= t; ++j) {
            double dot = 0.0;
            for (int64_t d = 0; d < hd; ++d) dot += query[static_cast<size_t>(hh * hd + d)] * keys[static_cast<size_t>(j)][static_cast<size_t>(hh * hd + d)];
            scores[static_cast<size_t>(j)] = dot * scale;
            max_score = std::max(max_score, dot * scale);
        }
        for (double& s : scores) sum += (s = std::exp(s - max_score));
        for (int64_t j = 0; j <= t; ++j) {
            for (int64_t d = 0; d < dv; ++d) {
                a[static_cast<size_t>(hh * dv + d)] += scores[static_cast<size_t>(j)] / sum * values[static_cast<size_t>(j)][static_cast<size_t>(hh * dv + d)];
            }
        }
    }
    return a;
}

} // namespace

// The prompt from position 0, causal attention over the earlier positions (the last `window` of
// them on a sliding layer).
Forward64 forward64(const Model& model, const std::vector<int32_t>& tokens, const RopeSpec& rope_spec, const Steps& steps) {
    const ModelParams& p = model.params();
    const ModelWeights& w = model.weights();
    const int64_t hd = p.head_dim(), n_q = p.n_embd_q(), n_kv = p.n_embd_kv();
    const double eps = p.rms_norm_eps;
    const auto n = static_cast<int64_t>(tokens.size());
    const Matrix embd(*w.token_embd);
    std::vector<Vec> x;
    for (int32_t id : tokens) x.emplace_back(embd.w.begin() + id * p.n_embd, embd.w.begin() + (id + 1) * p.n_embd);
    if (w.arch->embed_scale) {
        for (Vec& row : x) {
            for (double& v : row) v *= std::sqrt(static_cast<double>(p.n_embd));
        }
    }
    const double attn_scale = p.attn_scale > 0 ? p.attn_scale : 1.0 / std::sqrt(static_cast<double>(hd));
    const double softcap = steps.attn_softcap ? p.attn_logit_softcap : 0.0;
    Forward64 out;
    out.head_outputs.resize(static_cast<size_t>(n));
    for (size_t l = 0; l < w.layers.size(); ++l) {
        const LayerWeights& lw = w.layers[l];
        const int64_t window = steps.window ? p.layer_window(static_cast<int64_t>(l)) : 0;
        RopeSpec layer_rope = rope_spec;
        if (steps.local_rope && p.rope_freq_base_swa > 0 && p.is_sliding_layer(static_cast<int64_t>(l))) {
            layer_rope.base = p.rope_freq_base_swa;
        }
        const bool qk_norm = steps.qk_norm;
        std::vector<Vec> q(static_cast<size_t>(n)), k(static_cast<size_t>(n)), v(static_cast<size_t>(n));
        for (int64_t t = 0; t < n && !lw.attn_kv_b; ++t) {
            Vec h = x[static_cast<size_t>(t)];
            rms_norm(h, 0, p.n_embd, f32_vector(lw.attn_norm), eps);
            if (lw.attn_qkv) { // rows Q, K, V
                const Matrix qkv(*lw.attn_qkv);
                q[static_cast<size_t>(t)] = qkv.times(h, 0, n_q);
                k[static_cast<size_t>(t)] = qkv.times(h, n_q, n_kv);
                v[static_cast<size_t>(t)] = qkv.times(h, n_q + n_kv, n_kv);
            } else {
                q[static_cast<size_t>(t)] = Matrix(*lw.attn_q).times(h);
                k[static_cast<size_t>(t)] = Matrix(*lw.attn_k).times(h);
                v[static_cast<size_t>(t)] = Matrix(*lw.attn_v).times(h);
            }
            if (lw.attn_q_bias) { // qwen2, qwen2moe
                for (auto [dst, bias] : {std::pair{&q, lw.attn_q_bias}, std::pair{&k, lw.attn_k_bias}, std::pair{&v, lw.attn_v_bias}}) {
                    const Vec b = f32_vector(bias);
                    for (size_t i = 0; i < b.size(); ++i) (*dst)[static_cast<size_t>(t)][i] += b[i];
                }
            }
            if (qk_norm && w.arch->qk_norm == QkNorm::Whole) {
                rms_norm(q[static_cast<size_t>(t)], 0, n_q, f32_vector(lw.attn_q_norm), eps);
                rms_norm(k[static_cast<size_t>(t)], 0, n_kv, f32_vector(lw.attn_k_norm), eps);
            }
            const bool per_head = qk_norm && w.arch->qk_norm == QkNorm::PerHead;
            for (int64_t hh = 0; hh < p.n_head; ++hh) {
                if (per_head && lw.attn_q_norm) rms_norm(q[static_cast<size_t>(t)], hh * hd, hd, f32_vector(lw.attn_q_norm), eps);
                rope(q[static_cast<size_t>(t)], hh * hd, t, layer_rope);
            }
            for (int64_t hh = 0; hh < p.n_head_kv; ++hh) {
                if (per_head && lw.attn_k_norm) rms_norm(k[static_cast<size_t>(t)], hh * hd, hd, f32_vector(lw.attn_k_norm), eps);
                rope(k[static_cast<size_t>(t)], hh * hd, t, layer_rope);
            }
        }
        if (lw.attn_kv_b) { // multi-head latent attention in its expanded form
            for (int64_t t = 0; t < n; ++t) {
                out.head_outputs[static_cast<size_t>(t)].push_back(latent_attention64(model, lw, x, t, rope_spec));
            }
        }
        for (int64_t t = 0; t < n && lw.attn_kv_b; ++t) { // every position's attention has read x by now
            const Vec o = Matrix(*lw.attn_output).times(out.head_outputs[static_cast<size_t>(t)].back());
            for (int64_t i = 0; i < p.n_embd; ++i) x[static_cast<size_t>(t)][static_cast<size_t>(i)] += o[static_cast<size_t>(i)];
        }
        for (int64_t t = 0; t < n && !lw.attn_kv_b; ++t) {
            Vec a(static_cast<size_t>(n_q), 0.0);
            for (int64_t hh = 0; hh < p.n_head; ++hh) {
                const int64_t kvh = hh / (p.n_head / p.n_head_kv);
                Vec scores(static_cast<size_t>(t + 1), -INFINITY);
                double max_score = -INFINITY;
                const int64_t first = window > 0 ? std::max<int64_t>(0, t - window + 1) : 0; // t - j < window
                for (int64_t j = first; j <= t; ++j) {
                    double dot = 0.0;
                    for (int64_t d = 0; d < hd; ++d) {
                        dot += q[static_cast<size_t>(t)][static_cast<size_t>(hh * hd + d)] *
                               k[static_cast<size_t>(j)][static_cast<size_t>(kvh * hd + d)];
                    }
                    double s = dot * attn_scale;
                    if (softcap > 0) s = softcap * std::tanh(s / softcap);
                    scores[static_cast<size_t>(j)] = s;
                    max_score = std::max(max_score, scores[static_cast<size_t>(j)]);
                }
                // gpt-oss: the head's sink is one more logit in the softmax, attached to no value
                const double sink = lw.attn_sinks && steps.sinks
                                        ? reinterpret_cast<const float*>(lw.attn_sinks->data)[hh]
                                        : -INFINITY;
                max_score = std::max(max_score, sink);
                double sum = std::exp(sink - max_score);
                for (double& s : scores) sum += (s = std::exp(s - max_score));
                for (int64_t j = first; j <= t; ++j) {
                    for (int64_t d = 0; d < hd; ++d) {
                        a[static_cast<size_t>(hh * hd + d)] +=
                            scores[static_cast<size_t>(j)] / sum * v[static_cast<size_t>(j)][static_cast<size_t>(kvh * hd + d)];
                    }
                }
            }
            out.head_outputs[static_cast<size_t>(t)].push_back(a);
            Vec o = Matrix(*lw.attn_output).times(a);
            if (lw.attn_output_bias) {
                const Vec b = f32_vector(lw.attn_output_bias);
                for (size_t i = 0; i < b.size(); ++i) o[i] += b[i];
            }
            if (lw.attn_post_norm && steps.post_norms) rms_norm(o, 0, p.n_embd, f32_vector(lw.attn_post_norm), eps);
            for (int64_t i = 0; i < p.n_embd; ++i) x[static_cast<size_t>(t)][static_cast<size_t>(i)] += o[static_cast<size_t>(i)];
        }
        for (int64_t t = 0; t < n; ++t) {
            Vec h = x[static_cast<size_t>(t)];
            rms_norm(h, 0, p.n_embd, f32_vector(lw.ffn_norm), eps);
            if (lw.ffn_gate_inp) {
                const Vec d = lw.ffn_gate_inp_bias ? biased_experts64(model, lw, h, steps)
                                                   : experts64(model, lw, static_cast<int64_t>(l), h, steps);
                for (int64_t i = 0; i < p.n_embd; ++i) x[static_cast<size_t>(t)][static_cast<size_t>(i)] += d[static_cast<size_t>(i)];
                continue;
            }
            Vec gate, up;
            if (lw.ffn_gate) {
                gate = Matrix(*lw.ffn_gate).times(h);
                up = Matrix(*lw.ffn_up).times(h);
            } else { // rows gate, then up
                const Matrix fused(*lw.ffn_up);
                gate = fused.times(h, 0, p.n_ff);
                up = fused.times(h, p.n_ff, p.n_ff);
            }
            for (size_t i = 0; i < gate.size(); ++i) {
                gate[i] = (w.arch->gelu_ffn ? gelu64(gate[i]) : gate[i] / (1.0 + std::exp(-gate[i]))) * up[i];
            }
            Vec d = Matrix(*lw.ffn_down).times(gate);
            if (lw.ffn_post_norm && steps.post_norms) rms_norm(d, 0, p.n_embd, f32_vector(lw.ffn_post_norm), eps);
            for (int64_t i = 0; i < p.n_embd; ++i) x[static_cast<size_t>(t)][static_cast<size_t>(i)] += d[static_cast<size_t>(i)];
        }
    }
    const Matrix output(*w.output);
    for (int64_t t = 0; t < n; ++t) {
        Vec h = x[static_cast<size_t>(t)];
        rms_norm(h, 0, p.n_embd, f32_vector(w.output_norm), eps);
        Vec logits = output.times(h);
        if (steps.final_softcap && p.final_logit_softcap > 0) {
            for (double& v : logits) v = p.final_logit_softcap * std::tanh(v / p.final_logit_softcap);
        }
        out.logits.push_back(std::move(logits));
    }
    return out;
}

RopeSpec rope_of(const Model& model, const GgufTensorInfo* factors) {
    const ModelParams& p = model.params();
    RopeSpec r;
    r.neox = model.weights().arch->neox_rope;
    r.n_rot = p.n_rot;
    r.base = p.rope_freq_base;
    if (factors) r.factors = f32_vector(factors);
    r.attn_factor = static_cast<float>(p.rope_attn_factor); // the float the file stores
    r.freq_scale = p.rope_freq_scale;
    r.yarn = p.rope_scaling_type == "yarn";
    r.yarn_orig_ctx = p.rope_orig_context;
    return r;
}


EngineRun run_engine(const Model& model, const std::vector<int32_t>& tokens, int64_t n_ctx, const ExpertAblation& experts) {
    auto b = std::move(CpuBackend::create({2, {}}).value());
    SessionOptions o;
    o.precision = Precision::Exact;
    o.all_logits = true;
    o.instrument.head_outputs = true;
    o.n_ctx = n_ctx;
    o.experts = experts;
    auto s = Session::create(model, *b, o);
    EXPECT_TRUE(s) << s.error().message;
    if (!s) return {};
    auto logits = (*s)->eval(tokens);
    EXPECT_TRUE(logits) << logits.error().message;
    if (!logits) return {};
    EngineRun r;
    const auto n_vocab = static_cast<size_t>(model.params().n_vocab);
    for (size_t t = 0; t < tokens.size(); ++t) {
        r.logits.emplace_back(logits->begin() + static_cast<std::ptrdiff_t>(t * n_vocab),
                              logits->begin() + static_cast<std::ptrdiff_t>((t + 1) * n_vocab));
        r.head_outputs.push_back((*s)->probes()[t].head_outputs);
        r.probes.push_back((*s)->probes()[t]);
    }
    return r;
}


Errors compare(const EngineRun& got, const Forward64& want, int64_t n_layer, int64_t n_q) {
    Errors e;
    for (size_t t = 0; t < want.logits.size(); ++t) {
        e.logits = std::max(e.logits, relative_l2(got.logits[t], want.logits[t]));
        for (int64_t l = 0; l < n_layer; ++l) {
            const auto first = got.head_outputs[t].begin() + l * n_q;
            const std::vector<float> layer(first, first + n_q);
            e.head_outputs = std::max(e.head_outputs, relative_l2(layer, want.head_outputs[t][static_cast<size_t>(l)]));
        }
    }
    return e;
}

} // namespace octo::test
