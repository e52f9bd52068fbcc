#include "engine/advisor/run_comparison.h"

#include <algorithm>
#include <cmath>
#include <iterator>

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

// Per layer, the mean overlap of the experts both runs chose at the positions with the same
// context: the prompt's (when as many in both) and the first `generated` generated ones (−1: a
// layer where neither chose any).
std::vector<double> routing_overlap(const ComparedRun& a, const ComparedRun& b, size_t generated) {
    if (a.n_layer <= 0 || a.n_layer != b.n_layer) return {};
    std::vector<std::pair<const std::vector<int32_t>*, const std::vector<int32_t>*>> pairs;
    if (a.prompt_experts.size() == b.prompt_experts.size()) {
        for (size_t i = 0; i < a.prompt_experts.size(); ++i) pairs.emplace_back(&a.prompt_experts[i], &b.prompt_experts[i]);
    }
    for (size_t i = 0; i < generated && i < a.experts.size() && i < b.experts.size(); ++i) pairs.emplace_back(&a.experts[i], &b.experts[i]);
    if (pairs.empty()) return {};
    const auto n_layer = static_cast<size_t>(a.n_layer);
    std::vector<double> sum(n_layer, 0.0);
    std::vector<size_t> counted(n_layer, 0);
    for (const auto& [pa, pb] : pairs) {
        const std::vector<int32_t>& ea = *pa;
        const std::vector<int32_t>& eb = *pb;
        if (ea.size() % n_layer != 0 || eb.size() % n_layer != 0) return {};
        const size_t used_a = ea.size() / n_layer, used_b = eb.size() / n_layer;
        for (size_t l = 0; l < n_layer; ++l) {
            std::vector<int32_t> sa, sb;
            for (size_t k = 0; k < used_a; ++k) if (ea[l * used_a + k] >= 0) sa.push_back(ea[l * used_a + k]);
            for (size_t k = 0; k < used_b; ++k) if (eb[l * used_b + k] >= 0) sb.push_back(eb[l * used_b + k]);
            if (sa.empty() && sb.empty()) continue;
            std::sort(sa.begin(), sa.end());
            std::sort(sb.begin(), sb.end());
            std::vector<int32_t> both, either;
            std::set_intersection(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(both));
            std::set_union(sa.begin(), sa.end(), sb.begin(), sb.end(), std::back_inserter(either));
            sum[l] += static_cast<double>(both.size()) / static_cast<double>(either.size());
            ++counted[l];
        }
    }
    std::vector<double> out(n_layer, -1.0);
    for (size_t l = 0; l < n_layer; ++l) {
        if (counted[l] > 0) out[l] = sum[l] / static_cast<double>(counted[l]);
    }
    return out;
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

    c.expert_overlap = routing_overlap(a, b, c.first_divergence ? *c.first_divergence : common);
    double overlap = 0.0;
    size_t layers = 0;
    for (const double v : c.expert_overlap) {
        if (v < 0.0) continue;
        overlap += v;
        ++layers;
    }
    if (layers > 0) c.mean_expert_overlap = overlap / static_cast<double>(layers);
    else c.expert_overlap.clear();
    return c;
}

ComparedRun compared_run(const GenerateResult& generation, const std::vector<TokenMetrics>& token_metrics,
                         Metric metric, int64_t n_layer) {
    ComparedRun run;
    bool all_shares = token_metrics.size() == generation.tokens.size();
    for (size_t i = 0; i < generation.tokens.size(); ++i) {
        const TokenEvent& e = generation.tokens[i];
        run.ids.push_back(e.id);
        run.logprobs.push_back(e.logprobs.logprob);
        if (!e.probe.head_norms.empty()) run.head_norms.push_back(e.probe.head_norms);
        if (n_layer > 0 && !e.probe.expert_ids.empty()) run.experts.push_back(e.probe.expert_ids);
        if (all_shares) {
            const auto& shares = token_metrics[i].get(metric);
            if (shares) run.shares.push_back(*shares);
            else all_shares = false;
        }
    }
    for (const TokenProbe& p : generation.prompt_probes) {
        if (n_layer > 0 && !p.expert_ids.empty()) run.prompt_experts.push_back(p.expert_ids);
    }
    if (!all_shares) run.shares.clear();
    if (run.head_norms.size() != run.ids.size()) run.head_norms.clear();
    if (run.experts.size() != run.ids.size()) run.experts.clear();
    if (run.prompt_experts.size() != generation.prompt_probes.size()) run.prompt_experts.clear();
    if (!run.experts.empty() || !run.prompt_experts.empty()) run.n_layer = n_layer;
    return run;
}

} // namespace octo
