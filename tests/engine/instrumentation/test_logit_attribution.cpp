// Direct logit attribution and attention recording inside sessions, and the octet router's
// gates: DLA against explicit per-head contributions in double, attention rows that are
// probability distributions over the earlier positions, and gates that scale head groups.
#include <gtest/gtest.h>

#include <cmath>
#include <span>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/gguf/dequantize.h"
#include "engine/inference/session.h"
#include "engine/instrumentation/head_grams.h"
#include "tests/support/error_norms.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

using test::LoadedModel;

const std::vector<int32_t> kPrompt = {1, 17, 42, 5, 88, 63, 2, 30, 30, 71};

SyntheticModelSpec spec(const std::string& arch = "llama") {
    SyntheticModelSpec s;
    s.architecture = arch;
    s.n_head = 8;
    s.n_head_kv = 4;
    s.n_layer = 3;
    s.seed = 5;
    return s;
}

std::unique_ptr<CpuBackend> backend() { return std::move(CpuBackend::create({2, {}}).value()); }

std::vector<TokenProbe> evaluate(const Model& m, Backend& b, const SessionOptions& o,
                                 const std::vector<int32_t>& prompt = kPrompt) {
    auto s = Session::create(m, b, o).value();
    s->start(prompt);
    EXPECT_TRUE(s->eval(prompt));
    std::vector<TokenProbe> probes(s->probes().begin(), s->probes().end());
    return probes;
}

// The post-attention norm's factor per residual dimension, post_w / rms(Σ_h c_h), from the
// explicit contributions c [n_head][n_embd] (all 1 without such a norm).
std::vector<double> post_norm_factor(const std::vector<double>& c, const GgufTensorInfo* norm, const ModelParams& p) {
    std::vector<double> post(static_cast<size_t>(p.n_embd), 1.0);
    if (!norm) return post;
    double ss = 0.0;
    for (int64_t i = 0; i < p.n_embd; ++i) {
        double out = 0.0;
        for (int64_t h = 0; h < p.n_head; ++h) out += c[static_cast<size_t>(h * p.n_embd + i)];
        ss += out * out;
    }
    const double s = 1.0 / std::sqrt(ss / static_cast<double>(p.n_embd) + p.rms_norm_eps);
    for (int64_t i = 0; i < p.n_embd; ++i) post[static_cast<size_t>(i)] = reinterpret_cast<const float*>(norm->data)[i] * s;
    return post;
}

// DLA of every position toward the next prompt token equals Σ over the head's explicit
// contribution W_h z_h times (g ⊙ u_t) / rms, computed in double from dequantised weights.
// Also on qwen3 with 8 heads of 64 (attention 512 wide, n_embd 256) and its q/k norms, and on
// gemma2 and gemma3 (post-attention norms, soft-caps, a sliding window; gemma3's q/k norms),
// qwen2 (biases) and phi3 (fused tensors, a window on every layer).
void check_explicit_contributions(const SyntheticModelSpec& model_spec) {
    const LoadedModel m = test::load_synthetic(model_spec);
    const ModelParams& p = m.model->params();
    const int64_t n_q = p.n_embd_q();
    auto b = backend();
    SessionOptions o;
    o.instrument.head_outputs = true;
    o.instrument.dla = true;
    o.n_ctx = 32; // beyond a window on every layer (phi3), which the default context would stay within
    const std::vector<TokenProbe> probes = evaluate(*m.model, *b, o);
    const ModelWeights& w = m.model->weights();
    const auto* g = reinterpret_cast<const float*>(w.output_norm->data);
    for (size_t t = 0; t + 1 < kPrompt.size(); ++t) {
        const TokenProbe& probe = probes[t];
        ASSERT_EQ(probe.dla_target, kPrompt[t + 1]);
        ASSERT_EQ(probe.dla.size(), static_cast<size_t>(p.n_layer * p.n_head));
        const std::vector<float> u = dequantize_rows(*w.output, kPrompt[t + 1], 1).value();
        for (int64_t l = 0; l < p.n_layer; ++l) {
            const std::vector<float> w_o = dequantize_rows(*w.layers[l].attn_output, 0, p.n_embd).value();
            const std::span<const float> z(probe.head_outputs.data() + l * n_q, static_cast<size_t>(n_q));
            const std::vector<double> c = head_contributions(w_o, z, p.n_head, p.head_dim()); // [n_head][n_embd]
            // A post-attention norm (gemma2) scales the layer's whole output o = Σ_h c_h by post_w / rms(o).
            const std::vector<double> post = post_norm_factor(c, w.layers[static_cast<size_t>(l)].attn_post_norm, p);
            for (int64_t h = 0; h < p.n_head; ++h) {
                double want = 0.0, scale = 0.0;
                for (int64_t i = 0; i < p.n_embd; ++i) {
                    const double term = c[static_cast<size_t>(h * p.n_embd + i)] * post[static_cast<size_t>(i)] * g[i] * u[static_cast<size_t>(i)];
                    want += term;
                    scale += std::abs(term);
                }
                want *= probe.final_inv_rms;
                scale *= probe.final_inv_rms;
                EXPECT_NEAR(probe.dla[static_cast<size_t>(l * p.n_head + h)], want, 1e-5 * scale + 1e-7)
                    << p.architecture << " position " << t << " layer " << l << " head " << h;
            }
        }
    }
    // The last position awaits its target until attribute() or the next eval.
    EXPECT_TRUE(probes.back().dla.empty());
}

