// Seeded random final stage. The candidates are put in the canonical order (descending
// logit, ties by ascending id) and given weights exp(logit - max), summed in that order
// in double precision. With u = next_unit() of the generator, the selected token is the
// first whose running weight sum exceeds u * total. reset() restarts the generator at
// the seed.
#pragma once

#include <cstdint>

#include "engine/sampling/prng.h"
#include "engine/sampling/sampler.h"

namespace octo {

class RandomDraw final : public Sampler {
public:
    explicit RandomDraw(uint64_t seed);

    void apply(CandidateList& candidates) override;
    void reset() override;

private:
    uint64_t seed_;
    Xoshiro256 rng_;
};

} // namespace octo
