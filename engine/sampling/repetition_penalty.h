// The penalties with llama.cpp's semantics (its "penalties" sampler), over the last `last_n`
// accepted tokens: a token that occurs there `count` > 0 times has its logit divided by
// `repeat` when positive and multiplied by it otherwise (how often does not matter), then
// lowered by count × `frequency` + `presence` (OpenAI's frequency and presence penalties;
// negative values raise it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>

#include "engine/sampling/sampler.h"

namespace octo {

class RepetitionPenalty final : public Sampler {
public:
    RepetitionPenalty(float repeat, size_t last_n, float frequency = 0.0f, float presence = 0.0f);

    void apply(CandidateList& candidates) override;
    void accept(int32_t token) override;
    void reset() override;

private:
    float repeat_;
    size_t last_n_;
    float frequency_;
    float presence_;
    std::deque<int32_t> history_;               // at most last_n_ tokens, oldest first
    std::unordered_map<int32_t, int> counts_;   // occurrences in history_
};

} // namespace octo
