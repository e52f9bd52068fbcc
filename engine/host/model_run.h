// One run of a RunSpec on an opened model (its model, backend, map and KV pool): the prompt
// built from the spec, then the instrumented run. What `generate`, `replay`, `chat` and the
// tests do with a model they opened themselves (the workbench goes through the engine thread).
#pragma once

#include <functional>

#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"
#include "engine/generation/run_trace.h"
#include "engine/host/model_setup.h"

namespace octo {

struct ModelRun {
    BuiltPrompt prompt;
    InstrumentedResult run;
};

// Builds the prompt and runs it in the model's shared pool (prefix reuse across runs).
Result<ModelRun> run_on_model(OpenedModel& setup, const RunSpec& spec, const std::function<void(const TokenEvent&)>& on_token = {});

// The same run as a trace (trace_of_run), with the pool's history.
Result<RunTrace> run_traced(OpenedModel& setup, const RunSpec& spec);

} // namespace octo
