// A SentencePiece-style ("llama") vocabulary sized to a test model: <unk>, <s>, </s>, then
// one token per printable ASCII character (space written as "▁"), then unused fillers.
// No byte tokens: text outside printable ASCII cannot be encoded (a clear tokenizer error).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/gguf/gguf_writer.h"

namespace octo::test {

// Writes tokenizer.ggml.* for n_vocab tokens (n_vocab >= 3).
void add_test_vocab(GgufWriter& writer, int64_t n_vocab);

// Writes a "llama" (SentencePiece-style) vocabulary as given, with <unk> 0, <s> 1, </s> 2.
void add_spm_vocab(GgufWriter& writer, const std::vector<std::string>& tokens, const std::vector<float>& scores,
                   const std::vector<int32_t>& types);

} // namespace octo::test
