// One stage of a sampler chain (the shape of llama.cpp's samplers).
//
// apply() narrows or reshapes the candidates, or (final stages) sets `selected`;
// accept() tells the stage which token was appended to the sequence (prompt tokens
// included, when the caller wants them to count); reset() forgets that history.
#pragma once

#include <cstdint>

#include "engine/sampling/candidates.h"

namespace octo {

class Sampler {
public:
    virtual ~Sampler() = default;
    virtual void apply(CandidateList& candidates) = 0;
    virtual void accept(int32_t /*token*/) {}
    virtual void reset() {}
};

} // namespace octo
