// The assembled chain: seeds replay, top-k 1 is greedy, top-p and temperature shape the draw.
// Expected values are worked out by hand and written literally.
// Covers: candidates.cpp
#include <gtest/gtest.h>

#include "engine/sampling/sampler_chain.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

TEST(SamplingChain, SameSeedSameTokensAndResetReplays) {
    const SamplerConfig config{.temperature = 1.0f, .seed = 42};
    SamplerChain a = make_chain(config);
    SamplerChain b = make_chain(config);
    std::vector<int32_t> first;
    for (int i = 0; i < 8; ++i) {
        const int32_t t = a.sample(kTenths);
        EXPECT_EQ(b.sample(kTenths), t);
        first.push_back(t);
    }
    EXPECT_EQ(first, (std::vector<int32_t>{3, 3, 2, 0, 0, 1, 1, 1})); // temperature 1 changes nothing
    a.reset();
    for (int32_t expected : first) EXPECT_EQ(a.sample(kTenths), expected);
}

TEST(SamplingChain, TopKOfOneIsGreedyAtAnyTemperature) {
    SamplerChain chain = make_chain({.temperature = 5.0f, .seed = 9, .top_k = 1});
    for (int i = 0; i < 20; ++i) EXPECT_EQ(chain.sample(kTenths), 3);
}

TEST(SamplingChain, TopPNarrowsTheDraw) {
    // top-p 0.5 keeps ids 3 and 2 only.
    SamplerChain chain = make_chain({.temperature = 1.0f, .seed = 3, .top_p = 0.5f});
    for (int i = 0; i < 50; ++i) {
        const int32_t t = chain.sample(kTenths);
        EXPECT_TRUE(t == 3 || t == 2) << t;
    }
}

TEST(SamplingChain, DrawFrequenciesFollowTheDistribution) {
    // p(0) = 1/4, p(1) = 3/4: over 4000 draws expect ~1000 zeros (sd ~27).
    SamplerChain chain = make_chain({.temperature = 1.0f, .seed = 1234});
    const std::vector<float> logits = {0.0f, std::log(3.0f)};
    int zeros = 0;
    for (int i = 0; i < 4000; ++i) zeros += chain.sample(logits) == 0 ? 1 : 0;
    EXPECT_GT(zeros, 880);
    EXPECT_LT(zeros, 1120);
}

TEST(SamplingChain, LowTemperatureConcentratesTheDraw) {
    // At t = 0.02 the runner-up (id 2) weighs (3/4)^50 ~ 5.7e-7 against 1 for id 3.
    SamplerChain chain = make_chain({.temperature = 0.02f, .seed = 5});
    for (int i = 0; i < 50; ++i) EXPECT_EQ(chain.sample(kTenths), 3);
}

} // namespace
} // namespace octo
