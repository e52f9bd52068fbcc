// Sampler stages, chain assembly, the PRNG and log-probabilities. Expected values are
// worked out by hand (or, for the PRNG, from an independent implementation of the
// published algorithms) and written literally.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "engine/sampling/candidates.h"
#include "engine/sampling/greedy.h"
#include "engine/sampling/logprobs.h"
#include "engine/sampling/prng.h"
#include "engine/sampling/random_draw.h"
#include "engine/sampling/repetition_penalty.h"
#include "engine/sampling/sampler_chain.h"
#include "engine/sampling/temperature.h"
#include "engine/sampling/top_k.h"
#include "engine/sampling/top_p.h"

namespace octo {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

std::vector<int32_t> ids_of(const CandidateList& list) {
    std::vector<int32_t> ids;
    for (const TokenCandidate& c : list.items) ids.push_back(c.id);
    return ids;
}

std::vector<float> logits_of(const CandidateList& list) {
    std::vector<float> logits;
    for (const TokenCandidate& c : list.items) logits.push_back(c.logit);
    return logits;
}

SamplerChain make_chain(const SamplerConfig& config) {
    Result<SamplerChain> chain = SamplerChain::create(config);
    EXPECT_TRUE(chain.ok()) << (chain.ok() ? "" : chain.error().message);
    return std::move(chain).value();
}

// Logits whose softmax is (1, 2, 3, 4) / 10 for ids 0..3.
const std::vector<float> kTenths = {std::log(1.0f), std::log(2.0f), std::log(3.0f), std::log(4.0f)};

TEST(SamplingConfig, DefaultsAreValidAndGreedy) {
    const SamplerConfig config;
    EXPECT_EQ(config.temperature, 0.0f);
    EXPECT_EQ(config.seed, 0u);
    EXPECT_TRUE(validate_sampler_config(config).ok());
}

TEST(SamplingConfig, RejectsOutOfRangeValues) {
    auto rejected = [](SamplerConfig config) {
        const Status s = validate_sampler_config(config);
        return !s.ok() && s.error().code == ErrorCode::InvalidArgument;
    };
    EXPECT_TRUE(rejected({.temperature = -0.5f}));
    EXPECT_TRUE(rejected({.temperature = std::numeric_limits<float>::quiet_NaN()}));
    EXPECT_TRUE(rejected({.top_k = -1}));
    EXPECT_TRUE(rejected({.top_p = 0.0f}));
    EXPECT_TRUE(rejected({.top_p = 1.5f}));
    EXPECT_TRUE(rejected({.repeat_penalty = 0.0f}));
    EXPECT_TRUE(rejected({.repeat_last_n = -1}));
    EXPECT_FALSE(SamplerChain::create({.top_p = 2.0f}).ok());
}

TEST(SamplingGreedy, PicksArgmaxWithTiesToLowestId) {
    CandidateList list = CandidateList::from_logits(std::vector<float>{1.0f, 3.0f, 0.5f, 3.0f});
    Greedy().apply(list);
    EXPECT_EQ(list.selected, 1);

    SamplerChain chain = make_chain({});
    EXPECT_EQ(chain.sample(std::vector<float>{-2.0f, -1.0f, -1.0f, -3.0f}), 1);
    EXPECT_EQ(chain.sample(std::vector<float>{0.0f, 0.0f, 0.0f}), 0);
}

TEST(SamplingGreedy, NanLogitIsNeverChosen) {
    SamplerChain chain = make_chain({});
    EXPECT_EQ(chain.sample(std::vector<float>{std::numeric_limits<float>::quiet_NaN(), -5.0f}), 1);
}

TEST(SamplingRepetitionPenalty, DividesPositiveAndMultipliesNegativeLogits) {
    RepetitionPenalty penalty(2.0f, 64);
    penalty.accept(0);
    penalty.accept(1);
    penalty.accept(0); // counted once, like llama.cpp's repeat penalty
    CandidateList list = CandidateList::from_logits(std::vector<float>{3.0f, -1.5f, 1.0f, 0.0f});
    penalty.apply(list);
    EXPECT_EQ(logits_of(list), (std::vector<float>{1.5f, -3.0f, 1.0f, 0.0f}));
}

TEST(SamplingRepetitionPenalty, OnlyLooksAtTheLastNTokens) {
    RepetitionPenalty penalty(4.0f, 2);
    for (int32_t t : {0, 1, 2}) penalty.accept(t); // 0 has left the window
    CandidateList list = CandidateList::from_logits(std::vector<float>{8.0f, 8.0f, -2.0f});
    penalty.apply(list);
    EXPECT_EQ(logits_of(list), (std::vector<float>{8.0f, 2.0f, -8.0f}));

    penalty.reset();
    CandidateList fresh = CandidateList::from_logits(std::vector<float>{8.0f, 8.0f, -2.0f});
    penalty.apply(fresh);
    EXPECT_EQ(logits_of(fresh), (std::vector<float>{8.0f, 8.0f, -2.0f}));
}

// OpenAI's frequency and presence penalties, as llama.cpp applies them in the same stage: a
// token seen `count` times in the window loses count × frequency + presence.
TEST(SamplingRepetitionPenalty, FrequencyAndPresenceSubtractByCount) {
    RepetitionPenalty penalty(1.0f, 64, 0.5f, 0.25f);
    for (int32_t t : {0, 0, 0, 1}) penalty.accept(t);
    CandidateList list = CandidateList::from_logits(std::vector<float>{3.0f, -1.0f, 1.0f});
    penalty.apply(list);
    EXPECT_EQ(logits_of(list), (std::vector<float>{3.0f - 1.5f - 0.25f, -1.0f - 0.5f - 0.25f, 1.0f}));
    // The window forgets: after 64 other tokens nothing is left to penalise.
    for (int i = 0; i < 64; ++i) penalty.accept(2);
    CandidateList later = CandidateList::from_logits(std::vector<float>{3.0f, -1.0f, 1.0f});
    penalty.apply(later);
    EXPECT_EQ(logits_of(later), (std::vector<float>{3.0f, -1.0f, 1.0f - 64 * 0.5f - 0.25f}));
    // Negative penalties encourage.
    SamplerChain chain = make_chain({.frequency_penalty = -2.0f});
    const std::vector<float> logits = {3.0f, 2.5f};
    chain.accept(1);
    EXPECT_EQ(chain.sample(logits), 1) << "2.5 + 2 > 3";
}

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

TEST(SamplingRepetitionPenalty, ChangesTheGreedyChoiceInAChain) {
    SamplerChain chain = make_chain({.repeat_penalty = 2.0f, .repeat_last_n = 8});
    const std::vector<float> logits = {3.0f, 2.5f};
    EXPECT_EQ(chain.sample(logits), 0);
    chain.accept(0);                    // 3 / 2 = 1.5 < 2.5
    EXPECT_EQ(chain.sample(logits), 1);
    chain.reset();
    EXPECT_EQ(chain.sample(logits), 0);
}

TEST(SamplingTemperature, DividesLogits) {
    CandidateList list = CandidateList::from_logits(std::vector<float>{1.0f, -3.0f, 0.25f});
    Temperature(0.5f).apply(list);
    EXPECT_EQ(logits_of(list), (std::vector<float>{2.0f, -6.0f, 0.5f}));
}

TEST(SamplingTopK, KeepsTheKHighestSortedWithTiesByLowerId) {
    CandidateList list = CandidateList::from_logits(std::vector<float>{1.0f, 5.0f, 3.0f, 5.0f, 4.0f});
    TopK(3).apply(list);
    EXPECT_EQ(ids_of(list), (std::vector<int32_t>{1, 3, 4}));

    CandidateList all = CandidateList::from_logits(std::vector<float>{1.0f, 5.0f});
    TopK(0).apply(all);
    EXPECT_EQ(ids_of(all), (std::vector<int32_t>{0, 1}));
}

TEST(SamplingTopP, KeepsTheShortestPrefixReachingP) {
    // Probabilities 0.4 (id 3), 0.3 (id 2), 0.2 (id 1), 0.1 (id 0); cumulative 0.4, 0.7, 0.9, 1.0.
    auto kept = [](float p) {
        CandidateList list = CandidateList::from_logits(kTenths);
        TopP(p).apply(list);
        return ids_of(list);
    };
    EXPECT_EQ(kept(0.2f), (std::vector<int32_t>{3}));
    EXPECT_EQ(kept(0.5f), (std::vector<int32_t>{3, 2}));
    EXPECT_EQ(kept(0.69f), (std::vector<int32_t>{3, 2}));
    EXPECT_EQ(kept(0.8f), (std::vector<int32_t>{3, 2, 1}));
    EXPECT_EQ(kept(0.95f), (std::vector<int32_t>{3, 2, 1, 0}));
    EXPECT_EQ(kept(1.0f).size(), 4u);
}

TEST(SamplingPrng, MatchesPublishedAlgorithms) {
    uint64_t state = 0;
    EXPECT_EQ(splitmix64_next(state), 0xE220A8397B1DCDAFull); // splitmix64's known first output
    EXPECT_EQ(state, 0x9E3779B97F4A7C15ull);

    Xoshiro256 rng(0);
    EXPECT_EQ(rng.next(), 0x99EC5F36CB75F2B4ull);
    EXPECT_EQ(rng.next(), 0xBF6E1F784956452Aull);
    EXPECT_EQ(rng.next(), 0x1A5F849D4933E6E0ull);

    Xoshiro256 unit(42);
    EXPECT_DOUBLE_EQ(unit.next_unit(), 0.08386297105988216);
    EXPECT_DOUBLE_EQ(unit.next_unit(), 0.3789802506626686);
}

TEST(SamplingRandomDraw, FollowsTheDocumentedWalk) {
    // Seed 42 gives u = 0.0839, 0.3790, 0.6800, 0.9247, 0.9918, 0.7697, 0.7193, 0.8500.
    // Canonical order is ids 3, 2, 1, 0 with cumulative weights 0.4, 0.7, 0.9, 1.0.
    RandomDraw draw(42);
    std::vector<int32_t> picks;
    for (int i = 0; i < 8; ++i) {
        CandidateList list = CandidateList::from_logits(kTenths);
        draw.apply(list);
        picks.push_back(list.selected);
    }
    EXPECT_EQ(picks, (std::vector<int32_t>{3, 3, 2, 0, 0, 1, 1, 1}));
}

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
