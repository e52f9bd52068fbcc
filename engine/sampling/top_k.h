// Top-k: keeps the k candidates with the highest logits (ties broken by lower id), or
// all of them when k is 0 or at least the number of candidates. Leaves them sorted.
#pragma once

#include <cstddef>

#include "engine/sampling/sampler.h"

namespace octo {

class TopK final : public Sampler {
public:
    explicit TopK(size_t k);
    void apply(CandidateList& candidates) override;

private:
    size_t k_;
};

} // namespace octo
