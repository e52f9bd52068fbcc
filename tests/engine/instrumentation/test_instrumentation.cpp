// Per-head contribution norms and head ablation inside the forward pass, on random-weight
// models: the reference path (explicit W_h z_h), the Gram-matrix norms against it, zero
// ablation against a model written with those heads' W_O columns set to zero, and the
// guarantees that instrumentation and empty ablations change no logit.
// Covers: forward_probe.cpp, head_grams.cpp, metrics.cpp,
//   engine/backend/cpu/cpu_instrumentation.cpp, engine/model/model_constants.cpp
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/generation/generator.h"
#include "engine/gguf/dequantize.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/inference/session.h"
#include "engine/instrumentation/head_grams.h"
#include "engine/instrumentation/metrics.h"
#include "engine/model/model.h"
#include "engine/model/synthetic_model.h"
#include "engine/tokenizer/tokenizer.h"
#include "tests/support/error_norms.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

const std::vector<int32_t> kPrompt = {1, 17, 42, 5, 88, 63, 2, 30, 30, 71, 9};

using test::LoadedModel;
using test::load_bytes;

// 8 heads of 32 values: with the default map, head k of every layer is subsystem k.
SyntheticModelSpec spec(TensorType type, const std::string& arch = "llama") {
    SyntheticModelSpec s;
    s.architecture = arch;
    s.weight_type = type;
    s.n_head = 8;
    s.n_head_kv = 4;
    s.seed = 7;
    return s;
}

LoadedModel load(const SyntheticModelSpec& s) { return test::load_synthetic(s); }

std::unique_ptr<CpuBackend> backend(int threads = 2) { return std::move(CpuBackend::create({threads, {}}).value()); }

struct Evaluated {
    std::vector<float> logits;       // [n_tokens, n_vocab]
    std::vector<TokenProbe> probes;  // [n_tokens]
};

// Evaluates kPrompt in pieces of `piece` tokens with all logits.
Evaluated run(const Model& model, Backend& b, SessionOptions options, size_t piece = kPrompt.size()) {
    options.all_logits = true;
    auto session = Session::create(model, b, options);
    EXPECT_TRUE(session) << session.error().message;
    (*session)->start(kPrompt); // the prompt, however many evals it takes
    Evaluated r;
    for (size_t i = 0; i < kPrompt.size(); i += piece) {
        const size_t n = std::min(piece, kPrompt.size() - i);
        auto out = (*session)->eval(std::span<const int32_t>(kPrompt).subspan(i, n));
        EXPECT_TRUE(out) << out.error().message;
        r.logits.insert(r.logits.end(), out->begin(), out->end());
        r.probes.insert(r.probes.end(), (*session)->probes().begin(), (*session)->probes().end());
    }
    return r;
}

SessionOptions probing(bool norms, bool outputs) {
    SessionOptions o;
    o.instrument = InstrumentOptions{norms, outputs};
    return o;
}

using test::bit_identical;

// A copy of the model's GGUF with W_O columns of the given heads zeroed in every layer
// (F32 weights).
std::vector<uint8_t> zero_heads(const LoadedModel& m, const std::vector<int64_t>& heads) {
    const int64_t head_dim = m.model->params().head_dim();
    return test::rewrite_model(*m.model, [&](const GgufTensorInfo& t, std::span<float> v) { // [n_out][n_in]
        if (!t.name.ends_with("attn_output.weight")) return;
        for (int64_t r = 0; r < t.ne[1]; ++r) {
            for (int64_t h : heads) {
                for (int64_t d = 0; d < head_dim; ++d) v[static_cast<size_t>(r * t.ne[0] + h * head_dim + d)] = 0.0f;
            }
        }
    });
}

class Instrumentation : public testing::TestWithParam<TensorType> {};

