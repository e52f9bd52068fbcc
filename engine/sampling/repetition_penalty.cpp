#include "engine/sampling/repetition_penalty.h"

#include <unordered_set>

namespace octo {

RepetitionPenalty::RepetitionPenalty(float penalty, size_t last_n) : penalty_(penalty), last_n_(last_n) {}

void RepetitionPenalty::apply(CandidateList& candidates) {
    if (history_.empty() || penalty_ == 1.0f) return;
    const std::unordered_set<int32_t> seen(history_.begin(), history_.end());
    for (TokenCandidate& c : candidates.items) {
        if (!seen.contains(c.id)) continue;
        c.logit = c.logit <= 0.0f ? c.logit * penalty_ : c.logit / penalty_;
    }
    candidates.sorted = false;
}

void RepetitionPenalty::accept(int32_t token) {
    if (last_n_ == 0) return;
    if (history_.size() == last_n_) history_.pop_front();
    history_.push_back(token);
}

void RepetitionPenalty::reset() { history_.clear(); }

} // namespace octo
