// A run's trace from the engine host's events: RunStarted carries the trace with its prompt
// tokens, and each later event of that run completes it. The workbench's RunStore keeps its runs
// this way; a test or tool that listens to the host can do the same.
#pragma once

#include "engine/generation/run_trace.h"
#include "engine/host/run_events.h"

namespace octo {

// Each prompt position's probe and metrics.
void record_event(RunTrace& trace, const host_event::PromptMeasured& event);
// One generated token; returns its index in trace.tokens.
size_t record_event(RunTrace& trace, const host_event::Token& event);
// The outcome, and the metric the run is shown by.
void record_event(RunTrace& trace, const host_event::RunFinished& event);

} // namespace octo
