// The working set a sampler chain operates on: one (id, logit) entry per token still
// in the running, plus the token finally selected.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace octo {

struct TokenCandidate {
    int32_t id;
    float logit;
};

struct CandidateList {
    std::vector<TokenCandidate> items;
    bool sorted = false;   // items are in descending logit order, ties by ascending id
    int32_t selected = -1; // token id chosen by the final stage, -1 before

    // One entry per vocabulary id, in id order. A NaN logit becomes -inf (never chosen).
    static CandidateList from_logits(std::span<const float> logits);
};

// Sorts descending by logit, ties by ascending id (a total, platform-independent order).
void sort_candidates(CandidateList& list);

// exp(logit - max logit) of each item, in item order, as doubles. The caller normalises;
// the items must be non-empty.
std::vector<double> relative_weights(const CandidateList& list);

} // namespace octo
