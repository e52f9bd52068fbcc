// User-facing sampling settings and their validation.
//
// The defaults give greedy decoding (temperature 0) with every other stage off, so a
// run with no sampling options is deterministic and seed-independent.
#pragma once

#include <cstdint>

#include "engine/core/result.h"

namespace octo {

struct SamplerConfig {
    float temperature = 0.0f;    // 0: greedy (argmax); > 0: divide logits, then draw
    uint64_t seed = 0;           // seeds the random draw (see prng.h)
    int32_t top_k = 0;           // keep the k highest logits; 0: off
    float top_p = 1.0f;          // keep the smallest set with probability >= p; 1: off
    float repeat_penalty = 1.0f; // llama.cpp repetition penalty; 1: off
    int32_t repeat_last_n = 64;  // tokens the penalty looks back over; 0: off
    bool operator==(const SamplerConfig&) const = default;
};

// Checks ranges: temperature finite and >= 0, top_k >= 0, 0 < top_p <= 1,
// repeat_penalty finite and > 0, repeat_last_n >= 0.
Status validate_sampler_config(const SamplerConfig& config);

} // namespace octo
