// The architectures beyond llama/qwen2 by construction (docs/models.md): random-weight qwen3 and
// phi3 models written with the GGUF writer, run by the engine at exact precision, against a
// plain float64 forward pass written here from the architectures' definitions — every layer's
// attention output (the q/k norm + RoPE + attention step) and the logits. Also RoPE with LongRoPE
// factors and attention factor against its formula, sliding windows, gemma2's steps,
// and the sentence that refuses an unsupported architecture.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/gguf/dequantize.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/inference/llama_forward.h"
#include "engine/inference/session.h"
#include "engine/model/architecture.h"
#include "engine/model/model_params.h"
#include "engine/model/model_validation.h"
#include "tests/support/error_norms.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

using test::relative_l2;

std::unique_ptr<CpuBackend> backend() { return std::move(CpuBackend::create({2, {}}).value()); }

// ---- a float64 forward pass, written from the architectures' definitions --------------------

using Vec = std::vector<double>;

// A matrix tensor's rows as floats (the values the engine multiplies at exact precision).
struct Matrix {
    std::vector<float> w; // [n_out][n_in]
    int64_t n_in = 0;

    explicit Matrix(const GgufTensorInfo& t) : w(dequantize_rows(t, 0, t.ne[1]).value()), n_in(t.ne[0]) {}

    // rows [first, first + n) times x
    Vec times(const Vec& x, int64_t first, int64_t n) const {
        Vec y(static_cast<size_t>(n), 0.0);
        for (int64_t r = 0; r < n; ++r) {
            const float* row = w.data() + (first + r) * n_in;
            for (int64_t i = 0; i < n_in; ++i) y[static_cast<size_t>(r)] += static_cast<double>(row[i]) * x[static_cast<size_t>(i)];
        }
        return y;
    }
    Vec times(const Vec& x) const { return times(x, 0, static_cast<int64_t>(w.size()) / n_in); }
};

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

struct RopeSpec {
    bool neox = false;
    int64_t n_rot = 0;
    double base = 10000.0;
    std::vector<double> factors; // [n_rot / 2] or empty
    double attn_factor = 1.0;
    double freq_scale = 1.0;  // linear or YaRN scaling (1 / factor)
    bool yarn = false;        // YaRN with the published ramp between rotations 32 and 1
    int64_t yarn_orig_ctx = 0;
};

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

struct Forward64 {
    std::vector<Vec> logits;                   // [n_tokens][n_vocab]
    std::vector<std::vector<Vec>> head_outputs; // [n_tokens][n_layer][n_q]
};

// Steps the float64 pass can leave out, to show that the comparison notices each of them.
struct Steps {
    bool qk_norm = true;
    bool window = true;        // sliding windows (ModelParams::layer_window)
    bool attn_softcap = true;
    bool final_softcap = true;
    bool post_norms = true;
    bool local_rope = true;    // sliding layers' own RoPE base (gemma3)
};

double gelu64(double x) { return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x))); }

