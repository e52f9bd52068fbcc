// `--engine URL [--api-key-env VAR]` (with `--model` as the server's model id): the options every
// command that can run on a remote OpenAI-compatible server shares, and connecting to it —
// the key read from the environment, the model checked against GET /v1/models.
#pragma once

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "engine/core/result.h"
#include "engine/remote/remote_client.h"

namespace octo::cli {

// Which server, and which of its models.
struct RemoteTarget {
    std::string engine;      // URL ("": run locally)
    std::string api_key_env; // the environment variable holding the key ("": none)
    std::string model;       // the server's model id ("": its first)
};

struct ConnectedEngine {
    remote::RemoteClient client;
    remote::RemoteModel model; // the chosen one (id empty when the server lists none)
    std::string describe() const { return client.endpoint().describe(); }
};

// InvalidArgument (a usage error: kExitUsage) for an unset key variable, a bad URL or a model the
// server does not serve; Io when the server cannot be reached.
Result<ConnectedEngine> connect_engine(const RemoteTarget& target);

// Adds --engine and --api-key-env (and, when `concurrency` is given, --concurrency) to `cmd`.
void add_engine_options(CLI::App& cmd, std::string& engine, std::string& api_key_env, int* concurrency = nullptr);

// The exit code for a connect_engine error.
int engine_error_exit_code(const Error& error);

} // namespace octo::cli
