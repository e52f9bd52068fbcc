// Temperature: logits divided. Expected values are worked out by hand and written literally.
#include <gtest/gtest.h>

#include "engine/sampling/temperature.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

TEST(SamplingTemperature, DividesLogits) {
    CandidateList list = CandidateList::from_logits(std::vector<float>{1.0f, -3.0f, 0.25f});
    Temperature(0.5f).apply(list);
    EXPECT_EQ(logits_of(list), (std::vector<float>{2.0f, -6.0f, 0.5f}));
}

} // namespace
} // namespace octo