// The prompt from position 0, causal attention over the earlier positions (the last `window` of
// them on a sliding layer).
Forward64 forward64(const Model& model, const std::vector<int32_t>& tokens, const RopeSpec& rope_spec, const Steps& steps = {}) {
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
        for (int64_t t = 0; t < n; ++t) {
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
            for (int64_t hh = 0; hh < p.n_head; ++hh) {
                if (qk_norm && lw.attn_q_norm) rms_norm(q[static_cast<size_t>(t)], hh * hd, hd, f32_vector(lw.attn_q_norm), eps);
                rope(q[static_cast<size_t>(t)], hh * hd, t, layer_rope);
            }
            for (int64_t hh = 0; hh < p.n_head_kv; ++hh) {
                if (qk_norm && lw.attn_k_norm) rms_norm(k[static_cast<size_t>(t)], hh * hd, hd, f32_vector(lw.attn_k_norm), eps);
                rope(k[static_cast<size_t>(t)], hh * hd, t, layer_rope);
            }
        }
        for (int64_t t = 0; t < n; ++t) {
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
                double sum = 0.0;
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
            if (lw.attn_post_norm && steps.post_norms) rms_norm(o, 0, p.n_embd, f32_vector(lw.attn_post_norm), eps);
            for (int64_t i = 0; i < p.n_embd; ++i) x[static_cast<size_t>(t)][static_cast<size_t>(i)] += o[static_cast<size_t>(i)];
        }
        for (int64_t t = 0; t < n; ++t) {
            Vec h = x[static_cast<size_t>(t)];
            rms_norm(h, 0, p.n_embd, f32_vector(lw.ffn_norm), eps);
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

RopeSpec rope_of(const Model& model, const GgufTensorInfo* factors = nullptr) {
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

// The engine at exact precision: the prompt as one batch, every position's logits and head outputs.
struct EngineRun {
    std::vector<std::vector<float>> logits;       // [n_tokens][n_vocab]
    std::vector<std::vector<float>> head_outputs; // [n_tokens][n_layer * n_q]
};

EngineRun run_engine(const Model& model, const std::vector<int32_t>& tokens, int64_t n_ctx = 0) {
    auto b = backend();
    SessionOptions o;
    o.precision = Precision::Exact;
    o.all_logits = true;
    o.instrument.head_outputs = true;
    o.n_ctx = n_ctx;
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
    }
    return r;
}

// The worst relative L2 error over positions of the logits and of every layer's attention output.
struct Errors {
    double logits = 0.0;
    double head_outputs = 0.0;
};

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

const std::vector<int32_t> kPrompt = {1, 40, 71, 9, 88, 33, 52, 52, 17, 60, 5};

// qwen3: head size from attention.key_length (n_head · head_dim = 4 · 96 = 384 ≠ n_embd 256), no
// biases, per-head q/k RMSNorm before NeoX RoPE, grouped-query attention.
SyntheticModelSpec qwen3_spec() {
    return {.architecture = "qwen3", .n_embd = 256, .n_ff = 256, .n_head = 4, .n_head_kv = 2, .n_layer = 2, .head_dim = 96,
            .seed = 11};
}

TEST(Architectures, Qwen3MatchesFloat64ByConstruction) {
    const test::LoadedModel m = test::load_synthetic(qwen3_spec());
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    ASSERT_EQ(p.head_dim(), 96);
    ASSERT_EQ(p.n_embd_q(), 384);
    const EngineRun got = run_engine(*m.model, kPrompt);
    ASSERT_EQ(got.logits.size(), kPrompt.size());
    const Errors e = compare(got, forward64(*m.model, kPrompt, rope_of(*m.model)), p.n_layer, p.n_embd_q());
    std::cout << "[ qwen3     ] vs float64: attention outputs " << e.head_outputs << ", logits " << e.logits << "\n";
    EXPECT_LT(e.head_outputs, 1e-5);
    EXPECT_LT(e.logits, 1e-5);
    // Without the q/k norms the float64 pass is far off: the comparison sees that step.
    const Errors without = compare(got, forward64(*m.model, kPrompt, rope_of(*m.model), Steps{.qk_norm = false}), p.n_layer,
                                   p.n_embd_q());
    EXPECT_GT(without.head_outputs, 1e-2);
}

// The q/k norm + RoPE + attention step alone: layer 0's attention output of one position equals
// float64 for the first layer whatever the batch split (prompt at once, then one token at a time).
TEST(Architectures, Qwen3AttentionStepOverBatchSplits) {
    const test::LoadedModel m = test::load_synthetic(qwen3_spec());
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    const Forward64 want = forward64(*m.model, kPrompt, rope_of(*m.model));
    auto b = backend();
    SessionOptions o;
    o.precision = Precision::Exact;
    o.instrument.head_outputs = true;
    auto s = Session::create(*m.model, *b, o).value();
    for (size_t t = 0; t < kPrompt.size(); ++t) {
        const auto logits = s->eval(std::span<const int32_t>(&kPrompt[t], 1));
        ASSERT_TRUE(logits);
        const std::vector<float> got(logits->begin(), logits->end());
        EXPECT_LT(relative_l2(got, want.logits[t]), 1e-5) << "position " << t;
        const std::vector<float>& z = s->probes()[0].head_outputs;
        const std::vector<float> layer0(z.begin(), z.begin() + p.n_embd_q());
        EXPECT_LT(relative_l2(layer0, want.head_outputs[t][0]), 1e-5) << "position " << t;
    }
}

// phi3: fused QKV and gate/up, NeoX RoPE, LongRoPE factors chosen by the context (long above
// the original context of 32, short within it) with the attention factor sqrt(1 + ln 4 / ln 32)
// the file states, sliding window 127 (longer than every context here).
SyntheticModelSpec phi3_spec() {
    return {.architecture = "phi3", .n_embd = 256, .n_ff = 256, .n_head = 8, .n_head_kv = 4, .n_layer = 2,
            .context_length = 128, .long_rope_original_context = 32, .sliding_window = 127, .seed = 12};
}

TEST(Architectures, Phi3LongRopeMatchesFloat64ByConstruction) {
    const test::LoadedModel m = test::load_synthetic(phi3_spec());
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    const ModelWeights& w = m.model->weights();
    ASSERT_NE(w.rope_factors_long, nullptr);
    ASSERT_NE(w.rope_factors_short, nullptr);
    EXPECT_EQ(p.rope_orig_context, 32);
    EXPECT_NEAR(p.rope_attn_factor, std::sqrt(1.0 + std::log(4.0) / std::log(32.0)), 1e-6);
    EXPECT_EQ(rope_factors(w, p, 33), w.rope_factors_long);
    EXPECT_EQ(rope_factors(w, p, 32), w.rope_factors_short);
    for (const int64_t n_ctx : {64, 32}) {
        const GgufTensorInfo* factors = n_ctx > 32 ? w.rope_factors_long : w.rope_factors_short;
        const EngineRun got = run_engine(*m.model, kPrompt, n_ctx);
        ASSERT_EQ(got.logits.size(), kPrompt.size());
        const Errors e = compare(got, forward64(*m.model, kPrompt, rope_of(*m.model, factors)), p.n_layer, p.n_embd_q());
        std::cout << "[ phi3      ] n_ctx " << n_ctx << " vs float64: attention outputs " << e.head_outputs << ", logits "
                  << e.logits << "\n";
        EXPECT_LT(e.head_outputs, 1e-5) << n_ctx;
        EXPECT_LT(e.logits, 1e-5) << n_ctx;
        // The other factors give other outputs: the choice is what the comparison checks.
        const GgufTensorInfo* other = factors == w.rope_factors_long ? w.rope_factors_short : w.rope_factors_long;
        const Errors wrong = compare(got, forward64(*m.model, kPrompt, rope_of(*m.model, other)), p.n_layer, p.n_embd_q());
        EXPECT_GT(wrong.logits, 1e-3) << n_ctx;
    }
}

// The row ranges of fused tensors and the per-head norms keep the engine's determinism: at
// reference precision (quantised activations) the logits are bit-identical over thread counts
// and batch splits.
TEST(Architectures, BitIdenticalOverThreadsAndBatchSplits) {
    for (SyntheticModelSpec spec : {qwen3_spec(), phi3_spec()}) {
        spec.head_dim = spec.architecture == "qwen3" ? 128 : 0; // K-quant rows: n_q a multiple of 256
        for (TensorType type : {TensorType::Q8_0, TensorType::Q4_K}) {
            spec.weight_type = type;
            const test::LoadedModel m = test::load_synthetic(spec);
            ASSERT_TRUE(m.model);
            auto last_logits = [&](int threads, const std::vector<size_t>& pieces) {
                auto b = CpuBackend::create({threads, {}}).value();
                SessionOptions o;
                o.precision = Precision::Reference;
                auto s = Session::create(*m.model, *b, o).value();
                std::span<const int32_t> rest(kPrompt);
                std::vector<float> logits;
                for (size_t n : pieces) {
                    auto out = s->eval(rest.first(n));
                    EXPECT_TRUE(out) << out.error().message;
                    if (out) logits.assign(out->begin(), out->end());
                    rest = rest.subspan(n);
                }
                return logits;
            };
            const auto want = last_logits(1, {kPrompt.size()});
            const std::string what = spec.architecture + " " + std::string(tensor_type_info(static_cast<uint32_t>(type))->name);
            EXPECT_EQ(last_logits(3, {kPrompt.size()}), want) << what;
            EXPECT_EQ(last_logits(2, {3, 1, 7}), want) << what;
        }
    }
}

// Sessions of different contexts choose different LongRoPE factors, so they never share
// cached keys; equal contexts do.
TEST(Architectures, Phi3RopeFactorsAreInTheKvContextKey) {
    const test::LoadedModel m = test::load_synthetic(phi3_spec());
    ASSERT_TRUE(m.model);
    auto b = backend();
    auto key = [&](int64_t n_ctx) {
        SessionOptions o;
        o.n_ctx = n_ctx;
        return Session::create(*m.model, *b, o).value()->kv_context_key();
    };
    EXPECT_NE(key(64), key(32));
    EXPECT_EQ(key(64), key(100));
}

// RoPE with frequency factors and an attention factor against its formula in float64:
// θ_i = p · base^(−2i/n_rot) / f_i, both rotated values times the factor.
TEST(Architectures, RopeWithFactorsAndAttentionFactor) {
    const int64_t n_tokens = 3, n_heads = 2, head_dim = 8, n_rot = 8;
    std::vector<float> x(static_cast<size_t>(n_tokens * n_heads * head_dim));
    for (size_t i = 0; i < x.size(); ++i) x[i] = 2.0f * std::sin(0.7f * static_cast<float>(i));
    const std::vector<float> before = x;
    const std::vector<float> factors = {1.0f, 1.5f, 3.0f, 40.0f};
    const int32_t positions[] = {0, 7, 1000};
    RopeParams params;
    params.layout = RopeLayout::NeoX;
    params.n_rot = n_rot;
    params.freq_base = 10000.0;
    params.freq_factors = factors.data();
    params.attn_factor = 1.19f;
    backend()->rope(x.data(), n_tokens, n_heads, head_dim, positions, params);
    RopeSpec r{true, n_rot, 10000.0, Vec(factors.begin(), factors.end()), 1.19f};
    for (int64_t t = 0; t < n_tokens; ++t) {
        Vec want(before.begin() + t * n_heads * head_dim, before.begin() + (t + 1) * n_heads * head_dim);
        for (int64_t h = 0; h < n_heads; ++h) rope(want, h * head_dim, positions[t], r);
        for (int64_t i = 0; i < n_heads * head_dim; ++i) {
            EXPECT_NEAR(x[static_cast<size_t>(t * n_heads * head_dim + i)], want[static_cast<size_t>(i)], 2e-6)
                << "token " << t << " value " << i;
        }
    }
}

// A longer prompt than any window below, so that sliding layers mask positions.
std::vector<int32_t> long_prompt() {
    std::vector<int32_t> v = {1};
    for (int i = 0; i < 29; ++i) v.push_back(static_cast<int32_t>(5 + (i * 37) % 90));
    return v;
}

// phi3's sliding window masks every layer: the query at p sees keys j with p - j < window. With a
// window of 8 and 30 positions the engine equals the float64 pass that masks, not the one that
// does not; the same holds token by token (the mask follows positions, not batches).
TEST(Architectures, Phi3SlidingWindowIsMasked) {
    SyntheticModelSpec spec = phi3_spec();
    spec.long_rope_original_context = 0;
    spec.sliding_window = 8;
    const test::LoadedModel m = test::load_synthetic(spec);
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    EXPECT_EQ(m.model->n_ctx(), 8) << "the default context stays within a window on every layer";
    EXPECT_EQ(p.layer_window(0), 8);
    EXPECT_EQ(p.layer_window(1), 8);
    const std::vector<int32_t> prompt = long_prompt();
    const EngineRun got = run_engine(*m.model, prompt, 64); // a longer context, asked for: masked
    ASSERT_EQ(got.logits.size(), prompt.size());
    const Errors e = compare(got, forward64(*m.model, prompt, rope_of(*m.model)), p.n_layer, p.n_embd_q());
    std::cout << "[ phi3 swa  ] window 8 vs float64: attention outputs " << e.head_outputs << ", logits " << e.logits << "\n";
    EXPECT_LT(e.head_outputs, 1e-5);
    EXPECT_LT(e.logits, 1e-5);
    const Errors unmasked = compare(got, forward64(*m.model, prompt, rope_of(*m.model), Steps{.window = false}), p.n_layer,
                                    p.n_embd_q());
    EXPECT_GT(unmasked.logits, 1e-3);

    auto b = backend();
    SessionOptions o;
    o.precision = Precision::Exact;
    o.n_ctx = 64;
    auto s = Session::create(*m.model, *b, o).value();
    for (size_t t = 0; t < prompt.size(); ++t) {
        const auto logits = s->eval(std::span<const int32_t>(&prompt[t], 1));
        ASSERT_TRUE(logits);
        EXPECT_LT(relative_l2(std::vector<float>(logits->begin(), logits->end()), got.logits[t]), 1e-5) << "position " << t;
    }
}

// The engine on `model` against the float64 pass (attention outputs and logits within 1e-5), and
// against the pass without each listed step (logits off by more than 1e-3: the step matters).
void expect_float64_and_each_step(const char* name, const Model& model,
                                  std::initializer_list<std::pair<const char*, Steps>> omissions) {
    const ModelParams& p = model.params();
    const std::vector<int32_t> prompt = long_prompt();
    const EngineRun got = run_engine(model, prompt);
    ASSERT_EQ(got.logits.size(), prompt.size());
    const RopeSpec rope = rope_of(model);
    const Errors e = compare(got, forward64(model, prompt, rope), p.n_layer, p.n_embd_q());
    std::cout << "[ " << name << "    ] vs float64: attention outputs " << e.head_outputs << ", logits " << e.logits << "\n";
    EXPECT_LT(e.head_outputs, 1e-5);
    EXPECT_LT(e.logits, 1e-5);
    for (const auto& [what, steps] : omissions) {
        const Errors wrong = compare(got, forward64(model, prompt, rope, steps), p.n_layer, p.n_embd_q());
        EXPECT_GT(wrong.logits, 1e-3) << name << " without the " << what;
    }
}

// gemma2 by construction: embeddings x sqrt(n_embd), GELU gated FFN, post-attention and post-FFN
// norms, attention soft-cap, a sliding window on the even layers, final soft-cap, head size 64
// with n_embd 128 and 4 heads (the attention is 256 wide), tied output. Leaving out any one step
// in the float64 pass moves it away from the engine.
SyntheticModelSpec gemma2_spec() {
    return {.architecture = "gemma2", .n_embd = 128, .n_ff = 256, .n_head = 4, .n_head_kv = 2, .n_layer = 4,
            .head_dim = 64, .context_length = 64, .tied_output = true, .sliding_window = 6, .attn_logit_softcap = 4.0f,
            .final_logit_softcap = 3.0f, .seed = 21};
}

TEST(Architectures, Gemma2MatchesFloat64ByConstruction) {
    const test::LoadedModel m = test::load_synthetic(gemma2_spec());
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    EXPECT_EQ(p.layer_window(0), 6);
    EXPECT_EQ(p.layer_window(1), 0);
    EXPECT_EQ(p.layer_window(2), 6);
    EXPECT_EQ(p.attn_logit_softcap, 4.0);
    EXPECT_EQ(p.final_logit_softcap, 3.0);
    EXPECT_TRUE(m.model->weights().output_tied);
    expect_float64_and_each_step("gemma2", *m.model,
                                 {{"window", Steps{.window = false}},
                                  {"attention soft-cap", Steps{.attn_softcap = false}},
                                  {"final soft-cap", Steps{.final_softcap = false}},
                                  {"post-norms", Steps{.post_norms = false}}});
}

// gemma3 (later llama.cpp than the shared reference's, so by construction): gemma2's steps without
// the soft-caps, per-head q/k RMSNorm, a window on five of every six layers (0-4 and 6 here, not 5),
// and the local layers' own RoPE base (10000 against the global 1e6). 7 layers, head size 64.
TEST(Architectures, Gemma3MatchesFloat64ByConstruction) {
    const SyntheticModelSpec spec{.architecture = "gemma3", .n_embd = 128, .n_ff = 256, .n_head = 4, .n_head_kv = 2,
                                  .n_layer = 7, .head_dim = 64, .context_length = 64, .tied_output = true,
                                  .sliding_window = 6, .seed = 23};
    const test::LoadedModel m = test::load_synthetic(spec);
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    EXPECT_EQ(p.layer_window(4), 6);
    EXPECT_EQ(p.layer_window(5), 0);
    EXPECT_EQ(p.layer_window(6), 6);
    EXPECT_EQ(p.rope_freq_base_swa, 10000.0);
    EXPECT_EQ(p.rope_freq_base, 1e6);
    EXPECT_EQ(p.attn_logit_softcap, 0.0);
    expect_float64_and_each_step("gemma3", *m.model,
                                 {{"window", Steps{.window = false}},
                                  {"q/k norms", Steps{.qk_norm = false}},
                                  {"post-norms", Steps{.post_norms = false}},
                                  {"local RoPE base", Steps{.local_rope = false}}});
}

// YaRN on a qwen3 file that declares it (factor 4 over an original context of 16; a context of
// 64): the engine's float angles against the published formula in float64, and a file without
// the scaling is far from it.
TEST(Architectures, YarnMatchesFloat64ByConstruction) {
    SyntheticModelSpec spec = qwen3_spec();
    spec.context_length = 64;
    spec.yarn_factor = 4.0f;
    spec.yarn_original_context = 16;
    const test::LoadedModel m = test::load_synthetic(spec);
    ASSERT_TRUE(m.model) << "yarn is accepted";
    const ModelParams& p = m.model->params();
    EXPECT_EQ(p.rope_scaling_type, "yarn");
    EXPECT_DOUBLE_EQ(p.rope_freq_scale, 0.25);
    const std::vector<int32_t> prompt = long_prompt();
    const EngineRun got = run_engine(*m.model, prompt);
    ASSERT_EQ(got.logits.size(), prompt.size());
    const RopeSpec rope = rope_of(*m.model);
    const Errors e = compare(got, forward64(*m.model, prompt, rope), p.n_layer, p.n_embd_q());
    std::cout << "[ yarn      ] vs float64: attention outputs " << e.head_outputs << ", logits " << e.logits << "\n";
    EXPECT_LT(e.head_outputs, 2e-5);
    EXPECT_LT(e.logits, 2e-5);
    RopeSpec linear = rope;
    linear.yarn = false; // plain linear interpolation
    EXPECT_GT(compare(got, forward64(*m.model, prompt, linear), p.n_layer, p.n_embd_q()).logits, 1e-3);
}

// Gemma 2's defaults where the file is silent, and the 27B model's query scale (46 layers:
// 1/sqrt(n_embd / n_head) instead of 1/sqrt(head_dim)), as llama.cpp reads them.
TEST(Architectures, Gemma2MetadataDefaults) {
    SyntheticModelSpec spec = gemma2_spec();
    spec.attn_logit_softcap = 0.0f; // not written
    spec.final_logit_softcap = 0.0f;
    const auto bytes = make_synthetic_model(spec).value();
    auto file = GgufFile::parse(bytes);
    ASSERT_TRUE(file);
    auto p = read_model_params(file.value());
    ASSERT_TRUE(p);
    EXPECT_EQ(p->attn_logit_softcap, 50.0);
    EXPECT_EQ(p->final_logit_softcap, 30.0);
    EXPECT_EQ(p->attn_scale, 0.0) << "4 layers: the head size's scale";
    spec.n_layer = 46;
    const auto big = make_synthetic_model(spec).value();
    auto big_file = GgufFile::parse(big);
    ASSERT_TRUE(big_file);
    auto q = read_model_params(big_file.value());
    ASSERT_TRUE(q);
    EXPECT_DOUBLE_EQ(q->attn_scale, 1.0 / std::sqrt(128.0 / 4.0));
}

// The CUDA module has no GELU, soft-capping or sliding-window kernels yet: forward_features says
// what a model asks of a backend (a window as long as the context asks nothing).
TEST(Architectures, ForwardFeaturesNameWhatABackendMustRun) {
    const test::LoadedModel m = test::load_synthetic(gemma2_spec());
    ASSERT_TRUE(m.model);
    const ForwardFeatures f = forward_features(*m.model, 64);
    EXPECT_TRUE(f.gelu && f.softcap && f.sliding_window && f.scale);
    EXPECT_FALSE(forward_features(*m.model, 6).sliding_window);
    const test::LoadedModel plain = test::load_synthetic(qwen3_spec());
    ASSERT_TRUE(plain.model);
    const ForwardFeatures none = forward_features(*plain.model, 64);
    EXPECT_FALSE(none.gelu || none.softcap || none.sliding_window || none.scale);
}

// What the new metadata may not say: value heads of another size than key heads, a phi3 file
// without the window key that none of llama.cpp's defaults covers; key_length frees the head
// size from n_embd / n_head.
TEST(Architectures, HeadSizeAndWindowMetadata) {
    // n_embd 250 is not divisible by 4 heads: fine with a key_length
    ModelParams p{.architecture = "qwen3", .name = {}, .n_layer = 2, .n_head = 4, .n_head_kv = 2, .n_embd = 250,
                  .n_ff = 128, .n_vocab = 100, .context_length = 128, .n_embd_head = 96, .n_rot = 96,
                  .rope_scaling_type = {}};
    EXPECT_TRUE(validate_hparams(p)) << validate_hparams(p).error().message;
    p.n_embd_head_v = 64;
    auto s = validate_hparams(p);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, ErrorCode::Unsupported);
    EXPECT_EQ(s.error().message, "attention.value_length 64 differs from the key head size 96; the engine needs equal key and "
                                 "value head sizes");
    p.n_embd_head_v = 96;
    p.architecture = "phi3";
    p.sliding_window = -1; // read_model_params: key absent, no default applies
    s = validate_hparams(p);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message, "phi3.attention.sliding_window is missing (the architecture needs it)");
}

