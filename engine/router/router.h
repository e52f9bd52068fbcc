// The two-stage router (docs/router.md): stage 1 ranks the eight subsystems by the cosine of
// the prompt's embedding to each subsystem's centroid and keeps the top 3; stage 2 rescores
// those three with the feature rules and picks the best. The decision carries its evidence.
//
//   final_k     = cos_k + w · score_k / max_score_k     (k in the top 3; w = stage2_weight())
//   composition = softmax over all 8 of (cos_k + w · score_k / max_score_k) / kTemperature
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"
#include "engine/router/centroids.h"
#include "engine/router/feature_rules.h"
#include "engine/router/lexical_embedding.h"
#include "engine/router/probe_set.h"
#include "engine/router/route_decision.h"

namespace octo {

class Router {
public:
    // The stage-2 weight w, chosen by 5-fold cross-validation on the train split
    // (docs/router.md, "Tuning"); never on dev.
    static constexpr double kStage2Weight = 0.75;
    static constexpr double kTemperature = 0.05;

    // Fits the embedding (lexical unless another is given) and the centroids on `train`.
    static Router fit(std::span<const Probe> train, FeatureRules rules,
                      std::shared_ptr<TextEmbedding> embedding = nullptr);
    // The resources' train probes and rule file.
    static Result<Router> from_resources(const std::string& resource_dir,
                                         std::shared_ptr<TextEmbedding> embedding = nullptr);
    const char* embedding_name() const { return embedding_->name(); }
    // Whether the current centroids were read from the on-disk cache (centroid_cache.h) rather
    // than computed; only an embedding with a cache id is cached.
    bool centroids_cached() const { return centroids_cached_; }

    RouteDecision route(std::string_view prompt) const;

    double stage2_weight() const { return stage2_weight_; }
    void set_stage2_weight(double w) { stage2_weight_ = w; }
    // Adds a labelled probe (the user's correction) and recomputes the centroids (or reads them
    // from the cache when this probe set was fitted before).
    void add_probe(const Probe& probe);
    size_t n_probes() const { return probes_.size(); }

private:
    Router(std::vector<Probe> probes, FeatureRules rules, std::shared_ptr<TextEmbedding> embedding);
    void refit();

    std::vector<Probe> probes_;
    FeatureRules rules_;
    std::shared_ptr<TextEmbedding> embedding_;
    // Set when embedding_ is the router's own lexical embedding over rules_: route() then
    // scores the rules once for both stages.
    std::shared_ptr<LexicalEmbedding> own_lexical_;
    Centroids centroids_;
    bool centroids_cached_ = false;
    double stage2_weight_ = kStage2Weight;
};

} // namespace octo
