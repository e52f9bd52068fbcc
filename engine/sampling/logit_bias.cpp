#include "engine/sampling/logit_bias.h"

namespace octo {

void LogitBias::apply(CandidateList& candidates) {
    for (const auto& [id, bias] : biases_) {
        // The candidates of a fresh row are in id order; after another stage, search.
        if (id < 0) continue;
        const auto at = static_cast<size_t>(id);
        if (at < candidates.items.size() && candidates.items[at].id == id) {
            candidates.items[at].logit += bias;
            continue;
        }
        for (TokenCandidate& c : candidates.items) {
            if (c.id == id) c.logit += bias;
        }
    }
    candidates.sorted = false;
}

} // namespace octo
