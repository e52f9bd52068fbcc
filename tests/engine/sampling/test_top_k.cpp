// Top-k: the k highest, sorted, ties by the lower id. Expected values are worked out by hand and
// written literally.
#include <gtest/gtest.h>

#include "engine/sampling/top_k.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

TEST(SamplingTopK, KeepsTheKHighestSortedWithTiesByLowerId) {
    CandidateList list = CandidateList::from_logits(std::vector<float>{1.0f, 5.0f, 3.0f, 5.0f, 4.0f});
    TopK(3).apply(list);
    EXPECT_EQ(ids_of(list), (std::vector<int32_t>{1, 3, 4}));

    CandidateList all = CandidateList::from_logits(std::vector<float>{1.0f, 5.0f});
    TopK(0).apply(all);
    EXPECT_EQ(ids_of(all), (std::vector<int32_t>{0, 1}));
}

} // namespace
} // namespace octo
