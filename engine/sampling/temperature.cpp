#include "engine/sampling/temperature.h"

namespace octo {

Temperature::Temperature(float temperature) : temperature_(temperature) {}

void Temperature::apply(CandidateList& candidates) {
    for (TokenCandidate& c : candidates.items) c.logit /= temperature_;
}

} // namespace octo
