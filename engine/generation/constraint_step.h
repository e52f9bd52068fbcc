// What a grammar's mask did at one step of a constrained run (grammar_constraint.h computes it):
// a value type kept with each generated token of a trace.
#pragma once

#include <vector>

#include "engine/sampling/logprobs.h"

namespace octo {

// What the mask did at one step of a constrained run.
struct ConstraintStep {
    // The probability the model (softmax of the raw logits, as logprobs.h) gave the tokens the
    // grammar forbade here: 0 when it kept to the grammar by itself, near 1 when it was bent.
    double removed_mass = 0.0;
    std::vector<TokenLogprob> removed; // the most probable forbidden tokens, most probable first (up to 5)
    // With DLA and removed_mass ≥ kDlaMass: [n_layer][n_head] each head's direct logit
    // attribution toward removed[0] minus its attribution toward the chosen token — positive for
    // the heads that pulled the model away from what the grammar allowed. Empty otherwise.
    std::vector<float> removed_dla;
    double mask_ms = 0.0; // computing the mask at this step

    static constexpr double kDlaMass = 0.05;
    // A step where the mask removed at least this much "bent" the model: it wanted to write
    // something the grammar forbids (the workbench's red bars, the advisor's constraint_bent).
    static constexpr double kBentMass = 0.5;
};

} // namespace octo
