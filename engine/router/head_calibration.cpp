#include "engine/router/head_calibration.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include <nlohmann/json.hpp>

#include "engine/generation/prompt_builder.h"
#include "engine/inference/session.h"
#include "engine/instrumentation/expert_routing.h"
#include "engine/router/balanced_assignment.h"
#include "engine/sampling/prng.h"

namespace octo {

namespace {

// Per head: mean profile over each subsystem's probes, [n_heads][8], and its mean and standard
// deviation across the eight subsystems (subsystems without probes are left out).
struct HeadStats {
    std::vector<double> means; // [n_heads][8]
    std::vector<double> mu;    // [n_heads]
    std::vector<double> sigma; // [n_heads]
};

HeadStats head_stats(std::span<const std::vector<float>> profiles, std::span<const int> labels, size_t n_heads) {
    HeadStats st;
    st.means.assign(n_heads * kSubsystemCount, 0.0);
    std::array<int64_t, kSubsystemCount> count{};
    for (size_t i = 0; i < profiles.size(); ++i) {
        const auto s = static_cast<size_t>(labels[i]);
        count[s] += 1;
        for (size_t j = 0; j < n_heads; ++j) st.means[j * kSubsystemCount + s] += profiles[i][j];
    }
    st.mu.assign(n_heads, 0.0);
    st.sigma.assign(n_heads, 0.0);
    int present = 0;
    for (int64_t c : count) present += c > 0 ? 1 : 0;
    for (size_t j = 0; j < n_heads; ++j) {
        double sum = 0.0, sq = 0.0;
        for (size_t s = 0; s < kSubsystemCount; ++s) {
            if (count[s] == 0) continue;
            double& m = st.means[j * kSubsystemCount + s];
            m /= static_cast<double>(count[s]);
            sum += m;
            sq += m * m;
        }
        st.mu[j] = present ? sum / present : 0.0;
        st.sigma[j] = present ? std::sqrt(std::max(0.0, sq / present - st.mu[j] * st.mu[j])) : 0.0;
    }
    return st;
}

} // namespace

Result<std::vector<std::vector<float>>> head_profiles(const Model& model, Backend& backend, const Tokenizer& tokenizer,
                                                      std::span<const Probe> probes, const CalibrationOptions& options,
                                                      size_t progress_offset, size_t progress_total) {
    const bool experts = options.unit == CalibrationUnit::Experts;
    SessionOptions o;
    o.instrument.head_norms = !experts;
    o.cancel = options.cancel;
    o.precision = options.precision;
    auto session = Session::create(model, backend, o);
    if (!session) return session.error();
    Session& s = *session.value();
    const ModelParams& p = model.params();
    const auto n_heads = static_cast<size_t>(p.n_layer * (experts ? p.n_expert : p.n_head));
    std::vector<std::vector<float>> out;
    for (size_t i = 0; i < probes.size(); ++i) {
        PromptSpec spec;
        spec.prompt = probes[i].text;
        auto prompt = build_prompt(model.file(), tokenizer, spec);
        if (!prompt) { // text this vocabulary cannot encode: no profile (skipped by the caller)
            out.emplace_back();
            if (options.progress) options.progress(progress_offset + i + 1, progress_total ? progress_total : probes.size());
            continue;
        }
        std::vector<int32_t> ids = prompt->ids;
        if (static_cast<int64_t>(ids.size()) > s.n_ctx()) ids.resize(static_cast<size_t>(s.n_ctx()));
        const int64_t reused = s.start(ids);
        auto logits = s.eval(std::span<const int32_t>(ids).subspan(static_cast<size_t>(reused)));
        if (!logits) return logits.error();
        std::vector<TokenProbe> probes_all(s.reused_probes().begin(), s.reused_probes().end());
        probes_all.insert(probes_all.end(), s.probes().begin(), s.probes().end());
        std::vector<double> sum(n_heads, 0.0);
        const size_t first = probes_all.size() > 1 ? 1 : 0; // without BOS
        for (size_t t = first; t < probes_all.size(); ++t) {
            const TokenProbe& probe = probes_all[t];
            if (!experts) {
                for (size_t j = 0; j < n_heads; ++j) sum[j] += probe.head_norms[j];
                continue;
            }
            for (int64_t l = 0; l < p.n_layer; ++l) { // the chosen ones' weights, 0 for the others
                for (const ExpertChoice& c : chosen_experts(probe, l, p.n_layer)) {
                    sum[static_cast<size_t>(l * p.n_expert + c.id)] += c.weight;
                }
            }
        }
        std::vector<float> profile(n_heads);
        const auto n = static_cast<double>(probes_all.size() - first);
        for (size_t j = 0; j < n_heads; ++j) profile[j] = static_cast<float>(sum[j] / n);
        out.push_back(std::move(profile));
        if (options.progress) options.progress(progress_offset + i + 1, progress_total ? progress_total : probes.size());
    }
    return out;
}

std::vector<std::vector<float>> token_identity_profiles(const Model& model, const Tokenizer& tokenizer,
                                                        std::span<const Probe> probes, int64_t n_units, int64_t chosen,
                                                        uint64_t seed) {
    const int64_t n_layer = model.params().n_layer;
    const auto units = static_cast<size_t>(n_units);
    const auto k = static_cast<size_t>(std::clamp<int64_t>(chosen, 1, n_units));
    std::vector<std::vector<float>> out;
    std::vector<std::pair<double, size_t>> scores(units);
    for (const Probe& probe : probes) {
        PromptSpec spec;
        spec.prompt = probe.text;
        auto prompt = build_prompt(model.file(), tokenizer, spec);
        if (!prompt) {
            out.emplace_back();
            continue;
        }
        const std::vector<int32_t>& ids = prompt->ids;
        std::vector<double> sum(static_cast<size_t>(n_layer) * units, 0.0);
        const size_t first = ids.size() > 1 ? 1 : 0;
        for (size_t t = first; t < ids.size(); ++t) {
            for (int64_t l = 0; l < n_layer; ++l) {
                for (size_t u = 0; u < units; ++u) {
                    uint64_t state = seed ^ (static_cast<uint64_t>(static_cast<uint32_t>(ids[t])) * 0x9E3779B97F4A7C15ull) ^
                                     (static_cast<uint64_t>(l) << 40) ^ (static_cast<uint64_t>(u) << 20);
                    scores[u] = {static_cast<double>(splitmix64_next(state) >> 11) * 0x1.0p-53, u};
                }
                const size_t base = static_cast<size_t>(l) * units;
                if (k >= units) {
                    for (size_t u = 0; u < units; ++u) sum[base + u] += scores[u].first;
                    continue;
                }
                std::partial_sort(scores.begin(), scores.begin() + static_cast<std::ptrdiff_t>(k), scores.end(),
                                  [](const auto& a, const auto& b) { return a.first > b.first; });
                for (size_t c = 0; c < k; ++c) sum[base + scores[c].second] += 1.0 / static_cast<double>(k);
            }
        }
        std::vector<float> profile(sum.size());
        const double n = static_cast<double>(std::max<size_t>(1, ids.size() - first));
        for (size_t j = 0; j < sum.size(); ++j) profile[j] = static_cast<float>(sum[j] / n);
        out.push_back(std::move(profile));
    }
    return out;
}

HeadMap assign_from_profiles(std::span<const std::vector<float>> profiles, std::span<const int> labels, int64_t n_layer,
                             int64_t n_head) {
    const auto n_heads = static_cast<size_t>(n_layer * n_head);
    const HeadStats st = head_stats(profiles, labels, n_heads);
    nlohmann::json layers = nlohmann::json::array();
    for (int64_t l = 0; l < n_layer; ++l) {
        std::vector<double> affinity(static_cast<size_t>(n_head * kSubsystemCount)); // z-scores [n_head][8]
        for (int64_t h = 0; h < n_head; ++h) {
            const auto j = static_cast<size_t>(l * n_head + h);
            for (size_t s = 0; s < kSubsystemCount; ++s) {
                affinity[static_cast<size_t>(h) * kSubsystemCount + s] =
                    st.sigma[j] > 0 ? (st.means[j * kSubsystemCount + s] - st.mu[j]) / st.sigma[j] : 0.0;
            }
        }
        const std::vector<int> assigned = assign_heads_balanced(affinity, n_head);
        nlohmann::json ids = nlohmann::json::array();
        for (int s : assigned) ids.push_back(subsystem_id(s));
        layers.push_back(ids);
    }
    return HeadMap::from_json({{"version", 1}, {"layers", layers}}, n_layer, n_head, HeadMapSource::Calibrated).value();
}

double separation_score(const HeadMap& map, std::span<const std::vector<float>> train_profiles,
                        std::span<const int> train_labels, std::span<const std::vector<float>> dev_profiles,
                        std::span<const int> dev_labels) {
    if (dev_profiles.empty()) return 0.0;
    const auto n_heads = static_cast<size_t>(map.n_layer() * map.n_head());
    const HeadStats st = head_stats(train_profiles, train_labels, n_heads);
    int64_t hits = 0;
    for (size_t i = 0; i < dev_profiles.size(); ++i) {
        std::array<double, kSubsystemCount> sum{};
        std::array<int64_t, kSubsystemCount> heads{};
        for (int64_t l = 0; l < map.n_layer(); ++l) {
            for (int64_t h = 0; h < map.n_head(); ++h) {
                const auto j = static_cast<size_t>(l * map.n_head() + h);
                const auto s = static_cast<size_t>(map.subsystem_of(l, h));
                sum[s] += st.sigma[j] > 0 ? (dev_profiles[i][j] - st.mu[j]) / st.sigma[j] : 0.0;
                heads[s] += 1;
            }
        }
        int best = -1;
        double best_value = -1e300;
        for (int s = 0; s < kSubsystemCount; ++s) {
            if (heads[static_cast<size_t>(s)] == 0) continue;
            const double mean = sum[static_cast<size_t>(s)] / static_cast<double>(heads[static_cast<size_t>(s)]);
            if (mean > best_value) {
                best_value = mean;
                best = s;
            }
        }
        hits += best == dev_labels[i] ? 1 : 0;
    }
    return static_cast<double>(hits) / static_cast<double>(dev_profiles.size());
}

Result<CalibrationResult> calibrate_head_map(const Model& model, Backend& backend, const Tokenizer& tokenizer,
                                             std::span<const Probe> train, std::span<const Probe> dev,
                                             const CalibrationOptions& options) {
    if (train.empty() || dev.empty()) return make_error(ErrorCode::InvalidArgument, "calibration needs train and dev probes");
    const bool experts = options.unit == CalibrationUnit::Experts;
    if (experts && model.params().n_expert == 0) {
        return make_error(ErrorCode::InvalidArgument, "the model has no experts to calibrate (it is not a mixture of experts)");
    }
    const size_t total = train.size() + dev.size();
    auto train_profiles = head_profiles(model, backend, tokenizer, train, options, 0, total);
    if (!train_profiles) return train_profiles.error();
    auto dev_profiles = head_profiles(model, backend, tokenizer, dev, options, train.size(), total);
    if (!dev_profiles) return dev_profiles.error();
    // Probes the vocabulary cannot encode have no profile and are left out.
    const auto keep = [](std::vector<std::vector<float>>& profiles, std::span<const Probe> probes, std::vector<int>& labels) {
        std::vector<std::vector<float>> kept;
        for (size_t i = 0; i < probes.size(); ++i) {
            if (profiles[i].empty()) continue;
            kept.push_back(std::move(profiles[i]));
            labels.push_back(probes[i].label);
        }
        profiles = std::move(kept);
    };
    std::vector<int> train_labels, dev_labels;
    keep(train_profiles.value(), train, train_labels);
    keep(dev_profiles.value(), dev, dev_labels);
    if (train_labels.empty() || dev_labels.empty()) {
        return make_error(ErrorCode::InvalidArgument, "the model's vocabulary cannot encode the probes");
    }
    const ModelParams& mp = model.params();
    const int64_t n_units = experts ? mp.n_expert : mp.n_head;
    CalibrationResult r;
    r.map = assign_from_profiles(*train_profiles, train_labels, mp.n_layer, n_units);
    r.separation = separation_score(r.map, *train_profiles, train_labels, *dev_profiles, dev_labels);
    std::vector<int> shuffled = train_labels; // the null: labels that carry no information
    std::mt19937_64 rng(options.null_seed);
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    const HeadMap null_map = assign_from_profiles(*train_profiles, shuffled, mp.n_layer, n_units);
    r.null_separation = separation_score(null_map, *train_profiles, shuffled, *dev_profiles, dev_labels);
    // The token-identity null, on the probes that had a profile (the same ones the vocabulary encodes).
    const int64_t chosen = experts ? mp.n_expert_used : n_units;
    auto token_train = token_identity_profiles(model, tokenizer, train, n_units, chosen, options.null_seed);
    auto token_dev = token_identity_profiles(model, tokenizer, dev, n_units, chosen, options.null_seed);
    std::vector<int> token_train_labels, token_dev_labels;
    keep(token_train, train, token_train_labels);
    keep(token_dev, dev, token_dev_labels);
    const HeadMap token_map = assign_from_profiles(token_train, token_train_labels, mp.n_layer, n_units);
    r.token_null_separation = separation_score(token_map, token_train, token_train_labels, token_dev, token_dev_labels);
    r.n_train = train_labels.size();
    r.n_dev = dev_labels.size();
    return r;
}

} // namespace octo
