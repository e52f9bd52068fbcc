// The logit lens (engine/instrumentation/logit_lens.h, engine/generation/logit_lens_run.h):
// against an explicit float64 computation of the final norm and the output matrix on every
// layer's residual; its last layer is the model's own output bit for bit; computed after a run it
// is the same whatever the pool reused; positions outside the run are refused.
// Covers: engine/generation/logit_lens_run.cpp, engine/host/model_run.cpp
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/generation/logit_lens_run.h"
#include "engine/host/model_run.h"
#include "engine/host/model_setup.h"
#include "engine/inference/session.h"
#include "engine/model/synthetic_model.h"

namespace octo {
namespace {

OpenedModel open_synthetic(TensorType type, int64_t n_layer = 4) {
    SyntheticModelSpec spec;
    spec.weight_type = type;
    spec.n_layer = n_layer;
    spec.context_length = 256;
    spec.seed = 7;
    auto image = std::make_shared<const std::vector<uint8_t>>(make_synthetic_model(spec).value());
    auto opened = open_model_image(image, "lens.gguf", {.backend = "cpu", .threads = 1});
    EXPECT_TRUE(opened) << opened.error().message;
    return std::move(opened.value());
}

std::vector<int32_t> ids(const OpenedModel& m, const std::string& text) {
    return m.tokenizer->encode(text, true, false).value();
}

// Every layer's residual at the prompt's last position, from a session that keeps them.
std::vector<float> last_residuals(OpenedModel& m, std::span<const int32_t> prompt, Precision precision,
                                  std::vector<float>* logits = nullptr) {
    SessionOptions o;
    o.precision = precision;
    o.instrument.layer_hidden = true;
    auto s = Session::create(*m.model, *m.backend, o);
    EXPECT_TRUE(s);
    s.value()->start(prompt);
    auto out = s.value()->eval(prompt);
    EXPECT_TRUE(out);
    if (logits) logits->assign(out.value().begin(), out.value().end());
    return s.value()->probes().back().layer_hidden;
}

TEST(LogitLens, MatchesAFloat64ComputationOnEveryLayer) {
    OpenedModel m = open_synthetic(TensorType::F32);
    const ModelParams& p = m.model->params();
    const std::vector<int32_t> prompt = ids(m, "the lens reads every layer");
    const std::vector<float> hidden = last_residuals(m, prompt, Precision::Exact);
    ASSERT_EQ(static_cast<int64_t>(hidden.size()), p.n_layer * p.n_embd);
    auto logits = lens_logits(*m.model, *m.backend, Precision::Exact, hidden);
    ASSERT_TRUE(logits) << logits.error().message;
    const int32_t chosen = 42;
    const LogitLens lens = lens_from_logits(logits.value(), p.n_layer, p.n_vocab, 5, chosen, 5);
    ASSERT_EQ(static_cast<int64_t>(lens.layers.size()), p.n_layer);

    const auto* g = reinterpret_cast<const float*>(m.model->weights().output_norm->data);
    const auto* w = reinterpret_cast<const float*>(m.model->weights().output->data); // [n_vocab][n_embd], F32
    for (int64_t l = 0; l < p.n_layer; ++l) {
        const float* h = hidden.data() + l * p.n_embd;
        double ss = 0.0;
        for (int64_t i = 0; i < p.n_embd; ++i) ss += static_cast<double>(h[i]) * h[i];
        const double r = 1.0 / std::sqrt(ss / static_cast<double>(p.n_embd) + p.rms_norm_eps);
        std::vector<double> z(static_cast<size_t>(p.n_vocab));
        for (int64_t v = 0; v < p.n_vocab; ++v) {
            double dot = 0.0;
            for (int64_t i = 0; i < p.n_embd; ++i) dot += static_cast<double>(w[v * p.n_embd + i]) * g[i] * h[i] * r;
            z[static_cast<size_t>(v)] = dot;
        }
        const double max = *std::max_element(z.begin(), z.end());
        double sum = 0.0;
        for (const double v : z) sum += std::exp(v - max);
        std::vector<int32_t> order(static_cast<size_t>(p.n_vocab));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return z[static_cast<size_t>(a)] > z[static_cast<size_t>(b)]; });
        const LensLayer& layer = lens.layers[static_cast<size_t>(l)];
        ASSERT_EQ(layer.top.size(), 5u);
        for (size_t i = 0; i < 5; ++i) {
            EXPECT_EQ(layer.top[i].token, order[i]) << "layer " << l << " rank " << i + 1;
            EXPECT_NEAR(layer.top[i].prob, std::exp(z[static_cast<size_t>(order[i])] - max) / sum, 2e-6) << "layer " << l;
        }
        const auto rank = std::find(order.begin(), order.end(), chosen) - order.begin() + 1;
        EXPECT_EQ(layer.chosen_rank, rank) << "layer " << l;
        EXPECT_NEAR(layer.chosen_prob, std::exp(z[chosen] - max) / sum, 2e-6) << "layer " << l;
        float total = 0.0f;
        for (const LensEntry& e : layer.top) total += e.prob;
        EXPECT_LE(total, 1.0f + 1e-6f);
    }
}

