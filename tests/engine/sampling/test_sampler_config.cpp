// The sampler settings' validation: defaults, and every out-of-range value refused. Expected values
// are worked out by hand and written literally.
#include <gtest/gtest.h>

#include "engine/sampling/sampler_config.h"
#include "tests/engine/sampling/sampling_helpers.h"

namespace octo {
namespace {

using namespace sampling_test;

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

} // namespace
} // namespace octo
