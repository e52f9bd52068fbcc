// logit_bias: added first, forcing or banning tokens. Expected values are worked out by hand and
// written literally.
#include <gtest/gtest.h>

#include "engine/sampling/logit_bias.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

// logit_bias is added first: +100 forces a token past greedy's choice, -100 bans it.
TEST(SamplingLogitBias, ForcesAndBansTokens) {
    const std::vector<float> logits = {3.0f, 2.5f, -1.0f};
    EXPECT_EQ(make_chain({.logit_bias = {{2, 100.0f}}}).sample(logits), 2);
    EXPECT_EQ(make_chain({.logit_bias = {{0, -100.0f}}}).sample(logits), 1);
    EXPECT_EQ(make_chain({.logit_bias = {{9, 100.0f}}}).sample(logits), 0) << "an id past the row changes nothing";
    SamplerChain sampled = make_chain({.temperature = 1.0f, .seed = 3, .logit_bias = {{2, 100.0f}}});
    for (int i = 0; i < 20; ++i) EXPECT_EQ(sampled.sample(logits), 2);
    EXPECT_FALSE(validate_sampler_config({.logit_bias = {{-1, 1.0f}}}).ok());
    EXPECT_FALSE(validate_sampler_config({.frequency_penalty = std::numeric_limits<float>::infinity()}).ok());
}

} // namespace
} // namespace octo
