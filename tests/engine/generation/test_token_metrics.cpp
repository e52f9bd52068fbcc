// A token's metrics by name: every metric's name reads back as itself, unknown names are refused,
// and get() returns the field of the metric asked for.
#include <gtest/gtest.h>

#include <string>

#include "engine/generation/token_metrics.h"

namespace octo {
namespace {

TEST(TokenMetrics, NamesReadBack) {
    EXPECT_STREQ(metric_name(Metric::NormShare), "norm_share");
    EXPECT_STREQ(metric_name(Metric::Relative), "relative");
    EXPECT_STREQ(metric_name(Metric::Dla), "dla");
    EXPECT_STREQ(metric_name(Metric::Gates), "gates");
    EXPECT_STREQ(metric_name(Metric::Experts), "experts");
    for (Metric m : kAllMetrics) EXPECT_EQ(parse_metric(metric_name(m)), m);
    EXPECT_FALSE(parse_metric("norm-share"));
    EXPECT_FALSE(parse_metric(""));
}

TEST(TokenMetrics, GetReturnsTheMetricAskedFor) {
    TokenMetrics m;
    m.norm_share = SubsystemValues{1, 0, 0, 0, 0, 0, 0, 0};
    m.dla = SubsystemValues{0, 0, 3, 0, 0, 0, 0, 0};
    m.experts = SubsystemValues{0, 0, 0, 0, 0, 0, 0, 5};
    ASSERT_TRUE(m.get(Metric::NormShare));
    EXPECT_EQ((*m.get(Metric::NormShare))[0], 1.0f);
    ASSERT_TRUE(m.get(Metric::Dla));
    EXPECT_EQ((*m.get(Metric::Dla))[2], 3.0f);
    ASSERT_TRUE(m.get(Metric::Experts));
    EXPECT_EQ((*m.get(Metric::Experts))[7], 5.0f);
    EXPECT_FALSE(m.get(Metric::Relative)) << "not computed: absent, never zeros";
    EXPECT_FALSE(m.get(Metric::Gates));
}

} // namespace
} // namespace octo
