// `octoscope-cli bench --mask-vocab FILE`: what constrained decoding costs per token
// (docs/structured-output.md, "Cost"). The vocabulary of FILE (a GGUF: a model or one of the
// tokenizer files of ../shared/refdata/vocab) is sorted for a JSON schema's grammar (--mask-schema,
// or a representative one built in); then a conforming document, as that tokenizer cuts it, is
// walked token by token, timing at each step what the generation loop adds (the mask, the
// removed mass, the masked logits) — first in a fresh run (each grammar position sorted on first
// use), then again in a second run of the same schema (sorted already). Figures: milliseconds per
// token, median and worst, against the decode time the bench measured for its model.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/core/result.h"

namespace octo::cli {

struct GrammarBenchOptions {
    std::string vocab_file;  // a GGUF with a vocabulary
    std::string schema_file; // empty: the built-in schema
    int repetitions = 3;     // warm walks (the median of their per-token times is reported)
};

// The figures as JSON; decode_ms_per_token (the model's, > 0) gives their share of decode.
Result<nlohmann::json> bench_grammar_mask(const GrammarBenchOptions& options, double decode_ms_per_token);

} // namespace octo::cli
