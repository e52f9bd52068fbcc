#include "engine/sampling/top_p.h"

#include <numeric>

namespace octo {

TopP::TopP(float p) : p_(p) {}

void TopP::apply(CandidateList& candidates) {
    if (p_ >= 1.0f || candidates.items.empty()) return;
    sort_candidates(candidates);
    const std::vector<double> weights = relative_weights(candidates);
    const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
    const double target = static_cast<double>(p_) * total;
    double cumulative = 0.0;
    for (size_t i = 0; i < weights.size(); ++i) {
        cumulative += weights[i];
        if (cumulative >= target) {
            candidates.items.resize(i + 1);
            return;
        }
    }
}

} // namespace octo
