// Greedy choice: the highest logit, ties to the lowest id, never a NaN. Expected values are worked
// out by hand and written literally.
#include <gtest/gtest.h>

#include "engine/sampling/greedy.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

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

} // namespace
} // namespace octo