// Reference path: Σ_h W_h z_h equals the output projection W_O z (the backend's matmul of the
// same z), and the Gram-matrix norms equal ‖W_h z_h‖ computed explicitly.
TEST_P(Instrumentation, ReferenceContributionsAndNorms) {
    const LoadedModel m = load(spec(GetParam()));
    const ModelParams& p = m.model->params();
    auto b = backend();
    const Evaluated r = run(*m.model, *b, probing(true, true));
    ASSERT_EQ(r.probes.size(), kPrompt.size());
    std::vector<float> projected(static_cast<size_t>(p.n_embd));
    for (int64_t l = 0; l < p.n_layer; ++l) {
        const GgufTensorInfo& wo = *m.model->weights().layers[static_cast<size_t>(l)].attn_output;
        const std::vector<float> w = dequantize_rows(wo, 0, wo.ne[1]).value(); // [n_embd][n_embd]
        for (const TokenProbe& probe : r.probes) {
            std::span<const float> z(probe.head_outputs.data() + l * p.n_embd, static_cast<size_t>(p.n_embd));
            const std::vector<double> c = head_contributions(w, z, p.n_head, p.head_dim()); // [n_head][n_embd]
            b->matmul(weight_matrix(wo), z.data(), projected.data(), 1, Precision::Exact);
            double err = 0.0, ref = 0.0;
            for (int64_t i = 0; i < p.n_embd; ++i) {
                double sum = 0.0;
                for (int64_t h = 0; h < p.n_head; ++h) sum += c[static_cast<size_t>(h * p.n_embd + i)];
                err = std::max(err, std::abs(sum - projected[static_cast<size_t>(i)]));
                ref = std::max(ref, std::abs(sum));
            }
            EXPECT_LE(err, 1e-5 * ref) << "layer " << l;
            for (int64_t h = 0; h < p.n_head; ++h) {
                double sq = 0.0;
                for (int64_t i = 0; i < p.n_embd; ++i) sq += c[static_cast<size_t>(h * p.n_embd + i)] * c[static_cast<size_t>(h * p.n_embd + i)];
                const double want = std::sqrt(sq);
                const float got = probe.head_norms[static_cast<size_t>(l * p.n_head + h)];
                // G_h is rounded once to float: relative error a few float epsilons.
                EXPECT_NEAR(got, want, 1e-5 * want + 1e-7) << "layer " << l << " head " << h;
            }
        }
    }
}

// Instrumentation and an empty ablation leave every logit bit-identical.
TEST_P(Instrumentation, ChangesNoLogit) {
    const LoadedModel m = load(spec(GetParam()));
    const ModelParams& p = m.model->params();
    auto b = backend();
    const Evaluated off = run(*m.model, *b, {});
    EXPECT_TRUE(bit_identical(run(*m.model, *b, probing(true, false)).logits, off.logits));
    EXPECT_TRUE(bit_identical(run(*m.model, *b, probing(true, true)).logits, off.logits));

    SessionOptions none;
    none.ablation.heads.assign(static_cast<size_t>(p.n_layer * p.n_head), 0); // a mask with no head set
    EXPECT_TRUE(bit_identical(run(*m.model, *b, none).logits, off.logits));
    const HeadMap map = HeadMap::make_default(p.n_layer, p.n_head);
    none.ablation = ablate_subsystems(map, {}, AblationMode::Mean);
    EXPECT_TRUE(none.ablation.heads.empty());
    EXPECT_TRUE(bit_identical(run(*m.model, *b, none).logits, off.logits));
}

// Norms (and logits under ablation) are bit-identical for any thread count and batch split.
TEST_P(Instrumentation, NormsDeterministic) {
    const LoadedModel m = load(spec(GetParam()));
    const HeadMap map = HeadMap::make_default(m.model->params().n_layer, m.model->params().n_head);
    SessionOptions o = probing(true, false);
    o.ablation = ablate_subsystems(map, {false, false, true}, AblationMode::Zero);
    auto one = backend(1);
    auto three = backend(3);
    const Evaluated a = run(*m.model, *one, o);
    for (auto [b, piece] : {std::pair{one.get(), size_t{3}}, std::pair{three.get(), size_t{11}},
                            std::pair{three.get(), size_t{1}}}) {
        const Evaluated r = run(*m.model, *b, o, piece);
        EXPECT_TRUE(bit_identical(r.logits, a.logits));
        for (size_t t = 0; t < a.probes.size(); ++t) EXPECT_TRUE(bit_identical(r.probes[t].head_norms, a.probes[t].head_norms));
    }
    o.n_batch = 4;
    const Evaluated batched = run(*m.model, *three, o);
    for (size_t t = 0; t < a.probes.size(); ++t) EXPECT_TRUE(bit_identical(batched.probes[t].head_norms, a.probes[t].head_norms));
}

