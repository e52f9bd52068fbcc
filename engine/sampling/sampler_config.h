// User-facing sampling settings and their validation.
//
// The defaults give greedy decoding (temperature 0) with every other stage off, so a
// run with no sampling options is deterministic and seed-independent.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/core/result.h"

namespace octo {

struct SamplerConfig {
    float temperature = 0.0f;    // 0: greedy (argmax); > 0: divide logits, then draw
    uint64_t seed = 0;           // seeds the random draw (see prng.h)
    int32_t top_k = 0;           // keep the k highest logits; 0: off
    float top_p = 1.0f;          // keep the smallest set with probability >= p; 1: off
    float repeat_penalty = 1.0f; // llama.cpp repetition penalty; 1: off
    int32_t repeat_last_n = 64;  // tokens the penalties look back over; 0: off
    float frequency_penalty = 0.0f; // subtracted from a logit per occurrence in that window; 0: off
    float presence_penalty = 0.0f;  // subtracted once from a logit that occurs in it; 0: off
    std::vector<std::pair<int32_t, float>> logit_bias{}; // added to those ids' logits first (OpenAI's logit_bias)
    bool operator==(const SamplerConfig&) const = default;
};

// Checks ranges: temperature finite and >= 0, top_k >= 0, 0 < top_p <= 1,
// repeat_penalty finite and > 0, repeat_last_n >= 0, frequency and presence penalties and
// biases finite, bias ids >= 0.
Status validate_sampler_config(const SamplerConfig& config);

} // namespace octo
