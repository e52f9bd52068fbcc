// Top-p: the shortest prefix reaching p. Expected values are worked out by hand and written
// literally.
#include <gtest/gtest.h>

#include "engine/sampling/top_p.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

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

} // namespace
} // namespace octo
