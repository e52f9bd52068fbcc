// Random-weight `llama` / `qwen2` models written with GgufWriter, for engine tests that must
// not depend on ../shared. Every matrix is stored in one chosen weight type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/gguf/tensor_type.h"

namespace octo::test {

struct TestModelSpec {
    std::string architecture = "llama"; // "qwen2" adds q/k/v biases and NeoX RoPE
    TensorType weight_type = TensorType::F32;
    int64_t n_vocab = 96;
    int64_t n_embd = 256;   // multiples of 256 let every type (K-quants too) store the rows
    int64_t n_ff = 256;
    int64_t n_head = 4;
    int64_t n_head_kv = 2;
    int64_t n_layer = 2;
    int64_t context_length = 64;
    bool tied_output = false; // no output.weight: the embedding doubles as the output matrix
    bool rope_freqs = false;  // add a rope_freqs.weight tensor of frequency factors
    uint32_t seed = 1;
};

// The GGUF image of a model following `spec`.
std::vector<uint8_t> make_test_model(const TestModelSpec& spec);

} // namespace octo::test
