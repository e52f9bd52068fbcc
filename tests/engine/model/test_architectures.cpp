// The architectures beyond llama/qwen2 by construction (docs/models.md): random-weight qwen3 and
// phi3 models written with the GGUF writer, run by the engine at exact precision, against a
// plain float64 forward pass (tests/support/forward64) from the architectures' definitions — every layer's
// attention output (the q/k norm + RoPE + attention step) and the logits. Also RoPE with LongRoPE
// factors and attention factor against its formula, sliding windows, gemma2's steps,
// and the sentence that refuses an unsupported architecture.
// Covers: architecture.cpp, model_params.cpp
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
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
#include "tests/support/forward64.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

using namespace test; // the float64 pass (tests/support/forward64.h), relative_l2

std::unique_ptr<CpuBackend> backend() { return std::move(CpuBackend::create({2, {}}).value()); }

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
                s->start(kPrompt);
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

// The engine on `model` against the float64 pass (attention outputs and logits within
// `tolerance`), and against the pass with each listed change (logits off by more than 1e-3: what
// was changed matters).
using PassChange = std::function<void(RopeSpec&, Steps&)>;
void expect_float64_and_each_change(const char* name, const Model& model, double tolerance,
                                    const std::vector<std::pair<const char*, PassChange>>& changes) {
    const ModelParams& p = model.params();
    const std::vector<int32_t> prompt = long_prompt();
    const EngineRun got = run_engine(model, prompt);
    ASSERT_EQ(got.logits.size(), prompt.size());
    const RopeSpec rope = rope_of(model);
    const Errors e = compare(got, forward64(model, prompt, rope), p.n_layer, p.n_embd_out());
    std::cout << "[ " << name << "    ] vs float64: attention outputs " << e.head_outputs << ", logits " << e.logits << "\n";
    EXPECT_LT(e.head_outputs, tolerance);
    EXPECT_LT(e.logits, tolerance);
    for (const auto& [what, change] : changes) {
        RopeSpec changed_rope = rope;
        Steps steps;
        change(changed_rope, steps);
        const Errors wrong = compare(got, forward64(model, prompt, changed_rope, steps), p.n_layer, p.n_embd_out());
        EXPECT_GT(wrong.logits, 1e-3) << name << " with " << what;
    }
}