TEST(Architectures, UnsupportedArchitectureIsOneSentence) {
    GgufWriter w;
    w.add_string("general.architecture", "mamba");
    const auto bytes = w.to_bytes();
    auto file = GgufFile::parse(bytes);
    ASSERT_TRUE(file);
    auto model = Model::from_gguf(std::move(file.value()));
    ASSERT_FALSE(model);
    EXPECT_EQ(model.error().code, ErrorCode::Unsupported);
    EXPECT_EQ(model.error().message, "architecture 'mamba' is not supported (supported: llama, qwen2, qwen3, phi3, gemma2, gemma3, octet)");
}

TEST(Architectures, FeaturesNameWhatDiffers) {
    const test::LoadedModel qwen3 = test::load_synthetic(qwen3_spec());
    ASSERT_TRUE(qwen3.model);
    const auto f = architecture_features(*find_architecture("qwen3"), qwen3.model->params(), qwen3.model->file());
    const std::vector<std::string> want = {"NeoX RoPE", "per-head q/k RMSNorm",
                                           "head size 96 (n_head x head size 384 != n_embd 256)",
                                           "grouped-query attention (2 KV heads)"};
    EXPECT_EQ(f, want);
    const test::LoadedModel phi3 = test::load_synthetic(phi3_spec());
    ASSERT_TRUE(phi3.model);
    const auto g = architecture_features(*find_architecture("phi3"), phi3.model->params(), phi3.model->file());
    ASSERT_EQ(g.size(), 6u);
    EXPECT_EQ(g[1], "fused QKV");
    EXPECT_EQ(g[2], "fused gate/up");
    EXPECT_EQ(g[4], "LongRoPE (long factors above 32 positions, attention factor 1.18322)");
    EXPECT_EQ(g[5], "sliding window 127");
}

} // namespace
} // namespace octo
