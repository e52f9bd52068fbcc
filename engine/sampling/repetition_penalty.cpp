#include "engine/sampling/repetition_penalty.h"

namespace octo {

RepetitionPenalty::RepetitionPenalty(float repeat, size_t last_n, float frequency, float presence)
    : repeat_(repeat), last_n_(last_n), frequency_(frequency), presence_(presence) {}

void RepetitionPenalty::apply(CandidateList& candidates) {
    if (counts_.empty()) return;
    for (TokenCandidate& c : candidates.items) {
        const auto it = counts_.find(c.id);
        if (it == counts_.end()) continue;
        if (repeat_ != 1.0f) c.logit = c.logit <= 0.0f ? c.logit * repeat_ : c.logit / repeat_;
        c.logit -= static_cast<float>(it->second) * frequency_ + presence_;
    }
    candidates.sorted = false;
}

void RepetitionPenalty::accept(int32_t token) {
    if (last_n_ == 0) return;
    if (history_.size() == last_n_) {
        const auto it = counts_.find(history_.front());
        if (--it->second == 0) counts_.erase(it);
        history_.pop_front();
    }
    history_.push_back(token);
    counts_[token] += 1;
}

void RepetitionPenalty::reset() {
    history_.clear();
    counts_.clear();
}

} // namespace octo
