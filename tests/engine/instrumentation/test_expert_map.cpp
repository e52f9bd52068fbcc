// Whether a calibrated map is earned: above both nulls by kMapMargin and above chance (1/8); a
// report without the token-identity null earns nothing.
#include <gtest/gtest.h>

#include "engine/instrumentation/expert_map.h"

namespace octo {
namespace {

TEST(ExpertMap, EarnedOnlyAboveBothNullsByTheMargin) {
    EXPECT_TRUE(map_earned(0.40, 0.20, 0.30));
    EXPECT_TRUE(map_earned(0.35, 0.20, 0.30)) << "exactly the margin above the larger null";
    EXPECT_FALSE(map_earned(0.34, 0.20, 0.30)) << "within the margin of the token-identity null";
    EXPECT_FALSE(map_earned(0.34, 0.30, 0.20)) << "within the margin of the shuffled-label null";
    EXPECT_FALSE(map_earned(0.12, 0.0, 0.0)) << "below chance, 1/8";
    EXPECT_FALSE(map_earned(0.90, 0.10, std::nullopt)) << "no token-identity null: recalibrate";
}

TEST(ExpertMap, SpecialisesAsItsSeparationsSay) {
    ExpertMap map{HeadMap::make_default(2, 8), 0.5, 0.1, std::nullopt};
    EXPECT_FALSE(map.specialises());
    map.token_null_separation = 0.2;
    EXPECT_TRUE(map.specialises());
    map.token_null_separation = 0.48;
    EXPECT_FALSE(map.specialises());
}

} // namespace
} // namespace octo
