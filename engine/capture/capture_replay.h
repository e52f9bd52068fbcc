// Whether a re-run of a capture repeated it: the prompt's tokens, every generated token id (its
// text where a run on a server that sends no ids lacks them), in order, and on a mixture of experts every position's chosen experts (log-probs, weights and
// timings are not compared: the token ids and the experts chosen are what a user sees).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "engine/generation/run_trace.h"

namespace octo {

struct ReplayComparison {
    bool identical = false;                   // same prompt tokens, generated tokens and routing
    bool prompt_identical = false;            // the prompt tokenized to the same ids
    std::optional<size_t> first_divergence;   // first generated index whose id differs (or where one run ended first)
    size_t recorded_tokens = 0;
    size_t replayed_tokens = 0;
    size_t tokens_compared = 0;               // positions both runs generated
    bool routing_identical = true;            // every position both runs have chose the same experts
    // The first trace position (prompt tokens first, then generated) whose chosen experts differ.
    std::optional<size_t> first_routing_divergence;
};

ReplayComparison compare_replay(const RunTrace& recorded, const RunTrace& replay);

} // namespace octo
