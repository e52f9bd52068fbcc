#include "engine/advisor/run_comparison.h"

#include <algorithm>
#include <cmath>

namespace octo {

namespace {

double mean_of(const std::vector<double>& values) {
    if (values.empty()) return 0.0;
    double sum = 0.0;
    for (double v : values) sum += v;
    return sum / static_cast<double>(values.size());
}

std::optional<SubsystemValues> mean_shares(const ComparedRun& run) {
    if (run.shares.empty()) return std::nullopt;
    SubsystemValues mean = {};
    for (const SubsystemValues& s : run.shares) {
        for (size_t k = 0; k < mean.size(); ++k) mean[k] += s[k];
    }
    for (float& v : mean) v /= static_cast<float>(run.shares.size());
    return mean;
}

// Mean over tokens of each head's norm; empty when unmeasured or the tokens disagree in shape.
std::vector<float> mean_head_norms(const ComparedRun& run) {
    if (run.head_norms.empty() || run.head_norms.front().empty()) return {};
    const size_t n = run.head_norms.front().size();
    std::vector<double> sum(n, 0.0);
    for (const std::vector<float>& norms : run.head_norms) {
        if (norms.size() != n) return {};
        for (size_t i = 0; i < n; ++i) sum[i] += norms[i];
    }
    std::vector<float> mean(n);
    for (size_t i = 0; i < n; ++i) mean[i] = static_cast<float>(sum[i] / static_cast<double>(run.head_norms.size()));
    return mean;
}

} // namespace

RunComparison compare_runs(const ComparedRun& a, const ComparedRun& b) {
    RunComparison c;
    const size_t common = std::min(a.ids.size(), b.ids.size());
    for (size_t i = 0; i < common && !c.first_divergence; ++i) {
        if (a.ids[i] != b.ids[i]) c.first_divergence = i;
    }
    if (!c.first_divergence && a.ids.size() != b.ids.size()) c.first_divergence = common;

    const size_t scored = std::min({common, a.logprobs.size(), b.logprobs.size()});
    c.logprob_delta.resize(scored);
    for (size_t i = 0; i < scored; ++i) c.logprob_delta[i] = b.logprobs[i] - a.logprobs[i];
    c.mean_logprob_a = mean_of(a.logprobs);
    c.mean_logprob_b = mean_of(b.logprobs);

    c.mean_shares_a = mean_shares(a);
    c.mean_shares_b = mean_shares(b);
    if (c.mean_shares_a && c.mean_shares_b) {
        SubsystemValues delta = {};
        for (size_t k = 0; k < delta.size(); ++k) delta[k] = (*c.mean_shares_b)[k] - (*c.mean_shares_a)[k];
        c.share_delta = delta;
    }

    const std::vector<float> heads_a = mean_head_norms(a);
    const std::vector<float> heads_b = mean_head_norms(b);
    if (!heads_a.empty() && heads_a.size() == heads_b.size()) {
        c.head_delta.resize(heads_a.size());
        for (size_t i = 0; i < heads_a.size(); ++i) c.head_delta[i] = heads_b[i] - heads_a[i];
        const auto largest = std::max_element(c.head_delta.begin(), c.head_delta.end(),
                                              [](float x, float y) { return std::fabs(x) < std::fabs(y); });
        c.largest_head_change = static_cast<size_t>(largest - c.head_delta.begin());
    }
    return c;
}

ComparedRun compared_run(const GenerateResult& generation, const std::vector<TokenMetrics>& token_metrics,
                         Metric metric) {
    ComparedRun run;
    bool all_shares = token_metrics.size() == generation.tokens.size();
    for (size_t i = 0; i < generation.tokens.size(); ++i) {
        const TokenEvent& e = generation.tokens[i];
        run.ids.push_back(e.id);
        run.logprobs.push_back(e.logprobs.logprob);
        if (!e.probe.head_norms.empty()) run.head_norms.push_back(e.probe.head_norms);
        if (all_shares) {
            const auto& shares = token_metrics[i].get(metric);
            if (shares) run.shares.push_back(*shares);
            else all_shares = false;
        }
    }
    if (!all_shares) run.shares.clear();
    if (run.head_norms.size() != run.ids.size()) run.head_norms.clear();
    return run;
}

} // namespace octo
