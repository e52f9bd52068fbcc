// A capture's settings as the engine's inputs: how the prompt is built and what the run is
// asked to do. `generate`, `replay` and the workbench's Re-run all start a run from these, so a
// capture repeats exactly what was run.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/capture/capture.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/prompt_builder.h"

namespace octo {

PromptSpec capture_prompt_spec(const CaptureSettings& settings);

InstrumentedRequest capture_request(const CaptureSettings& settings, std::vector<int32_t> prompt_ids);

} // namespace octo
