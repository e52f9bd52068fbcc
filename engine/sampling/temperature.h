// Temperature: divides every logit by t (> 0). It sharpens (t < 1) or flattens (t > 1)
// the distribution without changing the order of the candidates.
#pragma once

#include "engine/sampling/sampler.h"

namespace octo {

class Temperature final : public Sampler {
public:
    explicit Temperature(float temperature);
    void apply(CandidateList& candidates) override;

private:
    float temperature_;
};

} // namespace octo
