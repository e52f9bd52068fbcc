// The weights one decoded token reads: every layer's projections and the output matrix
// (token_embd when the output is tied); the embedding row lookup is not counted.
#pragma once

#include <cstdint>

#include "engine/model/model.h"

namespace octo::cli {

struct MatmulWeights {
    uint64_t bytes = 0;   // as stored in the file
    int64_t elements = 0; // 2 FLOP each per token
};

MatmulWeights matmul_weights(const Model& model);

} // namespace octo::cli
