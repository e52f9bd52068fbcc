// The PRNG: expected values from an independent implementation of the published algorithms, written
// literally.
#include <gtest/gtest.h>

#include "engine/sampling/prng.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

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

} // namespace
} // namespace octo
