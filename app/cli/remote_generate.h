// `octoscope-cli generate --engine URL`: the prompt run by a remote OpenAI-compatible server
// (engine/remote/, docs/server.md "Remote engines"). Everything computed from outputs comes back
// (text, tokens, log-probabilities, time to first token, per-token arrival); the engine's
// measurements only from an Octoscope server, and asking another server for them (--disable,
// --metric, --attribution) is refused with a sentence saying so.
#pragma once

#include <string>

#include "engine/generation/run_spec.h"

namespace octo::cli {

// Which server, and which of its models.
struct RemoteTarget {
    std::string engine;      // URL
    std::string api_key_env; // the environment variable holding the key ("": none)
    std::string model;       // the server's model id ("": its first)
};

// Runs `spec` (prompt, chat and system, sampling, stops, max tokens; subsystem switches, ablation
// and DLA only on an Octoscope server) on the server; `metric` fills "subsystems" ("": the
// server's default).
int run_remote_generate(const RemoteTarget& target, const RunSpec& spec, const std::string& metric, bool json);

} // namespace octo::cli
