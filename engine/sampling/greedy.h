// Greedy final stage: selects the candidate with the highest logit; among equal
// logits, the lowest token id.
#pragma once

#include "engine/sampling/sampler.h"

namespace octo {

class Greedy final : public Sampler {
public:
    void apply(CandidateList& candidates) override;
};

} // namespace octo
