#include "engine/sampling/candidates.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace octo {

CandidateList CandidateList::from_logits(std::span<const float> logits) {
    CandidateList list;
    list.items.reserve(logits.size());
    for (size_t i = 0; i < logits.size(); ++i) {
        const float logit = std::isnan(logits[i]) ? -std::numeric_limits<float>::infinity() : logits[i];
        list.items.push_back({static_cast<int32_t>(i), logit});
    }
    return list;
}

void sort_candidates(CandidateList& list) {
    if (list.sorted) return;
    std::sort(list.items.begin(), list.items.end(), [](const TokenCandidate& a, const TokenCandidate& b) {
        return a.logit != b.logit ? a.logit > b.logit : a.id < b.id;
    });
    list.sorted = true;
}

std::vector<double> relative_weights(const CandidateList& list) {
    float max_logit = list.items.front().logit;
    for (const TokenCandidate& c : list.items) max_logit = std::max(max_logit, c.logit);
    std::vector<double> weights;
    weights.reserve(list.items.size());
    for (const TokenCandidate& c : list.items) {
        weights.push_back(std::exp(static_cast<double>(c.logit) - static_cast<double>(max_logit)));
    }
    return weights;
}

} // namespace octo
