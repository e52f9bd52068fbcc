// Mixtures of experts (docs/moe.md): random-weight Mixtral-style llama, qwen2moe, olmoe and
// qwen3moe models against the float64 pass written from their definitions
// (tests/support/forward64), the routing each position records, expert ablation, and the
// batch invariance of running a batch expert by expert. The real files' parity with llama.cpp is
// in test_forward_reference.cpp.
// Covers: moe_block.cpp
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cpu/reference_float.h"
#include "engine/inference/moe_block.h"
#include "engine/inference/session.h"
#include "engine/model/model_validation.h"
#include "tests/support/error_norms.h"
#include "tests/support/forward64.h"
#include "tests/support/loaded_model.h"

namespace octo {
namespace {

using test::Errors;
using test::Steps;

const std::vector<int32_t> kPrompt = {1, 40, 71, 9, 88, 33, 52, 52, 17, 60, 5, 23, 77, 41};

SyntheticModelSpec moe_spec(const std::string& arch) {
    SyntheticModelSpec s{.architecture = arch, .n_embd = 256, .n_ff = 128, .n_head = 4, .n_head_kv = 2, .n_layer = 2,
                         .seed = 23};
    s.n_expert = 8;
    s.n_expert_used = 2;
    if (arch == "qwen2moe" || arch == "qwen3moe") s.n_ff_exp = 64; // narrower experts (expert_feed_forward_length)
    s.router_spread = 1.0f; // distinct probabilities: no near-ties between the second and third expert
    return s;
}

Errors against_float64(const Model& model, const Steps& steps = {}, const ExpertAblation& experts = {}) {
    const test::EngineRun got = test::run_engine(model, kPrompt, 0, experts);
    EXPECT_EQ(got.logits.size(), kPrompt.size());
    if (got.logits.size() != kPrompt.size()) return {1.0, 1.0};
    return test::compare(got, test::forward64(model, kPrompt, test::rope_of(model), steps), model.params().n_layer,
                         model.params().n_embd_q());
}

TEST(MixtureOfExperts, EveryArchitectureMatchesFloat64ByConstruction) {
    for (const std::string arch : {"llama", "qwen2moe", "olmoe", "qwen3moe"}) {
        SCOPED_TRACE(arch);
        const test::LoadedModel m = test::load_synthetic(moe_spec(arch));
        ASSERT_TRUE(m.model);
        const Errors e = against_float64(*m.model);
        std::cout << "[ " << arch << " ] vs float64: attention outputs " << e.head_outputs << ", logits " << e.logits << "\n";
        EXPECT_LT(e.head_outputs, 1e-5);
        EXPECT_LT(e.logits, 1e-5);
    }
}

// Each difference between the architectures matters: the float64 pass without the
// renormalisation (qwen3moe) or without olmoe's whole-width q/k norm is far off.
TEST(MixtureOfExperts, TheComparisonSeesEachStep) {
    const test::LoadedModel qwen3moe = test::load_synthetic(moe_spec("qwen3moe"));
    ASSERT_TRUE(qwen3moe.model);
    EXPECT_GT(against_float64(*qwen3moe.model, Steps{.renormalise_experts = false}).logits, 1e-2);
    const test::LoadedModel olmoe = test::load_synthetic(moe_spec("olmoe"));
    ASSERT_TRUE(olmoe.model);
    EXPECT_GT(against_float64(*olmoe.model, Steps{.qk_norm = false}).head_outputs, 1e-2);
}

// The routing every position records: n_used experts per layer, most probable first, weights as
// applied (summing to 1 where the architecture renormalises), the shared expert's gate in (0, 1),
// and with router_probs the full softmax, whose chosen entries are the largest.
TEST(MixtureOfExperts, EveryPositionRecordsItsRouting) {
    for (const std::string arch : {"qwen2moe", "qwen3moe"}) {
        SCOPED_TRACE(arch);
        const test::LoadedModel m = test::load_synthetic(moe_spec(arch));
        ASSERT_TRUE(m.model);
        const ModelParams& p = m.model->params();
        auto b = std::move(CpuBackend::create({2, {}}).value());
        SessionOptions o;
        o.instrument.router_probs = true;
        auto s = Session::create(*m.model, *b, o).value();
        ASSERT_TRUE(s->eval(kPrompt));
        ASSERT_EQ(s->probes().size(), kPrompt.size());
        for (const TokenProbe& probe : s->probes()) {
            ASSERT_EQ(probe.expert_ids.size(), static_cast<size_t>(p.n_layer * p.n_expert_used));
            ASSERT_EQ(probe.expert_weights.size(), probe.expert_ids.size());
            ASSERT_EQ(probe.router_probs.size(), static_cast<size_t>(p.n_layer * p.n_expert));
            for (int64_t l = 0; l < p.n_layer; ++l) {
                const float* probs = probe.router_probs.data() + l * p.n_expert;
                EXPECT_NEAR(std::accumulate(probs, probs + p.n_expert, 0.0), 1.0, 1e-5);
                const int32_t first = probe.expert_ids[static_cast<size_t>(l * 2)];
                const int32_t second = probe.expert_ids[static_cast<size_t>(l * 2 + 1)];
                EXPECT_NE(first, second);
                EXPECT_GE(probs[first], probs[second]);
                for (int64_t e = 0; e < p.n_expert; ++e) {
                    if (e != first && e != second) {
                        EXPECT_LE(probs[e], probs[second]);
                    }
                }
                const float w0 = probe.expert_weights[static_cast<size_t>(l * 2)];
                const float w1 = probe.expert_weights[static_cast<size_t>(l * 2 + 1)];
                if (arch == "qwen3moe") {
                    EXPECT_NEAR(w0 + w1, 1.0f, 1e-6);
                    EXPECT_TRUE(probe.shared_gate.empty());
                } else { // as the router gives them
                    EXPECT_FLOAT_EQ(w0, probs[first]);
                    EXPECT_FLOAT_EQ(w1, probs[second]);
                    ASSERT_EQ(probe.shared_gate.size(), static_cast<size_t>(p.n_layer));
                    EXPECT_GT(probe.shared_gate[static_cast<size_t>(l)], 0.0f);
                    EXPECT_LT(probe.shared_gate[static_cast<size_t>(l)], 1.0f);
                }
            }
        }
    }
}

// A disabled expert is never chosen, the next-best takes its place, and the run equals the float64
// pass of the same model with that expert left out of the softmax.
TEST(MixtureOfExperts, DisabledExpertsAreLeftOutOfTheChoice) {
    const test::LoadedModel m = test::load_synthetic(moe_spec("qwen2moe"));
    ASSERT_TRUE(m.model);
    const ModelParams& p = m.model->params();
    const test::EngineRun plain = test::run_engine(*m.model, kPrompt);
    ASSERT_FALSE(plain.probes.empty());
    const int32_t favourite = plain.probes[3].expert_ids[0]; // layer 0's first choice at position 3
    const std::vector<ExpertSwitch> switches = {{-1, favourite}, {1, (favourite + 1) % 8}};
    auto ablation = ablate_experts(switches, p.n_layer, p.n_expert, p.n_expert_used);
    ASSERT_TRUE(ablation) << ablation.error().message;
    const test::EngineRun off = test::run_engine(*m.model, kPrompt, 0, ablation.value());
    ASSERT_EQ(off.probes.size(), kPrompt.size());
    for (const TokenProbe& probe : off.probes) {
        for (int64_t l = 0; l < p.n_layer; ++l) {
            for (int64_t k = 0; k < p.n_expert_used; ++k) {
                const int32_t e = probe.expert_ids[static_cast<size_t>(l * p.n_expert_used + k)];
                EXPECT_NE(e, favourite);
                if (l == 1) {
                    EXPECT_NE(e, (favourite + 1) % 8);
                }
            }
        }
    }
    EXPECT_NE(off.probes[3].expert_ids[0], favourite);
    EXPECT_GT(test::relative_l2(off.logits.back(), std::vector<double>(plain.logits.back().begin(), plain.logits.back().end())), 1e-4);
    const Errors e = against_float64(*m.model, Steps{.disabled_experts = ablation.value().experts}, ablation.value());
    EXPECT_LT(e.logits, 1e-5);
}

// The prompt as one batch (experts gathered across tokens) and one token at a time give the same
// bits, and so does another thread count.
TEST(MixtureOfExperts, BatchesAndThreadsDoNotChangeTheBits) {
    for (const std::string arch : {"llama", "qwen2moe"}) {
        SCOPED_TRACE(arch);
        SyntheticModelSpec spec = moe_spec(arch);
        spec.weight_type = TensorType::Q8_0;
        const test::LoadedModel m = test::load_synthetic(spec);
        ASSERT_TRUE(m.model);
        const auto run = [&](int threads, bool one_by_one) {
            auto b = std::move(CpuBackend::create({threads, {}}).value());
            auto s = Session::create(*m.model, *b, {}).value();
            std::vector<float> last;
            std::vector<int32_t> ids;
            const size_t steps = one_by_one ? kPrompt.size() : 1;
            for (size_t i = 0; i < steps; ++i) {
                const auto part = one_by_one ? std::span<const int32_t>(&kPrompt[i], 1) : std::span<const int32_t>(kPrompt);
                auto logits = s->eval(part);
                EXPECT_TRUE(logits);
                if (!logits) return std::pair{last, ids};
                last.assign(logits->begin(), logits->end());
                for (const TokenProbe& probe : s->probes()) ids.insert(ids.end(), probe.expert_ids.begin(), probe.expert_ids.end());
            }
            return std::pair{last, ids};
        };
        const auto batch = run(2, false);
        const auto single = run(2, true);
        const auto one_thread = run(1, false);
        EXPECT_EQ(batch.first, single.first);
        EXPECT_EQ(batch.second, single.second);
        EXPECT_EQ(batch.first, one_thread.first);
        EXPECT_EQ(batch.second.size(), kPrompt.size() * 2 * 2);
    }
}

TEST(MixtureOfExperts, RouteTokenChoosesTheMostProbable) {
    TokenRouting r;
    const std::vector<float> logits = {0.5f, 2.0f, 2.0f, -1.0f};
    route_token(logits, {}, 2, RouterRule{.renormalise = false}, r);
    EXPECT_EQ(r.ids, (std::vector<int32_t>{1, 2})); // a tie goes to the lower id
    EXPECT_NEAR(r.probs[0] + r.probs[1] + r.probs[2] + r.probs[3], 1.0f, 1e-6);
    EXPECT_FLOAT_EQ(r.weights[0], r.probs[1]);
    route_token(logits, {}, 2, RouterRule{}, r);
    EXPECT_FLOAT_EQ(r.weights[0], 0.5f);
    const std::vector<uint8_t> disabled = {0, 1, 0, 0};
    route_token(logits, disabled, 2, RouterRule{.renormalise = false}, r);
    EXPECT_EQ(r.ids, (std::vector<int32_t>{2, 0}));
    EXPECT_EQ(r.probs[1], 0.0f);
    EXPECT_NEAR(r.probs[0] + r.probs[2] + r.probs[3], 1.0f, 1e-6); // the softmax over the others
}

// At reference precision the router's softmax is the reference's (its vector exp, the eight
// exps summed ((0+4)+(2+6)) + ((1+5)+(3+7)) in float and then in double, p = e · (1/Σ)) and the
// chosen weights are renormalised by their sum in double: written out here, bit for bit.
TEST(MixtureOfExperts, ReferenceRoutingTakesTheReferenceFloatSteps) {
    std::mt19937 rng(5);
    std::normal_distribution<float> dist(0.0f, 2.0f);
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<float> logits(8);
        for (float& v : logits) v = dist(rng);
        const float max = *std::max_element(logits.begin(), logits.end());
        float e[8];
        for (int i = 0; i < 8; ++i) e[i] = reference_expf(logits[static_cast<size_t>(i)] - max);
        double sum = 0.0;
        sum += static_cast<double>(((e[0] + e[4]) + (e[2] + e[6])) + ((e[1] + e[5]) + (e[3] + e[7])));
        const auto inv = static_cast<float>(1.0 / sum);
        TokenRouting r;
        route_token(logits, {}, 3, RouterRule{}, r, Precision::Reference);
        for (int i = 0; i < 8; ++i) ASSERT_EQ(r.probs[static_cast<size_t>(i)], e[i] * inv) << "trial " << trial << " expert " << i;
        double chosen = 0.0;
        for (int32_t id : r.ids) chosen += static_cast<double>(r.probs[static_cast<size_t>(id)]);
        for (size_t k = 0; k < 3; ++k) {
            ASSERT_EQ(r.weights[k], r.probs[static_cast<size_t>(r.ids[k])] / static_cast<float>(chosen)) << "trial " << trial;
        }
    }
}

TEST(MixtureOfExperts, ExpertSwitchesAreCheckedAgainstTheModel) {
    EXPECT_EQ(parse_expert_switch("3:5").value(), (ExpertSwitch{3, 5}));
    EXPECT_EQ(parse_expert_switch("*:2").value(), (ExpertSwitch{-1, 2}));
    for (const char* bad : {"3", ":5", "3:", "a:1", "1:-2", "*:*"}) {
        const auto s = parse_expert_switch(bad);
        ASSERT_FALSE(s) << bad;
        EXPECT_NE(s.error().message.find("LAYER:EXPERT"), std::string::npos);
    }
    EXPECT_EQ(expert_switch_text({-1, 4}), "*:4");
    const std::vector<ExpertSwitch> out_of_range = {{2, 0}};
    EXPECT_NE(ablate_experts(out_of_range, 2, 8, 2).error().message.find("does not exist"), std::string::npos);
    std::vector<ExpertSwitch> too_many;
    for (int64_t e = 0; e < 7; ++e) too_many.push_back({-1, e});
    EXPECT_NE(ablate_experts(too_many, 2, 8, 2).error().message.find("fewer than the 2"), std::string::npos);
    EXPECT_NE(ablate_experts(out_of_range, 2, 0, 0).error().message.find("no experts"), std::string::npos);
    const auto ok = ablate_experts(std::vector<ExpertSwitch>{{-1, 3}, {1, 0}}, 2, 8, 2).value();
    EXPECT_EQ(ok.experts, (std::vector<uint8_t>{0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0}));
}

// A qwen2moe file without expert_count is refused in one sentence; the expert width defaults as
// llama.cpp's (n_ff / n_expert_used for qwen2moe without expert_feed_forward_length).
TEST(MixtureOfExperts, MetadataIsChecked) {
    ModelParams p;
    p.architecture = "qwen2moe";
    p.n_layer = 2;
    p.n_head = p.n_head_kv = 4;
    p.n_embd = 256;
    p.n_ff = 128;
    p.n_rot = 64;
    p.context_length = 64;
    const Status s = validate_hparams(p);
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().message, "qwen2moe models need expert_count and expert_used_count");
    const test::LoadedModel m = test::load_synthetic(moe_spec("qwen2moe"));
    ASSERT_TRUE(m.model);
    EXPECT_EQ(m.model->params().n_ff_exp, 64);
    EXPECT_EQ(m.model->params().n_ff_shexp, 128);
}

} // namespace
} // namespace octo