INSTANTIATE_TEST_SUITE_P(Types, Instrumentation, testing::Values(TensorType::F32, TensorType::Q8_0, TensorType::Q4_K),
                         [](const auto& param_info) { return std::string(tensor_type_info(static_cast<uint32_t>(param_info.param))->name); });

// Zero-ablating subsystems gives the logits of a model whose W_O columns for those heads are 0.
TEST(Ablation, ZeroEqualsZeroedColumns) {
    for (const std::string arch : {"llama", "qwen2"}) {
        const LoadedModel m = load(spec(TensorType::F32, arch));
        const ModelParams& p = m.model->params();
        const HeadMap map = HeadMap::make_default(p.n_layer, p.n_head);
        auto b = backend();
        for (const std::vector<int64_t>& heads : {std::vector<int64_t>{2}, std::vector<int64_t>{0, 5, 7}}) {
            std::array<bool, kSubsystemCount> disabled{};
            for (int64_t h : heads) disabled[static_cast<size_t>(h)] = true; // 8 heads: head k is rte-(k)
            SessionOptions o = probing(true, false);
            o.ablation = ablate_subsystems(map, disabled, AblationMode::Zero);
            const Evaluated ablated = run(*m.model, *b, o);
            const LoadedModel zeroed = load_bytes(zero_heads(m, heads));
            const Evaluated want = run(*zeroed.model, *b, {});
            ASSERT_EQ(ablated.logits.size(), want.logits.size());
            for (size_t i = 0; i < want.logits.size(); ++i) {
                ASSERT_NEAR(ablated.logits[i], want.logits[i], 1e-6f * (1.0f + std::abs(want.logits[i]))) << arch << " " << i;
            }
            for (const TokenProbe& probe : ablated.probes) {
                for (int64_t l = 0; l < p.n_layer; ++l) {
                    for (int64_t h : heads) EXPECT_EQ(probe.head_norms[static_cast<size_t>(l * p.n_head + h)], 0.0f);
                }
                const SubsystemValues share = norm_share(map, probe.head_norms).value();
                for (int64_t h : heads) EXPECT_EQ(share[static_cast<size_t>(h)], 0.0f);
            }
            const Evaluated intact = run(*m.model, *b, {});
            EXPECT_FALSE(bit_identical(intact.logits, ablated.logits));
        }
    }
}

// Mean ablation: ablated heads carry exactly the baseline (the mean of z over the prompt
// without BOS), the other heads' norms are measured as usual, and logits change.
TEST(Ablation, MeanReplacesWithBaseline) {
    const LoadedModel m = load(spec(TensorType::Q8_0));
    const ModelParams& p = m.model->params();
    const HeadMap map = HeadMap::make_default(p.n_layer, p.n_head);
    auto b = backend();
    const Evaluated intact = run(*m.model, *b, probing(false, true));
    std::vector<float> baseline = mean_head_outputs(std::span(intact.probes).subspan(1)).value();
    SessionOptions o = probing(false, true);
    o.ablation = ablate_subsystems(map, {false, true, false, false, false, false, true}, AblationMode::Mean, baseline);
    const Evaluated ablated = run(*m.model, *b, o);
    EXPECT_FALSE(bit_identical(intact.logits, ablated.logits));
    for (const TokenProbe& probe : ablated.probes) {
        for (int64_t l = 0; l < p.n_layer; ++l) {
            for (int64_t h = 0; h < p.n_head; ++h) {
                const bool ablated_head = h == 1 || h == 6;
                for (int64_t d = 0; d < p.head_dim(); ++d) {
                    const auto i = static_cast<size_t>(l * p.n_embd + h * p.head_dim() + d);
                    if (ablated_head) {
                        EXPECT_EQ(probe.head_outputs[i], baseline[i]);
                    }
                }
            }
        }
    }
    // A baseline of the wrong size is refused when the session is created.
    o.ablation.baseline.pop_back();
    auto s = Session::create(*m.model, *b, o);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, ErrorCode::InvalidArgument);
}

