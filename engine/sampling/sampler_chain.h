// A SamplerConfig turned into an ordered chain of stages:
//
//   logit bias -> penalties -> temperature -> top-k -> top-p -> random draw   (temperature > 0)
//   logit bias -> penalties -> greedy                                          (temperature = 0)
//
// Stages that are off (no bias; repeat penalty 1 with no frequency or presence penalty, or
// last_n 0; top_k 0; top_p 1) are left out. With
// temperature 0 the shaping stages are skipped: none of them can change the argmax.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/core/result.h"
#include "engine/sampling/sampler.h"
#include "engine/sampling/sampler_config.h"

namespace octo {

class SamplerChain {
public:
    static Result<SamplerChain> create(const SamplerConfig& config);

    // Runs every stage over one logit row (one entry per vocabulary id) and returns the
    // selected id. Does not accept() it: the caller does, once the token is kept.
    int32_t sample(std::span<const float> logits);

    // Records a token appended to the sequence. To match llama.cpp, accept the prompt
    // tokens too, so that the repetition penalty sees them.
    void accept(int32_t token);

    // Forgets the token history and restarts the random generator at the seed.
    void reset();

private:
    std::vector<std::unique_ptr<Sampler>> stages_;
};

} // namespace octo
