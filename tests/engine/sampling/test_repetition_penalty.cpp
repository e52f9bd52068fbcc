// The repetition, frequency and presence penalties over the last N tokens, alone and in a chain.
// Expected values are worked out by hand and written literally.
#include <gtest/gtest.h>

#include "engine/sampling/repetition_penalty.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

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

TEST(SamplingRepetitionPenalty, ChangesTheGreedyChoiceInAChain) {
    SamplerChain chain = make_chain({.repeat_penalty = 2.0f, .repeat_last_n = 8});
    const std::vector<float> logits = {3.0f, 2.5f};
    EXPECT_EQ(chain.sample(logits), 0);
    chain.accept(0);                    // 3 / 2 = 1.5 < 2.5
    EXPECT_EQ(chain.sample(logits), 1);
    chain.reset();
    EXPECT_EQ(chain.sample(logits), 0);
}

} // namespace
} // namespace octo
