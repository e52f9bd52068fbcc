// Repetition penalty with llama.cpp's semantics: every token that occurs at least once
// among the last `last_n` accepted tokens has its logit divided by `penalty` when the
// logit is positive and multiplied by it otherwise. How often it occurred does not matter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>

#include "engine/sampling/sampler.h"

namespace octo {

class RepetitionPenalty final : public Sampler {
public:
    RepetitionPenalty(float penalty, size_t last_n);

    void apply(CandidateList& candidates) override;
    void accept(int32_t token) override;
    void reset() override;

private:
    float penalty_;
    size_t last_n_;
    std::deque<int32_t> history_; // at most last_n_ tokens, oldest first
};

} // namespace octo
