// The logit lens at positions of a run (engine/instrumentation/logit_lens.h), computed after it:
// the run's tokens are evaluated again in a session with the run's own options (its ablation,
// switches, precision and measurements, so the residuals are the run's bit for bit) that also
// keeps every layer's residual. The KV blocks the run left in the pool are reused up to the first
// position asked, so a lens on the last tokens of a long prompt costs a few tokens' forward pass
// plus one output product per layer per position. `generate --logit-lens K` asks for every
// generated token's choosing position; the workbench for the selected token.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/generation/instrumented_generation.h"
#include "engine/instrumentation/logit_lens.h"

namespace octo {

// The lens at each of `positions` (indices into `tokens`: the prompt's ids, then the generated
// ones; in any order, repeats allowed) with the top `k` tokens per layer; the token chosen after
// position p is tokens[p + 1] (none for the last). The results are in the order of `positions`.
// inputs.prompt_ids must be tokens' first ids (the run's prompt: it decides which positions the
// reference evaluates as a batch). Errors: InvalidArgument (a position outside the tokens, k < 1,
// a prompt that is not the tokens' start), Cancelled (inputs.cancel), and the session's.
Result<std::vector<LogitLens>> run_logit_lens(const Model& model, Backend& backend, const HeadMap& map, KvStore& kv,
                                              const RunSpec& spec, const RunInputs& inputs,
                                              std::span<const int32_t> tokens, std::span<const int64_t> positions,
                                              int64_t k);

} // namespace octo
