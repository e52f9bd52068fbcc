// A random-weight `llama` model of a given size, written with GgufWriter, for benchmarks.
#pragma once

#include <cstdint>
#include <string>

#include "engine/core/result.h"
#include "engine/gguf/tensor_type.h"

namespace octo::bench {

struct SyntheticModelShape {
    int64_t n_vocab = 32000;
    int64_t n_embd = 768;
    int64_t n_ff = 2304;
    int64_t n_head = 12;
    int64_t n_head_kv = 4;
    int64_t n_layer = 12;       // with these sizes: about 103 M parameters (tied output)
    int64_t context_length = 2048;
    TensorType weight_type = TensorType::Q8_0;
};

int64_t parameter_count(const SyntheticModelShape& shape);

// Writes the model to `path`; the embedding doubles as the output matrix.
Status write_synthetic_model(const SyntheticModelShape& shape, const std::string& path);

} // namespace octo::bench
