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

// The pieces of it, for a run followed as it streams (engine host): a generated token
// (`previous_arrival_ms`: the previous token's arrival, 0 for the first), and the prompt's
// tokens an Octoscope server's extension names (none from another server).
TraceToken trace_token(const RemoteToken& token, double previous_arrival_ms);
std::vector<TraceToken> prompt_tokens(const nlohmann::json& extension);
// The outcome once the stream ended.
RunOutcome outcome_of_remote_run(const RunSpec& spec, const RemoteResult& result);

// The request for `spec` on `model`: prompt (chat with its system message, or plain), sampling,
// stops, max tokens; on an Octoscope server the extension with the switches, ablation, DLA,
// `metric` ("": its default), the prompt's measurements and, with `heads`, head norms.
RemoteRequest request_for_spec(const RunSpec& spec, const RemoteModel& model, const std::string& metric = {}, bool heads = false);
// The extension's "disable" list: the ids of the subsystems switched off.
nlohmann::json disabled_ids(const std::array<bool, kSubsystemCount>& disabled);
// Ok, or InvalidArgument with the sentence when `spec` (or `metric`) asks a server that is not
// Octoscope for the engine's internals (`engine`: how the server is named).
Status check_spec_for_server(const RunSpec& spec, const RemoteModel& model, const std::string& metric, const std::string& engine);

} // namespace octo::remote
