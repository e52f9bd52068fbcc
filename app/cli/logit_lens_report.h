// `generate --logit-lens K` (docs/cli.md): after the run, the lens at each position that chose a
// generated token (engine/generation/logit_lens_run.h) — as a table after the text, or as
// "logit_lens" in --json.
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/host/model_run.h"
#include "engine/instrumentation/logit_lens.h"

namespace octo::cli {

// One lens per generated token, in their order: the lens of the position whose logits chose it.
Result<std::vector<LogitLens>> generated_token_lenses(OpenedModel& setup, const RunSpec& spec, const ModelRun& run, int64_t k);

// [{"position", "chosen", "chosen_text", "layers": [...]}, …] with each token's text.
nlohmann::json lenses_json(const std::vector<LogitLens>& lenses, const Tokenizer& tokenizer);

// Per generated token, a line per layer: its top tokens with their probabilities, and the rank
// and probability of the token that was chosen.
void print_lenses(std::ostream& out, const std::vector<LogitLens>& lenses, const Tokenizer& tokenizer);

} // namespace octo::cli
