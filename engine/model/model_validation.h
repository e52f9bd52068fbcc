// Checks a model's contents before anything is allocated or run: hyperparameters that
// make sense, every tensor the architecture needs present with the shape the
// hyperparameters imply, and only tensor types the engine can run.
#pragma once

#include <cstdint>

#include "engine/core/result.h"
#include "engine/gguf/gguf_file.h"
#include "engine/model/model_params.h"

namespace octo {

// Hyperparameters alone (no tensors needed): ErrorCode::InvalidModel on nonsense.
Status validate_hparams(const ModelParams& p);

// Every tensor's type is one the engine can run; the error names the first tensor that is not.
Status check_tensor_types(const GgufFile& file);

// The full check for running a model of a supported architecture (architecture.h); `n_tokenizer_vocab` is the
// tokenizer's token count, which must equal the embedding's rows.
Status validate_model(const GgufFile& file, const ModelParams& p, int64_t n_tokenizer_vocab);

} // namespace octo
