// The capture of a run (`generate --save-capture`): a RunSpec (engine/generation/run_spec.h) run
// by run_on_model (engine/host/model_run.h), as `generate` and `replay` run it.
#pragma once

#include <functional>

#include "engine/host/model_run.h"
#include "engine/host/model_setup.h"
#include "engine/capture/capture.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"

namespace octo::cli {

// Everything about the run for a `.octo` file (model identity hashed through the user-data index).
Result<Capture> capture_of_run(const OpenedModel& setup, const RunSpec& spec, const ModelRun& run);

} // namespace octo::cli
