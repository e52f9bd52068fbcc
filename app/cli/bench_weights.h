// The weights one decoded token reads: every layer's projections and the output matrix
// (token_embd when the output is tied); the embedding row lookup is not counted. On a mixture of
// experts only the active ones: the router, the shared expert and n_expert_used of the n_expert
// experts of each layer (every expert tensor holds n_expert equal-sized matrices).
#pragma once

#include <cstdint>

#include "engine/model/model.h"

namespace octo::cli {

struct MatmulWeights {
    uint64_t bytes = 0;   // as stored in the file
    int64_t elements = 0; // 2 FLOP each per token
    uint64_t all_bytes = 0; // every matrix of the model (= bytes for a dense model)
    int64_t output_elements = 0; // the output matrix's (of `elements`): a prompt multiplies it once, for its last token
};

MatmulWeights matmul_weights(const Model& model);

} // namespace octo::cli
