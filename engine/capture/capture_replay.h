// Whether a re-run of a capture repeated it: the prompt's tokens and every generated token id,
// in order (log-probs and timings are not compared: the token ids are what a user sees).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "engine/generation/run_trace.h"

namespace octo {

struct ReplayComparison {
    bool identical = false;                   // same prompt tokens and same generated tokens
    bool prompt_identical = false;            // the prompt tokenized to the same ids
    std::optional<size_t> first_divergence;   // first generated index whose id differs (or where one run ended first)
    size_t recorded_tokens = 0;
    size_t replayed_tokens = 0;
    size_t tokens_compared = 0;               // positions both runs generated
};

ReplayComparison compare_replay(const RunTrace& recorded, const RunTrace& replay);

} // namespace octo
