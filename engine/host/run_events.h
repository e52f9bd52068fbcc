// The events of one run as the engine thread posts them (EngineHost, engine/host/engine_host.h):
// what a run's trace is built from (engine/host/run_trace_events.h). Apart from the other host
// events so that code reading runs compiles none of the claims, calibration or report types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/generation/run_trace.h"

namespace octo::host_event {

// The run's trace as it starts: its spec, the precision it takes (spec.precision or the model's
// default), the prompt's text and tokens. The events after it complete that trace
// (engine/host/run_trace_events.h).
struct RunStarted { uint64_t run_id = 0; RunTrace trace; };
// The prompt's measurements (sent once the first token is chosen; every prompt position).
struct PromptMeasured { uint64_t run_id = 0; std::vector<TokenProbe> probes; std::vector<TokenMetrics> metrics; };
// `logprobs_known` false: a server sent no log-probabilities for it (event.logprobs is empty).
struct Token { uint64_t run_id = 0; TokenEvent event; TokenMetrics metrics; bool logprobs_known = true; };
struct RunFinished { uint64_t run_id = 0; RunOutcome outcome; Metric default_metric = Metric::NormShare; };
struct RunFailed { uint64_t run_id = 0; Error error; }; // error.code Cancelled: the user stopped it
// A run on a server, before it starts: the server did not answer and is asked again after wait_s.
struct RunWaiting { uint64_t run_id = 0; std::string reason; int retry = 0; int max_retries = 0; double wait_s = 0.0; };
// A queued run that never started: a newer run replaced it, or a model load dropped it.
struct RunDropped { uint64_t run_id = 0; };

} // namespace octo::host_event
