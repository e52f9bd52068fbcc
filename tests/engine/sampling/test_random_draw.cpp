// The random draw's documented walk over the candidates. Expected values are worked out by hand and
// written literally.
#include <gtest/gtest.h>

#include "engine/sampling/random_draw.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

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

} // namespace
} // namespace octo
