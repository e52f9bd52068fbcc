// Two models on the same tokens (engine/evaluation/model_divergence.h): KL divergence of two
// distributions against a hand computation; a model against itself diverges nowhere; against a
// quantised copy of itself it does, step by step as many steps as tokens generated.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "engine/evaluation/model_divergence.h"
#include "engine/host/model_setup.h"
#include "engine/model/synthetic_model.h"

namespace octo {
namespace {

TEST(ModelDivergence, KlOfTwoSoftmaxes) {
    // p = (1/2, 1/2), q = (1/4, 3/4): KL = ln 2 / 2 + ln(2/3) / 2
    EXPECT_NEAR(logits_kl(std::vector<float>{0.0f, 0.0f}, std::vector<float>{0.0f, std::log(3.0f)}),
                0.5 * std::log(2.0) + 0.5 * std::log(2.0 / 3.0), 1e-7);
    EXPECT_EQ(logits_kl(std::vector<float>{1.0f, 2.0f, 3.0f}, std::vector<float>{1.0f, 2.0f, 3.0f}), 0.0);
    EXPECT_EQ(logits_kl(std::vector<float>{1.0f, 2.0f}, std::vector<float>{11.0f, 12.0f}), 0.0); // shifted logits, same softmax
}

OpenedModel open(TensorType type) {
    SyntheticModelSpec spec;
    spec.weight_type = type;
    spec.context_length = 64;
    spec.seed = 3;
    auto image = std::make_shared<const std::vector<uint8_t>>(make_synthetic_model(spec).value());
    return std::move(open_model_image(image, "m.gguf", {.backend = "cpu", .threads = 1}).value());
}

TEST(ModelDivergence, ItselfNowhereAQuantisedCopyEverywhere) {
    OpenedModel f32 = open(TensorType::F32), again = open(TensorType::F32), q4 = open(TensorType::Q4_0);
    const std::vector<int32_t> prompt = f32.tokenizer->encode("abc", true, false).value();
    const std::vector<int32_t> generated = {10, 20, 30, 40};
    auto same = model_divergence(*f32.model, *f32.backend, *again.model, *again.backend, prompt, generated, Precision::Exact);
    ASSERT_TRUE(same) << same.error().message;
    ASSERT_EQ(same->steps.size(), generated.size());
    for (const StepDivergence& s : same->steps) {
        EXPECT_EQ(s.kl, 0.0);
        EXPECT_EQ(s.top_a, s.top_b);
    }
    EXPECT_EQ(same->top_agreement, 1.0);
    EXPECT_FALSE(same->first_top_disagreement);
    auto other = model_divergence(*f32.model, *f32.backend, *q4.model, *q4.backend, prompt, generated, Precision::Exact);
    ASSERT_TRUE(other);
    ASSERT_EQ(other->steps.size(), generated.size());
    for (const StepDivergence& s : other->steps) EXPECT_GT(s.kl, 0.0);
    EXPECT_GE(other->max_kl, other->mean_kl);
    EXPECT_FALSE(model_divergence(*f32.model, *f32.backend, *q4.model, *q4.backend, {}, generated, Precision::Exact));
    const std::vector<int32_t> too_long(70, 5);
    EXPECT_FALSE(model_divergence(*f32.model, *f32.backend, *q4.model, *q4.backend, prompt, too_long, Precision::Exact));
}

} // namespace
} // namespace octo
