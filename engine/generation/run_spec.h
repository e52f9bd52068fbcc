// The one description of a run: the prompt, how tokens are chosen and when to stop, what the
// engine changes (precision, ablated subsystems) and measures (DLA, attention), and where it runs.
// The workbench's engine thread, every CLI command that runs a prompt, captures (which store it,
// with the precision the run took) and Re-run / replay all take this one struct; nothing copies
// it field by field into another.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/backend/precision.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"
#include "engine/sampling/sampler_config.h"

namespace octo {

struct RunSpec {
    // The prompt.
    std::string prompt;         // what the user typed (the user turn with chat)
    bool chat = false;          // wrapped in the model's chat template
    std::string system;         // chat: the system message
    bool parse_special = false; // control-token texts in a plain prompt become those tokens
    // Choosing tokens and stopping.
    int64_t max_tokens = 128;
    std::vector<std::string> stop_strings;
    bool stop_at_eog = true; // false: keep going past end-of-generation tokens (measurements)
    SamplerConfig sampling = {};
    // What the engine changes.
    // How matrix products treat activations (backend/precision.h); nullopt: the model's default.
    // A capture holds the precision the run took, so that a replay repeats it whatever the default.
    std::optional<Precision> precision = std::nullopt;
    std::array<bool, kSubsystemCount> disabled = {}; // ablated subsystems, rte-a first
    AblationMode ablation_mode = AblationMode::Zero;
    std::vector<ExpertSwitch> disabled_experts;  // experts left out of the routers' choice (MoE models)
    SwitchTarget switch_target = SwitchTarget::Heads; // what `disabled` switches off: heads, or the experts an expert map gives each subsystem
    // What is measured beyond head norms (always on).
    bool dla = false;
    bool record_attention = true;
    bool record_router_probs = false; // every expert's router probability (MoE models), not only the chosen
    // Where it runs: the CLI opens the model with these; the workbench's model is already open.
    int64_t n_ctx = 0;   // requested context (0: the model's)
    int32_t threads = 0; // CPU threads (0: every core); tokens do not depend on it
};

PromptSpec prompt_spec(const RunSpec& spec);

// The engine's request for `spec` on the built prompt's ids (no cancel flag: the caller's).
InstrumentedRequest instrumented_request(const RunSpec& spec, std::vector<int32_t> prompt_ids);

} // namespace octo
