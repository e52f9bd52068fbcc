// A run described by capture settings (engine/generation/run_spec.h), as `generate` and
// `replay` do it, and the capture of such a run (`generate --save-capture`).
#pragma once

#include <functional>

#include "engine/host/model_run.h"
#include "engine/host/model_setup.h"
#include "engine/capture/capture.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"

namespace octo::cli {

using SettingsRun = ModelRun;

// Builds the prompt and runs it on `setup` (its model, backend, map and KV pool).
Result<SettingsRun> run_settings(OpenedModel& setup, const RunSpec& settings,
                                 const std::function<void(const TokenEvent&)>& on_token = {});

// Everything about the run for a `.octo` file (model identity hashed through the user-data index).
Result<Capture> capture_of_run(const OpenedModel& setup, const RunSpec& settings, const SettingsRun& run);

} // namespace octo::cli
