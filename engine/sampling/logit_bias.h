// OpenAI's logit_bias: fixed amounts added to chosen ids' logits before any other stage (as
// llama.cpp's chain starts); -100 all but bans a token, +100 all but forces it. Ids outside
// the row are ignored (the server refuses them first).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/sampling/sampler.h"

namespace octo {

class LogitBias final : public Sampler {
public:
    explicit LogitBias(std::vector<std::pair<int32_t, float>> biases) : biases_(std::move(biases)) {}

    void apply(CandidateList& candidates) override;

private:
    std::vector<std::pair<int32_t, float>> biases_;
};

} // namespace octo