// After the last layer the lens is the model's output: the same floats the run sampled from,
// at reference precision (quantised activations) as at exact.
TEST(LogitLens, ItsLastLayerIsTheModelsOwnOutput) {
    for (const TensorType type : {TensorType::F32, TensorType::Q8_0, TensorType::Q4_K}) {
        OpenedModel m = open_synthetic(type);
        const ModelParams& p = m.model->params();
        const std::vector<int32_t> prompt = ids(m, "one more time");
        std::vector<float> exact_logits, reference_logits;
        (void)last_residuals(m, prompt, Precision::Exact, &exact_logits);
        (void)last_residuals(m, prompt, Precision::Reference, &reference_logits);
        ASSERT_NE(exact_logits, reference_logits); // so the comparison below tells the two apart
        for (const Precision precision : {Precision::Exact, Precision::Reference}) {
            std::vector<float> model_logits;
            const std::vector<float> hidden = last_residuals(m, prompt, precision, &model_logits);
            auto logits = lens_logits(*m.model, *m.backend, precision, hidden);
            ASSERT_TRUE(logits);
            const std::span<const float> last = std::span<const float>(logits.value()).subspan(static_cast<size_t>((p.n_layer - 1) * p.n_vocab));
            ASSERT_EQ(model_logits.size(), last.size());
            EXPECT_TRUE(std::equal(last.begin(), last.end(), model_logits.begin()))
                << tensor_type_info(static_cast<uint32_t>(type))->name << ", " << precision_name(precision);
        }
    }
}

TEST(LogitLens, AfterARunItIsTheSameWhateverThePoolReused) {
    OpenedModel ran = open_synthetic(TensorType::Q8_0);
    RunSpec spec;
    spec.prompt = std::string(80, 'a') + " and then some more words for a prompt of two blocks";
    spec.max_tokens = 6;
    spec.sampling.temperature = 0.0f;
    auto run = run_on_model(ran, spec);
    ASSERT_TRUE(run) << run.error().message;
    std::vector<int32_t> tokens = run->prompt.ids;
    for (const TokenEvent& e : run->run.generation.tokens) tokens.push_back(e.id);
    const auto n_prompt = static_cast<int64_t>(run->prompt.ids.size());
    const std::vector<int64_t> positions = {n_prompt + 2, 3, n_prompt - 1, n_prompt + 2, static_cast<int64_t>(tokens.size()) - 1};
    const RunInputs inputs{.prompt_ids = run->prompt.ids};
    auto lenses = run_logit_lens(*ran.model, *ran.backend, ran.map(), *ran.kv, spec, inputs, tokens, positions, 3);
    ASSERT_TRUE(lenses) << lenses.error().message;
    ASSERT_EQ(lenses->size(), positions.size());
    EXPECT_EQ(lenses.value()[0], lenses.value()[3]);
    EXPECT_EQ(lenses.value()[1].chosen, tokens[4]);
    EXPECT_EQ(lenses.value()[4].chosen, -1); // nothing followed the last token
    EXPECT_EQ(lenses.value()[4].layers.back().chosen_rank, 0);
    // Greedy: every generated token is its choosing position's top token after the last layer,
    // with the probability the run gave it.
    for (size_t i = 0; i + 1 < run->run.generation.tokens.size(); ++i) {
        const TokenEvent& e = run->run.generation.tokens[i];
        auto one = run_logit_lens(*ran.model, *ran.backend, ran.map(), *ran.kv, spec, inputs, tokens,
                                  std::vector<int64_t>{n_prompt - 1 + static_cast<int64_t>(i)}, 1);
        ASSERT_TRUE(one);
        const LensLayer& last = one->front().layers.back();
        EXPECT_EQ(last.top.front().token, e.id);
        EXPECT_EQ(last.chosen_rank, 1);
        EXPECT_NEAR(last.chosen_prob, std::exp(e.logprobs.logprob), 1e-5);
    }
    // A fresh model, nothing in its pool: the same lenses.
    OpenedModel fresh = open_synthetic(TensorType::Q8_0);
    auto again = run_logit_lens(*fresh.model, *fresh.backend, fresh.map(), *fresh.kv, spec, inputs, tokens, positions, 3);
    ASSERT_TRUE(again);
    EXPECT_EQ(again.value(), lenses.value());
    // And as JSON, back again.
    for (const LogitLens& l : lenses.value()) {
        auto back = logit_lens_from_json(logit_lens_json(l, [&](int32_t id) { return ran.tokenizer->token_bytes(id); }));
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(back.value(), l);
    }
}

TEST(LogitLens, RefusesWhatIsNotInTheRun) {
    OpenedModel m = open_synthetic(TensorType::F32, 2);
    RunSpec spec;
    spec.prompt = "abc";
    const std::vector<int32_t> prompt = ids(m, "abc");
    const RunInputs inputs{.prompt_ids = prompt};
    for (const int64_t bad : {int64_t{-1}, static_cast<int64_t>(prompt.size())}) {
        auto r = run_logit_lens(*m.model, *m.backend, m.map(), *m.kv, spec, inputs, prompt, std::vector<int64_t>{bad}, 3);
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, ErrorCode::InvalidArgument);
    }
    EXPECT_FALSE(run_logit_lens(*m.model, *m.backend, m.map(), *m.kv, spec, inputs, prompt, std::vector<int64_t>{0}, 0));
    const std::vector<int32_t> other = {prompt[0], prompt[1] + 1};
    EXPECT_FALSE(run_logit_lens(*m.model, *m.backend, m.map(), *m.kv, spec, inputs, other, std::vector<int64_t>{0}, 3));
    EXPECT_FALSE(lens_logits(*m.model, *m.backend, Precision::Exact, std::vector<float>(5)));
    EXPECT_FALSE(logit_lens_from_json(nlohmann::json{{"position", 1}, {"chosen", 3}, {"layers", {{{"top", nlohmann::json::array()}}}}}));
}

} // namespace
} // namespace octo
