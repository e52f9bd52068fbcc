// Log-probabilities of the raw logits: values, the top five, stability. Expected values are worked
// out by hand and written literally.
#include <gtest/gtest.h>

#include "engine/sampling/logprobs.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

TEST(SamplingLogprobs, NaturalLogOfSoftmaxOfRawLogits) {
    // log-sum-exp(1, 2, 3) = 3 + ln(1 + e^-1 + e^-2) = 3.4076059644443806.
    const std::vector<float> logits = {1.0f, 2.0f, 3.0f};
    const TokenLogprobs lp = token_logprobs(logits, 0);
    EXPECT_NEAR(lp.logprob, -2.4076059644443806, 1e-12);
    ASSERT_EQ(lp.top.size(), 3u);
    EXPECT_EQ(lp.top[0].id, 2);
    EXPECT_NEAR(lp.top[0].logprob, -0.4076059644443804, 1e-12);
    EXPECT_EQ(lp.top[1].id, 1);
    EXPECT_NEAR(lp.top[1].logprob, -1.4076059644443804, 1e-12);
    EXPECT_EQ(lp.top[2].id, 0);
}

TEST(SamplingLogprobs, TopFiveWithTiesByLowerId) {
    const std::vector<float> logits(8, 0.5f);
    const TokenLogprobs lp = token_logprobs(logits, 7);
    EXPECT_NEAR(lp.logprob, -std::log(8.0), 1e-12);
    ASSERT_EQ(lp.top.size(), 5u);
    for (int32_t i = 0; i < 5; ++i) EXPECT_EQ(lp.top[static_cast<size_t>(i)].id, i);
}

TEST(SamplingLogprobs, StableForHugeLogitsAndMaskedTokens) {
    const std::vector<float> logits = {1000.0f, kNegInf, 1000.0f};
    const TokenLogprobs lp = token_logprobs(logits, 2);
    EXPECT_NEAR(lp.logprob, -std::log(2.0), 1e-12);
    EXPECT_EQ(token_logprobs(logits, 1).logprob, -std::numeric_limits<double>::infinity());
    EXPECT_EQ(lp.top.back().id, 1);
}

} // namespace
} // namespace octo