TEST(LogitAttribution, MatchesExplicitContributions) {
    check_explicit_contributions(spec());
    SyntheticModelSpec qwen3 = spec("qwen3");
    qwen3.head_dim = 64;
    check_explicit_contributions(qwen3);
    for (const char* gemma : {"gemma2", "gemma3"}) {
        SyntheticModelSpec g = spec(gemma);
        g.head_dim = 64;
        g.sliding_window = 4;
        check_explicit_contributions(g);
    }
    check_explicit_contributions(spec("qwen2")); // q/k/v biases
    SyntheticModelSpec phi3 = spec("phi3");      // fused QKV and gate/up, a window on every layer
    phi3.sliding_window = 4;
    check_explicit_contributions(phi3);
}

// With a post-attention norm the residual receives p ⊙ W_h z_h / rms(Σ_h W_h z_h): the head
// norms (norm share, relative) are the norms of what arrives, computed here in double.
TEST(LogitAttribution, HeadNormsOfPostNormModelsMeasureWhatReachesTheResidual) {
    SyntheticModelSpec g = spec("gemma2");
    g.head_dim = 64;
    g.sliding_window = 4;
    const LoadedModel m = test::load_synthetic(g);
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    const int64_t n_q = p.n_embd_q();
    auto b = backend();
    SessionOptions o;
    o.instrument.head_outputs = true;
    o.instrument.head_norms = true;
    const std::vector<TokenProbe> probes = evaluate(*m.model, *b, o);
    const ModelWeights& w = m.model->weights();
    for (size_t t = 0; t < probes.size(); ++t) {
        for (int64_t l = 0; l < p.n_layer; ++l) {
            const std::vector<float> w_o = dequantize_rows(*w.layers[l].attn_output, 0, p.n_embd).value();
            const std::span<const float> z(probes[t].head_outputs.data() + l * n_q, static_cast<size_t>(n_q));
            const std::vector<double> c = head_contributions(w_o, z, p.n_head, p.head_dim());
            ASSERT_NE(w.layers[l].attn_post_norm, nullptr);
            const std::vector<double> post = post_norm_factor(c, w.layers[l].attn_post_norm, p);
            for (int64_t h = 0; h < p.n_head; ++h) {
                double sq = 0.0;
                for (int64_t i = 0; i < p.n_embd; ++i) {
                    const double arrives = c[static_cast<size_t>(h * p.n_embd + i)] * post[static_cast<size_t>(i)];
                    sq += arrives * arrives;
                }
                const double want = std::sqrt(sq);
                EXPECT_NEAR(probes[t].head_norms[static_cast<size_t>(l * p.n_head + h)], want, 1e-5 * want + 1e-7)
                    << "position " << t << " layer " << l << " head " << h;
            }
        }
    }
}

// final_inv_rms is the output norm's scale: logits = output · (g ⊙ x / rms).
TEST(LogitAttribution, FinalScaleReproducesTheLogits) {
    const LoadedModel m = test::load_synthetic(spec());
    auto b = backend();
    SessionOptions o;
    o.instrument.dla = true;
    auto s = Session::create(*m.model, *b, o).value();
    auto logits = s->eval(kPrompt);
    ASSERT_TRUE(logits);
    const float r = s->probes().back().final_inv_rms;
    EXPECT_GT(r, 0.0f);
    ASSERT_TRUE(s->attribute(42));
    EXPECT_EQ(s->probes().back().dla_target, 42);
    EXPECT_EQ(s->probes().back().dla.size(), 24u);
    EXPECT_TRUE(s->probes().back().head_outputs.empty()); // dropped once attributed (not asked for)
}

