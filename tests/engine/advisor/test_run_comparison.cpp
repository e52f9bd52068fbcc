// A/B comparison arithmetic: first divergence (token differs, one run shorter, identical),
// log-prob deltas, share and head-norm differences.
#include <gtest/gtest.h>

#include "engine/advisor/run_comparison.h"

namespace octo {
namespace {

SubsystemValues share_on(int k, float v) {
    SubsystemValues s = {};
    s[static_cast<size_t>(k)] = v;
    return s;
}

TEST(RunComparison, IdenticalRunsDoNotDiverge) {
    ComparedRun a{{5, 6, 7}, {-0.5, -1.0, -0.25}, {}, {}, {}, {}, 0};
    const RunComparison c = compare_runs(a, a);
    EXPECT_FALSE(c.first_divergence.has_value());
    ASSERT_EQ(c.logprob_delta.size(), 3u);
    for (double d : c.logprob_delta) EXPECT_EQ(d, 0.0);
    EXPECT_FALSE(c.share_delta.has_value());
    EXPECT_TRUE(c.head_delta.empty());
}

TEST(RunComparison, FirstDifferingTokenAndDeltas) {
    ComparedRun a{{5, 6, 7, 8}, {-0.5, -1.0, -0.25, -2.0}, {}, {}, {}, {}, 0};
    ComparedRun b{{5, 6, 9}, {-0.25, -1.5, -3.0}, {}, {}, {}, {}, 0};
    const RunComparison c = compare_runs(a, b);
    ASSERT_TRUE(c.first_divergence.has_value());
    EXPECT_EQ(*c.first_divergence, 2u);
    ASSERT_EQ(c.logprob_delta.size(), 3u);
    EXPECT_DOUBLE_EQ(c.logprob_delta[0], 0.25);
    EXPECT_DOUBLE_EQ(c.logprob_delta[1], -0.5);
    EXPECT_DOUBLE_EQ(c.logprob_delta[2], -2.75);
    EXPECT_DOUBLE_EQ(c.mean_logprob_a, -3.75 / 4);
    EXPECT_DOUBLE_EQ(c.mean_logprob_b, -4.75 / 3);
}

TEST(RunComparison, ShorterRunDivergesWhereItStops) {
    ComparedRun a{{5, 6, 7}, {-1, -1, -1}, {}, {}, {}, {}, 0};
    ComparedRun b{{5, 6}, {-1, -1}, {}, {}, {}, {}, 0};
    EXPECT_EQ(compare_runs(a, b).first_divergence, std::optional<size_t>(2));
    EXPECT_EQ(compare_runs(b, a).first_divergence, std::optional<size_t>(2));
}

TEST(RunComparison, ShareAndHeadDifferences) {
    ComparedRun a{{1, 2}, {-1, -1}, {share_on(0, 1.0f), share_on(0, 0.5f)}, {{1, 2, 3, 4}, {3, 2, 1, 0}}, {}, {}, 0};
    ComparedRun b{{1, 2}, {-1, -1}, {share_on(2, 1.0f), share_on(0, 0.5f)}, {{1, 2, 3, 4}, {3, 2, 7, 0}}, {}, {}, 0};
    const RunComparison c = compare_runs(a, b);
    ASSERT_TRUE(c.share_delta.has_value());
    EXPECT_FLOAT_EQ((*c.mean_shares_a)[0], 0.75f);
    EXPECT_FLOAT_EQ((*c.share_delta)[0], -0.5f);
    EXPECT_FLOAT_EQ((*c.share_delta)[2], 0.5f);
    ASSERT_EQ(c.head_delta.size(), 4u);
    EXPECT_FLOAT_EQ(c.head_delta[2], 3.0f);
    EXPECT_FLOAT_EQ(c.head_delta[0], 0.0f);
    EXPECT_EQ(c.largest_head_change, std::optional<size_t>(2));
}

TEST(RunComparison, HeadShapesThatDisagreeAreNotCompared) {
    ComparedRun a{{1}, {-1}, {}, {{1, 2, 3, 4}}, {}, {}, 0};
    ComparedRun b{{1}, {-1}, {}, {{1, 2}}, {}, {}, 0};
    const RunComparison c = compare_runs(a, b);
    EXPECT_TRUE(c.head_delta.empty());
    EXPECT_FALSE(c.largest_head_change.has_value());
}

TEST(RunComparison, FromAGenerationResult) {
    GenerateResult g;
    TokenEvent e1;
    e1.id = 3;
    e1.logprobs.logprob = -0.5;
    e1.probe.head_norms = {1.0f, 2.0f};
    TokenEvent e2 = e1;
    e2.id = 4;
    g.tokens = {e1, e2};
    std::vector<TokenMetrics> metrics(2);
    metrics[0].gates = share_on(1, 1.0f);
    metrics[1].gates = share_on(1, 0.5f);
    const ComparedRun run = compared_run(g, metrics, Metric::Gates);
    EXPECT_EQ(run.ids, (std::vector<int32_t>{3, 4}));
    ASSERT_EQ(run.shares.size(), 2u);
    EXPECT_FLOAT_EQ(run.shares[1][1], 0.5f);
    EXPECT_EQ(run.head_norms.size(), 2u);
    // A metric that was not computed gives no shares rather than zeros.
    EXPECT_TRUE(compared_run(g, metrics, Metric::Dla).shares.empty());
}

// Expert routing: per layer the overlap |A ∩ B| / |A ∪ B| of the experts chosen at the same
// position, averaged over the positions before the answers part; a dense layer (−1) is left out.
TEST(RunComparison, ExpertRoutingOverlapBeforeTheAnswersPart) {
    // 2 layers, 2 experts a position; layer 0 dense (−1); the runs part at position 2.
    ComparedRun a{{5, 6, 7}, {-1, -1, -1}, {}, {}, {}, {{-1, -1, 1, 2}, {-1, -1, 3, 4}, {-1, -1, 0, 1}}, 2};
    ComparedRun b{{5, 6, 9}, {-1, -1, -1}, {}, {}, {}, {{-1, -1, 2, 1}, {-1, -1, 4, 5}, {-1, -1, 6, 7}}, 2};
    const RunComparison c = compare_runs(a, b);
    ASSERT_EQ(c.first_divergence, std::optional<size_t>(2));
    ASSERT_EQ(c.expert_overlap.size(), 2u);
    EXPECT_EQ(c.expert_overlap[0], -1.0);                      // dense
    EXPECT_DOUBLE_EQ(c.expert_overlap[1], (1.0 + 1.0 / 3.0) / 2.0); // {1,2} vs {2,1}: 1; {3,4} vs {4,5}: 1/3
    ASSERT_TRUE(c.mean_expert_overlap);
    EXPECT_DOUBLE_EQ(*c.mean_expert_overlap, c.expert_overlap[1]);
    // Without routing on one side, or another layer count: none.
    ComparedRun dense = b;
    dense.experts.clear();
    dense.n_layer = 0;
    EXPECT_TRUE(compare_runs(a, dense).expert_overlap.empty());
    EXPECT_FALSE(compare_runs(a, dense).mean_expert_overlap);
    ComparedRun other = b;
    other.n_layer = 4;
    EXPECT_FALSE(compare_runs(a, other).mean_expert_overlap);
    // The prompt's positions count too (the same context): one more with overlap 0.
    ComparedRun pa = a, pb = b;
    pa.prompt_experts = {{-1, -1, 0, 1}};
    pb.prompt_experts = {{-1, -1, 2, 3}};
    EXPECT_DOUBLE_EQ(compare_runs(pa, pb).expert_overlap[1], (1.0 + 1.0 / 3.0 + 0.0) / 3.0);
    // Prompts of another length (two vocabularies): only the generated positions.
    pb.prompt_experts.push_back({-1, -1, 2, 3});
    EXPECT_DOUBLE_EQ(compare_runs(pa, pb).expert_overlap[1], (1.0 + 1.0 / 3.0) / 2.0);
}

} // namespace
} // namespace octo
