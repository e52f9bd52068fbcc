// A run on a remote engine as a RunTrace (generation/run_trace.h), so that captures, replay and the
// workbench's views hold it as they hold a local run. What a server sent is kept, nothing made up:
//   - generated tokens: text, id and log-probabilities when the server gave them (alternatives
//     only with their ids), the time since the previous token's arrival;
//   - from an Octoscope server also the prompt's tokens (ids and pieces), every metric of every
//     position, head norms when asked for, the stop reason and the KV pool's reuse;
//   - from another server no prompt tokens and no measurements: the views that need them say so.
// The trace's precision is Exact by convention; what a server computes with is its own (captures
// of remote runs say which server answered, capture.h).
#pragma once

#include "engine/generation/run_trace.h"
#include "engine/remote/remote_client.h"

namespace octo::remote {

RunTrace trace_of_remote_run(const RunSpec& spec, const RemoteResult& result);

} // namespace octo::remote