// ... within 1e-5, and with each listed step left out of the pass.
void expect_float64_and_each_step(const char* name, const Model& model,
                                  std::initializer_list<std::pair<const char*, Steps>> omissions) {
    std::vector<std::pair<const char*, PassChange>> changes;
    for (const auto& [what, steps] : omissions) {
        changes.emplace_back(what, [omitted = steps](RopeSpec&, Steps& s) { s = omitted; });
    }
    expect_float64_and_each_change(name, model, 1e-5, changes);
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

// gpt-oss (later llama.cpp than the shared reference's; ../shared's ik runs are checked in
// test_forward_reference): biased q/k/v/o, a sink logit per head, a window on the even layers,
// a biased router whose top-2 logits are soft-maxed, biased experts with the clamped SwiGLU, the
// FFN norm named post_attention_norm, head size 48 (n_q 192 != n_embd 256). Leaving out the
// sinks or the window in the float64 pass moves it away from the engine.
SyntheticModelSpec gpt_oss_spec() {
    return {.architecture = "gpt-oss", .n_embd = 256, .n_ff = 64, .n_head = 4, .n_head_kv = 2, .n_layer = 4,
            .head_dim = 48, .context_length = 64, .sliding_window = 6, .seed = 29, .n_expert = 6, .n_expert_used = 2,
            .n_ff_exp = 64, .router_spread = 1.0f};
}

TEST(Architectures, GptOssMatchesFloat64ByConstruction) {
    const test::LoadedModel m = test::load_synthetic(gpt_oss_spec());
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    EXPECT_EQ(p.layer_window(0), 6);
    EXPECT_EQ(p.layer_window(1), 0);
    EXPECT_EQ(p.layer_window(2), 6);
    const LayerWeights& lw = m.model->weights().layers[1];
    EXPECT_TRUE(lw.attn_sinks && lw.attn_output_bias && lw.ffn_gate_inp_bias && lw.ffn_down_exps_bias);
    EXPECT_EQ(lw.ffn_norm->name, "blk.1.post_attention_norm.weight");
    expect_float64_and_each_step("gpt-oss", *m.model,
                                 {{"window", Steps{.window = false}}, {"sinks", Steps{.sinks = false}}});
}

// The sink's weight is what a head's positions leave: the recorded weights of each head sum to
// 1 - sink, and the sink share equals the float64 softmax's with the sink logit, at every position.
TEST(Architectures, GptOssSinkWeightIsRecorded) {
    const test::LoadedModel m = test::load_synthetic(gpt_oss_spec());
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    auto b = std::move(CpuBackend::create({2, {}}).value());
    SessionOptions o;
    o.precision = Precision::Exact;
    o.instrument.attention = true;
    auto s = Session::create(*m.model, *b, o).value();
    const std::vector<int32_t> prompt = long_prompt();
    ASSERT_TRUE(s->eval(prompt));
    double smallest = 1.0, largest = 0.0;
    for (size_t t = 0; t < prompt.size(); ++t) {
        const TokenProbe& probe = s->probes()[t];
        ASSERT_EQ(probe.attention_sink.size(), static_cast<size_t>(p.n_layer * p.n_head));
        const size_t seen = t + 1;
        for (int64_t lh = 0; lh < p.n_layer * p.n_head; ++lh) {
            double sum = 0.0;
            for (size_t j = 0; j < seen; ++j) sum += probe.attention[static_cast<size_t>(lh) * seen + j];
            const float sink = probe.attention_sink[static_cast<size_t>(lh)];
            EXPECT_NEAR(sum + sink, 1.0, 1e-5) << "position " << t << ", layer·head " << lh;
            smallest = std::min<double>(smallest, sink);
            largest = std::max<double>(largest, sink);
        }
    }
    // with logits uniform in ±2 the sinks take a visible share somewhere, and never all of it
    EXPECT_GT(largest, 0.05);
    EXPECT_LT(smallest, 0.5);
    // a model without sinks records none
    const test::LoadedModel q = test::load_synthetic(qwen3_spec());
    auto s2 = Session::create(*q.model, *b, o).value();
    ASSERT_TRUE(s2->eval(std::vector<int32_t>{1, 5, 9}));
    EXPECT_TRUE(s2->probes()[2].attention_sink.empty());
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
    expect_float64_and_each_change("yarn", *m.model, 2e-5,
                                   {{"plain linear interpolation", [](RopeSpec& r, Steps&) { r.yarn = false; }}});
}

// deepseek2 by construction (the tiny file of ../shared is checked against ik in
// test_forward_reference): multi-head latent attention with a q bottleneck, key heads of 40 (32 +
// 8 RoPE) and value heads of 24 (n_embd_out 96 != n_embd_q 160), a leading dense block, sigmoid
// gates chosen with exp_probs_b, renormalised and x2.5, one shared expert. The engine's absorbed
// form against the float64 pass's expanded form; leaving out the renormalisation moves it away.
SyntheticModelSpec deepseek2_spec() {
    return {.architecture = "deepseek2", .n_embd = 128, .n_ff = 96, .n_head = 4, .n_head_kv = 4, .n_layer = 3,
            .head_dim = 40, .context_length = 64, .seed = 31, .n_expert = 6, .n_expert_used = 2, .n_ff_exp = 32,
            .router_spread = 1.0f, .n_rot = 8, .head_dim_v = 24, .n_lora_q = 48, .n_lora_kv = 32};
}

TEST(Architectures, DeepSeek2MatchesFloat64ByConstruction) {
    const test::LoadedModel m = test::load_synthetic(deepseek2_spec());
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    EXPECT_TRUE(p.latent_attention());
    EXPECT_EQ(p.n_embd_q(), 160);
    EXPECT_EQ(p.n_embd_out(), 96);
    EXPECT_EQ(p.kv_head_dim(), 40); // the cache row: 8 RoPE values and the latent of 32
    EXPECT_TRUE(p.expert_gating_sigmoid && p.expert_weights_norm);
    EXPECT_EQ(p.expert_weights_scale, 2.5);
    EXPECT_EQ(p.n_ff_shexp, 32);
    EXPECT_FALSE(p.layer_has_experts(0));
    EXPECT_TRUE(p.layer_has_experts(1));
    EXPECT_TRUE(m.model->weights().layers[0].ffn_gate && !m.model->weights().layers[0].ffn_gate_inp);
    EXPECT_TRUE(m.model->weights().layers[2].ffn_exp_probs_b && !m.model->weights().layers[2].ffn_gate_inp_shexp);
    expect_float64_and_each_step("deepseek2", *m.model, {{"renormalisation", Steps{.renormalise_experts = false}}});
    // DeepSeek-V2-Lite's layout: no q_lora_rank, one attn_q matrix
    SyntheticModelSpec lite = deepseek2_spec();
    lite.n_lora_q = 0;
    const test::LoadedModel l = test::load_synthetic(lite);
    ASSERT_TRUE(l.model);
    EXPECT_TRUE(l.model->weights().layers[0].attn_q && !l.model->weights().layers[0].attn_q_a);
    expect_float64_and_each_step("deepseek2 lite", *l.model, {});
}

// The KV cache of a latent model keeps one row of [RoPE part | latent] per position and layer,
// and no values: the pool of the spec above holds (8 + 32) floats a position and layer, where
// the expanded heads would take 4 x (40 + 24).
TEST(Architectures, DeepSeek2CachesTheLatentOnly) {
    const test::LoadedModel m = test::load_synthetic(deepseek2_spec());
    ASSERT_TRUE(m.model);
    auto b = std::move(CpuBackend::create({2, {}}).value());
    SessionOptions o;
    o.precision = Precision::Exact;
    o.n_ctx = 64;
    auto s = Session::create(*m.model, *b, o);
    ASSERT_TRUE(s) << s.error().message;
    const KvCacheShape& shape = (*s)->kv_store().cache().shape();
    EXPECT_TRUE(shape.values_in_keys);
    EXPECT_EQ(shape.n_head_kv, 1);
    EXPECT_EQ(shape.head_dim, 40);
    EXPECT_EQ((*s)->kv_store().cache().bytes(), shape.n_layer * shape.n_cells * 40 * static_cast<int64_t>(sizeof(float)));
}

// A deepseek2 file whose metadata cannot describe latent attention is refused with one
// sentence naming the key, and loads nothing: kv_lora_rank missing, an unknown gating function,
// a key head no larger than its RoPE part.
TEST(Architectures, DeepSeek2BadMetadataIsOneSentence) {
    const std::vector<uint8_t> good = make_synthetic_model(deepseek2_spec()).value();
    const auto edited = [&](const std::string& drop, const std::function<void(GgufWriter&)>& add) {
        auto file = GgufFile::parse(good).value();
        GgufWriter w;
        for (const auto& [key, value] : file.metadata()) {
            if (key != drop) w.add_value(key, value);
        }
        add(w);
        for (const GgufTensorInfo& t : file.tensors()) {
            EXPECT_TRUE(w.add_tensor(t.name, std::vector<int64_t>(t.ne, t.ne + t.n_dims), t.type.type,
                                     std::span<const uint8_t>(t.data, t.n_bytes)));
        }
        return w.to_bytes();
    };
    const struct {
        std::vector<uint8_t> bytes;
        const char* says;
    } cases[] = {
        {edited("deepseek2.attention.kv_lora_rank", [](GgufWriter&) {}), "attention.kv_lora_rank"},
        {edited("deepseek2.expert_gating_func", [](GgufWriter& w) { w.add_u32("deepseek2.expert_gating_func", 7); }),
         "expert_gating_func 7"},
        {edited("deepseek2.rope.dimension_count", [](GgufWriter& w) { w.add_u32("deepseek2.rope.dimension_count", 40); }),
         "must exceed rope.dimension_count"},
    };
    for (const auto& c : cases) {
        auto file = GgufFile::parse(c.bytes);
        ASSERT_TRUE(file) << file.error().message;
        auto model = Model::from_gguf(std::move(file.value()));
        ASSERT_FALSE(model) << c.says;
        EXPECT_NE(model.error().message.find(c.says), std::string::npos) << model.error().message;
    }
}

// YaRN on a deepseek2 file (factor 4 over 16 positions, yarn_log_multiplier 0.1): RoPE's own
// magnitude correction cancelled and the scores scaled by mscale² / √head_dim instead, as
// DeepSeek's code and llama.cpp do; the float64 pass applies the published form.
TEST(Architectures, DeepSeek2YarnMatchesFloat64ByConstruction) {
    SyntheticModelSpec spec = deepseek2_spec();
    spec.yarn_factor = 4.0f;
    spec.yarn_original_context = 16;
    const test::LoadedModel m = test::load_synthetic(spec);
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    EXPECT_FLOAT_EQ(static_cast<float>(p.rope_yarn_log_mul), 0.1f);
    expect_float64_and_each_change("deepseek2 YaRN", *m.model, 2e-5, {{"no RoPE scaling at all", [](RopeSpec& r, Steps&) {
                                       r.yarn = false;
                                       r.freq_scale = 1.0;
                                   }}});
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
    EXPECT_FALSE(none.gelu || none.softcap || none.sliding_window || none.scale || none.sinks || none.clamped_swiglu);
    const test::LoadedModel gpt_oss = test::load_synthetic(gpt_oss_spec());
    ASSERT_TRUE(gpt_oss.model);
    const ForwardFeatures g = forward_features(*gpt_oss.model, 64);
    EXPECT_TRUE(g.sinks && g.clamped_swiglu && g.experts && g.sliding_window);
    EXPECT_FALSE(g.gelu || g.softcap);
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
    EXPECT_EQ(model.error().message, "architecture 'mamba' is not supported (supported: llama, qwen2, qwen3, phi3, gemma2, gemma3, qwen2moe, olmoe, qwen3moe, gpt-oss, deepseek2, octet)");
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
    const test::LoadedModel gpt_oss = test::load_synthetic(gpt_oss_spec());
    ASSERT_TRUE(gpt_oss.model);
    const auto o = architecture_features(*find_architecture("gpt-oss"), gpt_oss.model->params(), gpt_oss.model->file());
    const std::vector<std::string> want_oss = {
        "NeoX RoPE", "q/k/v/o biases", "attention sinks (one logit per head)",
        "head size 48 (n_head x head size 192 != n_embd 256)", "grouped-query attention (2 KV heads)",
        "sliding window 6 on even layers", "clamped SwiGLU (alpha 1.702, limit 7)",
        "mixture of experts: 6 experts of width 64, 2 per token, softmax over the chosen experts' logits",
        "biased router and experts"};
    EXPECT_EQ(o, want_oss);
}

} // namespace
} // namespace octo