// relative: each head's norm over its baseline mean, grouped, normalised.
TEST(Metrics, RelativeAndNormShare) {
    const LoadedModel m = load(spec(TensorType::F32));
    const ModelParams& p = m.model->params();
    const HeadMap map = HeadMap::make_default(p.n_layer, p.n_head);
    auto b = backend();
    const Evaluated r = run(*m.model, *b, probing(true, false));
    const std::vector<float> base = mean_head_norms(std::span(r.probes).subspan(1)).value();
    for (const TokenProbe& probe : std::span(r.probes).subspan(1)) {
        const SubsystemValues rel = relative_share(map, probe.head_norms, base).value();
        const SubsystemValues share = norm_share(map, probe.head_norms).value();
        double sum_rel = 0.0, sum_share = 0.0;
        for (int s = 0; s < kSubsystemCount; ++s) {
            sum_rel += rel[static_cast<size_t>(s)];
            sum_share += share[static_cast<size_t>(s)];
        }
        EXPECT_NEAR(sum_rel, 1.0, 1e-6);
        EXPECT_NEAR(sum_share, 1.0, 1e-6);
    }
    // Against its own baseline every head is 1: all subsystems equal.
    const SubsystemValues flat = relative_share(map, base, base).value();
    for (float v : flat) EXPECT_NEAR(v, 1.0f / 8.0f, 1e-6f);
    EXPECT_FALSE(relative_share(map, base, std::span(base).first(3)));
}

// The generation loop reports, for generated token i, the probe of the position whose logits
// chose it, and each prompt position's own probe.
TEST(Generation, ProbesFollowTheChoosingPosition) {
    const LoadedModel m = load(spec(TensorType::Q8_0));
    auto b = backend();
    Vocab v;
    v.model = "gpt2";
    v.pre = "default";
    for (int64_t i = 0; i < m.model->params().n_vocab; ++i) v.tokens.push_back("t" + std::to_string(i));
    const Tokenizer tokenizer = std::move(Tokenizer::create(std::move(v)).value());
    auto session = Session::create(*m.model, *b, probing(true, false)).value();
    GenerateRequest request;
    request.prompt_ids = {1, 17, 42, 5};
    request.max_tokens = 4;
    request.stop_at_eog = false;
    const GenerateResult result = generate(*session, tokenizer, request).value();
    ASSERT_EQ(result.prompt_probes.size(), 4u);
    ASSERT_EQ(result.tokens.size(), 4u);

    std::vector<int32_t> all = request.prompt_ids; // prompt + the generated tokens that were evaluated
    for (size_t i = 0; i + 1 < result.tokens.size(); ++i) all.push_back(result.tokens[i].id);
    auto fresh = Session::create(*m.model, *b, probing(true, false)).value();
    fresh->start(request.prompt_ids); // the same prompt, then the generated tokens in one eval
    ASSERT_TRUE(fresh->eval(all));
    const std::span<const TokenProbe> want = fresh->probes();
    for (size_t p = 0; p < 4; ++p) EXPECT_TRUE(bit_identical(result.prompt_probes[p].head_norms, want[p].head_norms));
    for (size_t i = 0; i < result.tokens.size(); ++i) {
        EXPECT_TRUE(bit_identical(result.tokens[i].probe.head_norms, want[3 + i].head_norms)) << "token " << i;
    }
}

} // namespace
} // namespace octo