TEST(AttentionRecording, RowsAreDistributionsOverEarlierPositions) {
    const LoadedModel m = test::load_synthetic(spec());
    const ModelParams& p = m.model->params();
    auto b = backend();
    SessionOptions o;
    o.instrument.attention = true;
    o.n_batch = 4; // several batches: rows keep their own length
    const std::vector<TokenProbe> probes = evaluate(*m.model, *b, o);
    for (size_t t = 0; t < probes.size(); ++t) {
        const size_t seen = t + 1;
        ASSERT_EQ(probes[t].attention.size(), static_cast<size_t>(p.n_layer * p.n_head) * seen);
        for (int64_t row = 0; row < p.n_layer * p.n_head; ++row) {
            double sum = 0.0;
            for (size_t q = 0; q < seen; ++q) {
                const float w = probes[t].attention[static_cast<size_t>(row) * seen + q];
                EXPECT_GE(w, 0.0f);
                sum += w;
            }
            EXPECT_NEAR(sum, 1.0, 1e-5) << "position " << t << " row " << row;
        }
    }
    EXPECT_EQ(probes[0].attention[0], 1.0f); // the first position sees only itself
}

using test::bit_identical;

// octet: per layer, gates = softmax(R · h) scale head group k; every gate is 0 at position 0.
TEST(Router, GatesAreDistributionsAndZeroAtTheFirstPosition) {
    const LoadedModel m = test::load_synthetic(spec("octet"));
    ASSERT_TRUE(m.model->weights().has_router());
    auto b = backend();
    const std::vector<TokenProbe> probes = evaluate(*m.model, *b, SessionOptions{});
    ASSERT_EQ(probes.size(), kPrompt.size());
    for (size_t t = 0; t < probes.size(); ++t) {
        ASSERT_EQ(probes[t].gates.size(), 3u * 8u);
        for (int64_t l = 0; l < 3; ++l) {
            double sum = 0.0;
            for (int64_t k = 0; k < 8; ++k) sum += probes[t].gates[static_cast<size_t>(l * 8 + k)];
            EXPECT_NEAR(sum, t == 0 ? 0.0 : 1.0, 1e-6) << "position " << t << " layer " << l;
        }
    }
}

// With zero router weights every gate is exactly 1/8 (from position 1 on), so an octet model
// whose W_O is multiplied by 8 (exact in float) gives the llama model's logits bit for bit on
// a one-token prompt once that position's heads are zeroed in both.
TEST(Router, UniformGatesEqualScaledProjection) {
    const LoadedModel base = test::load_synthetic(spec("octet"));
    const LoadedModel octet = test::load_bytes(test::rewrite_model(*base.model, [](const GgufTensorInfo& t, std::span<float> v) {
        if (t.name.ends_with("router.weight")) std::fill(v.begin(), v.end(), 0.0f);
        if (t.name.ends_with("attn_output.weight")) for (float& x : v) x *= 8.0f;
    }));
    auto b = backend();
    const std::vector<TokenProbe> probes = evaluate(*octet.model, *b, SessionOptions{});
    for (size_t t = 1; t < probes.size(); ++t) {
        for (float gate : probes[t].gates) EXPECT_EQ(gate, 0.125f);
    }
    // Position 0: octet zeroes every head, as zero-ablating all heads does in the same weights.
    const ModelParams& p = base.model->params();
    SessionOptions all_heads;
    all_heads.ablation.heads.assign(static_cast<size_t>(p.n_layer * p.n_head), 1);
    auto zeroed = Session::create(*base.model, *b, all_heads).value();
    auto gated = Session::create(*octet.model, *b, SessionOptions{}).value();
    const int32_t first[] = {1};
    auto z = zeroed->eval(first);
    ASSERT_TRUE(z);
    const std::vector<float> zl(z->begin(), z->end());
    auto o = gated->eval(first);
    ASSERT_TRUE(o);
    EXPECT_TRUE(bit_identical(zl, std::vector<float>(o->begin(), o->end())));
}

} // namespace
} // namespace octo
