// One instrumented run as `octoscope-cli generate --json` prints it (docs/cli.md): prompt,
// generated tokens with log-probs and metrics, ablation, head map, precision, KV pool and timing;
// on a mixture of experts each position's routing and the experts' load (docs/moe.md).
// `compare` prints two of these.
#pragma once

#include <array>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/backend/backend.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"
#include "engine/instrumentation/head_map.h"
#include "engine/tokenizer/tokenizer.h"

namespace octo::cli {

struct RunJsonContext {
    const Tokenizer& tokenizer;
    const HeadMap& map;
    const Backend& backend;
    std::array<bool, kSubsystemCount> disabled = {};
    std::string ablation = "zero";
    bool with_attention = false;
    std::vector<ExpertSwitch> disabled_experts = {};
    int64_t n_layer = 0;  // the model's (routing per layer)
    int64_t n_expert = 0; // 0: a dense model (no routing fields)
    std::string target = "heads"; // what the subsystem switches switched off: heads or experts
};

nlohmann::json run_json(const BuiltPrompt& prompt, const InstrumentedResult& run, const RunJsonContext& context);

} // namespace octo::cli
