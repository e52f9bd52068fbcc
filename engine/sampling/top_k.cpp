#include "engine/sampling/top_k.h"

namespace octo {

TopK::TopK(size_t k) : k_(k) {}

void TopK::apply(CandidateList& candidates) {
    if (k_ == 0 || k_ >= candidates.items.size()) return;
    sort_candidates(candidates);
    candidates.items.resize(k_);
}

} // namespace octo
