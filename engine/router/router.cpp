#include "engine/router/router.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "engine/router/centroid_cache.h"

namespace octo {

Router::Router(std::vector<Probe> probes, FeatureRules rules, std::shared_ptr<TextEmbedding> embedding)
    : probes_(std::move(probes)), rules_(std::move(rules)), embedding_(std::move(embedding)) {
    if (!embedding_) {
        own_lexical_ = std::make_shared<LexicalEmbedding>(std::make_shared<const FeatureRules>(rules_));
        embedding_ = own_lexical_;
    }
    refit();
}

Router Router::fit(std::span<const Probe> train, FeatureRules rules, std::shared_ptr<TextEmbedding> embedding) {
    return Router(std::vector<Probe>(train.begin(), train.end()), std::move(rules), std::move(embedding));
}

Result<Router> Router::from_resources(const std::string& resource_dir, std::shared_ptr<TextEmbedding> embedding) {
    const std::filesystem::path dir(resource_dir);
    auto probes = read_probe_file((dir / "probes" / "probes_train.jsonl").string());
    if (!probes) return probes.error();
    auto rules = FeatureRules::load((dir / "rules" / "router_features.json").string());
    if (!rules) return rules.error();
    return Router(std::move(probes.value()), std::move(rules.value()), std::move(embedding));
}

void Router::refit() {
    std::vector<std::string> texts;
    std::vector<int> labels;
    for (const Probe& p : probes_) {
        texts.push_back(p.text);
        labels.push_back(p.label);
    }
    embedding_->fit(texts);
    const std::string cache_id = embedding_->cache_id();
    const std::string digest = cache_id.empty() ? std::string() : probe_set_digest(probes_);
    if (!cache_id.empty()) {
        if (auto cached = load_cached_centroids(cache_id, digest)) {
            centroids_ = std::move(*cached);
            centroids_cached_ = true;
            return;
        }
    }
    std::vector<std::vector<float>> embeddings;
    embeddings.reserve(texts.size());
    for (const std::string& t : texts) embeddings.push_back(embedding_->embed(t));
    centroids_ = compute_centroids(embeddings, labels);
    centroids_cached_ = false;
    // A cache that cannot be written costs only the time to recompute next time.
    if (!cache_id.empty()) static_cast<void>(save_cached_centroids(cache_id, digest, centroids_));
}

void Router::add_probe(const Probe& probe) {
    probes_.push_back(probe);
    refit();
}

RouteDecision Router::route(std::string_view prompt) const {
    RouteDecision d;
    const FeatureScores features = rules_.score(prompt);
    const std::vector<float> e = own_lexical_ ? own_lexical_->embed(prompt, features) : embedding_->embed(prompt);
    d.similarity = centroid_similarities(centroids_, e);
    const auto max_scores = rules_.max_scores();
    std::array<double, kSubsystemCount> final_score{};
    for (size_t k = 0; k < final_score.size(); ++k) {
        const double stage2 = max_scores[k] > 0 ? features.score[k] / max_scores[k] : 0.0;
        final_score[k] = d.similarity[k] + stage2_weight_ * stage2;
    }
    std::array<int, kSubsystemCount> order{};
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return d.similarity[static_cast<size_t>(a)] > d.similarity[static_cast<size_t>(b)]; });
    d.stage1_route = order[0];
    for (int i = 0; i < 3; ++i) {
        const auto k = static_cast<size_t>(order[static_cast<size_t>(i)]);
        d.top3.push_back(RouteCandidate{order[static_cast<size_t>(i)], d.similarity[k],
                                        max_scores[k] > 0 ? features.score[k] / max_scores[k] : 0.0, final_score[k]});
    }
    d.route = std::max_element(d.top3.begin(), d.top3.end(), [](const RouteCandidate& a, const RouteCandidate& b) {
                  return a.final_score < b.final_score;
              })->subsystem;
    const double top = *std::max_element(final_score.begin(), final_score.end());
    double sum = 0.0;
    for (size_t k = 0; k < final_score.size(); ++k) sum += d.composition[k] = std::exp((final_score[k] - top) / kTemperature);
    for (double& c : d.composition) c /= sum;
    d.features = features.fired;
    return d;
}

} // namespace octo
