// Fuzz target: arbitrary bytes through everything that runs before a model is used —
// GGUF parsing, hyperparameter reading and validation, tokenizer construction, tokenizing a few
// fixed strings with whatever vocabulary the bytes describe, and dequantising the first row of
// every tensor of a supported type (every block layout's decoder on arbitrary bytes).
// Any crash, sanitizer report or unbounded allocation is a finding.
#include <cstddef>
#include <cstdint>
#include <span>

#include "engine/gguf/dequantize.h"
#include "engine/gguf/gguf_file.h"
#include "engine/model/model_params.h"
#include "engine/model/model_validation.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocab.h"

namespace {

void exercise_tokenizer(const octo::GgufFile& file) {
    auto vocab = octo::vocab_from_gguf(file);
    if (!vocab) return;
    auto tokenizer = octo::Tokenizer::create(std::move(vocab.value()));
    if (!tokenizer) return;
    for (const char* text : {"hello world", " a\n\tb  ", "<s>x</s>", "\xe4\xbd\xa0\xe5\xa5\xbd 123 \xf0\x9f\xa6\x99",
                             "\xff\xfe broken"}) {
        for (bool special : {false, true}) {
            auto ids = tokenizer->encode(text, special, special);
            if (ids) (void)tokenizer->decode(ids.value(), special);
        }
    }
}

// The first row of each tensor whose type the engine decodes (rows of at most 64 Ki values).
void exercise_dequantisation(const octo::GgufFile& file) {
    for (const octo::GgufTensorInfo& t : file.tensors()) {
        if (!t.type.supported || t.n_rows() < 1 || t.ne[0] > (int64_t{1} << 16)) continue;
        (void)octo::dequantize_rows(t, 0, 1);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    auto file = octo::GgufFile::parse(std::span<const uint8_t>(data, size));
    if (!file) return 0;
    exercise_dequantisation(file.value());
    exercise_tokenizer(file.value());
    auto params = octo::read_model_params(file.value());
    if (!params) return 0;
    (void)octo::validate_model(file.value(), params.value(), params->n_vocab);
    return 0;
}
