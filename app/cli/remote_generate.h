// `octoscope-cli generate --engine URL` (and `compare --engine`): a prompt run by a remote
// OpenAI-compatible server (engine/remote/, docs/server.md "Remote engines"). Everything computed
// from outputs comes back (text, tokens, log-probabilities, time to first token, per-token
// arrival); the engine's measurements only from an Octoscope server, and asking another server
// for them (--disable, --metric, --attribution) is refused with a sentence saying so.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/remote_target.h"
#include "engine/capture/capture.h"
#include "engine/generation/run_spec.h"

namespace octo::cli {

// Ok, or InvalidArgument with the sentence when `spec` (or `metric`) asks a non-Octoscope server
// for the engine's internals.
Status check_remote_spec(const ConnectedEngine& engine, const RunSpec& spec, const std::string& metric);

// The request for `spec` (prompt, chat and system, sampling, stops, max tokens; on an Octoscope
// server the extension with switches, ablation, DLA, `metric` and, with `heads`, head norms).
remote::RemoteRequest remote_request(const ConnectedEngine& engine, const RunSpec& spec, const std::string& metric,
                                     bool heads = false);

// The run as `generate --engine --json` prints it.
nlohmann::json remote_run_json(const ConnectedEngine& engine, const remote::RemoteRequest& request,
                               const remote::RemoteResult& result);

// The capture of a run on the server (docs/capture-format.md, `engine`): what the server told of
// its model, its URL (never the key), model id and fingerprint, and the run as a trace.
Capture capture_of_remote_run(const ConnectedEngine& engine, const RunSpec& spec, const remote::RemoteResult& result);

// Runs `spec` on the server; `metric` fills "subsystems" ("": the server's default); a non-empty
// `save_capture` also writes the run there (with head norms from an Octoscope server).
int run_remote_generate(const RemoteTarget& target, const RunSpec& spec, const std::string& metric, bool json,
                        const std::string& save_capture = {});

} // namespace octo::cli
