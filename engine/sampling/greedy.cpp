#include "engine/sampling/greedy.h"

namespace octo {

void Greedy::apply(CandidateList& candidates) {
    const TokenCandidate* best = nullptr;
    for (const TokenCandidate& c : candidates.items) {
        if (best == nullptr || c.logit > best->logit || (c.logit == best->logit && c.id < best->id)) {
            best = &c;
        }
    }
    candidates.selected = best != nullptr ? best->id : -1;
}

} // namespace octo
