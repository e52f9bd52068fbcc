// The consistency run's measurements: length spread against the 15% format threshold, numeric
// answers and their spread, the std of numeric tokens' log-probs against 0.8, shares per run.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/advisor/consistency.h"

namespace octo {
namespace {

SampledRun sample(std::vector<std::string> pieces, std::vector<double> logprobs) {
    return SampledRun{std::move(pieces), std::move(logprobs), std::nullopt};
}

TEST(Consistency, LastNumber) {
    EXPECT_EQ(last_number("The answer is 42."), std::optional<double>(42));
    EXPECT_EQ(last_number("from 3 to -12"), std::optional<double>(-12));
    EXPECT_EQ(last_number("about 1,200 people"), std::optional<double>(1200));
    EXPECT_EQ(last_number("增长率为 3.5%"), std::optional<double>(3.5));
    EXPECT_EQ(last_number("x-5"), std::optional<double>(-5));
    EXPECT_FALSE(last_number("no digits here, 没有数字").has_value());
    EXPECT_FALSE(last_number("").has_value());
}

TEST(Consistency, StableRunsRaiseNoFlags) {
    const std::vector<SampledRun> runs = {sample({"4", "2"}, {-0.1, -0.2}), sample({"4", "2"}, {-0.15, -0.1}),
                                          sample({"4", "2"}, {-0.1, -0.1})};
    const ConsistencyReport r = assess_consistency(runs);
    EXPECT_EQ(r.runs, 3u);
    EXPECT_DOUBLE_EQ(r.length_spread, 0.0);
    EXPECT_FALSE(r.format_unstable);
    EXPECT_EQ(r.distinct_numeric_answers, 1u);
    EXPECT_EQ(r.numeric_spread, std::optional<double>(0.0));
    EXPECT_EQ(r.numeric_tokens, 6u);
    EXPECT_LT(r.numeric_logprob_std, 0.1);
    EXPECT_FALSE(r.sampling_noise);
}

TEST(Consistency, LengthSpreadAboveFifteenPercentIsFormatInstability) {
    // lengths 10, 10, 12: spread 2 / 10.67 = 0.1875 > 0.15
    const std::vector<SampledRun> unstable = {sample(std::vector<std::string>(10, "a"), std::vector<double>(10, -1)),
                                              sample(std::vector<std::string>(10, "a"), std::vector<double>(10, -1)),
                                              sample(std::vector<std::string>(12, "a"), std::vector<double>(12, -1))};
    const ConsistencyReport r = assess_consistency(unstable);
    EXPECT_NEAR(r.length_spread, 2.0 / (32.0 / 3.0), 1e-12);
    EXPECT_TRUE(r.format_unstable);
    // lengths 20, 21: spread 1 / 20.5 < 0.15
    const std::vector<SampledRun> stable = {sample(std::vector<std::string>(20, "a"), std::vector<double>(20, -1)),
                                            sample(std::vector<std::string>(21, "a"), std::vector<double>(21, -1))};
    EXPECT_FALSE(assess_consistency(stable).format_unstable);
    EXPECT_FALSE(assess_consistency(stable).numeric_spread.has_value());
}

TEST(Consistency, NoisyNumericLogprobsFlagSamplingNoise) {
    // Numeric tokens' log-probs -0.1 and -2.5: population std 1.2 > 0.8. The word token is ignored.
    const std::vector<SampledRun> runs = {sample({"=", "12"}, {-5.0, -0.1}), sample({"=", "17"}, {-0.01, -2.5})};
    const ConsistencyReport r = assess_consistency(runs);
    EXPECT_EQ(r.numeric_tokens, 2u);
    EXPECT_NEAR(r.numeric_logprob_std, 1.2, 1e-12);
    EXPECT_TRUE(r.sampling_noise);
    EXPECT_EQ(r.distinct_numeric_answers, 2u);
    EXPECT_EQ(r.numeric_spread, std::optional<double>(5.0));
}

TEST(Consistency, SharesArePassedThroughPerRun) {
    SampledRun a = sample({"x"}, {-1});
    a.mean_shares = SubsystemValues{0.5f, 0.5f, 0, 0, 0, 0, 0, 0};
    const std::vector<SampledRun> runs = {a, sample({"y"}, {-1})};
    const ConsistencyReport r = assess_consistency(runs);
    ASSERT_EQ(r.shares.size(), 2u);
    ASSERT_TRUE(r.shares[0].has_value());
    EXPECT_FLOAT_EQ((*r.shares[0])[1], 0.5f);
    EXPECT_FALSE(r.shares[1].has_value());
}

} // namespace
} // namespace octo
