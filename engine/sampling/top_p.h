// Top-p (nucleus): with the candidates sorted and their softmax probabilities summed
// from the most likely down, keeps the shortest prefix whose sum reaches p (the token
// that crosses p is kept; at least one token always is). p = 1 keeps everything.
#pragma once

#include "engine/sampling/sampler.h"

namespace octo {

class TopP final : public Sampler {
public:
    explicit TopP(float p);
    void apply(CandidateList& candidates) override;

private:
    float p_;
};

} // namespace octo
