#include "engine/sampling/random_draw.h"

#include <numeric>

namespace octo {

RandomDraw::RandomDraw(uint64_t seed) : seed_(seed), rng_(seed) {}

void RandomDraw::apply(CandidateList& candidates) {
    candidates.selected = -1;
    if (candidates.items.empty()) return;
    sort_candidates(candidates);
    const std::vector<double> weights = relative_weights(candidates);
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    const double target = rng_.next_unit() * total;
    double cumulative = 0.0;
    for (size_t i = 0; i < weights.size(); ++i) {
        cumulative += weights[i];
        if (target < cumulative) {
            candidates.selected = candidates.items[i].id;
            return;
        }
    }
    candidates.selected = candidates.items.back().id; // only reachable through rounding
}

void RandomDraw::reset() { rng_ = Xoshiro256(seed_); }

} // namespace octo
