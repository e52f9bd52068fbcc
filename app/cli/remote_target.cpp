#include "app/cli/remote_target.h"

#include <cstdlib>

#include "app/cli/cli_output.h"

namespace octo::cli {

Result<ConnectedEngine> connect_engine(const RemoteTarget& target) {
    remote::RemoteEndpoint endpoint{target.engine, ""};
    if (!target.api_key_env.empty()) {
        const char* key = std::getenv(target.api_key_env.c_str());
        if (!key || !*key) return make_error(ErrorCode::InvalidArgument, "--api-key-env " + target.api_key_env + " is not set");
        endpoint.api_key = key;
    }
    auto client = remote::RemoteClient::create(endpoint);
    if (!client) return client.error();
    auto models = client->models();
    if (!models) return models.error();
    remote::RemoteModel chosen{target.model, false, nullptr};
    bool found = false;
    for (const remote::RemoteModel& m : models.value()) {
        if (target.model.empty() || m.id == target.model) {
            chosen = m;
            found = true;
            break;
        }
    }
    if (!found && !target.model.empty()) {
        std::string ids;
        for (const remote::RemoteModel& m : models.value()) ids += (ids.empty() ? "" : ", ") + m.id;
        return make_error(ErrorCode::InvalidArgument, endpoint.describe() + " does not serve '" + target.model +
                                                          "' (it serves: " + (ids.empty() ? "nothing" : ids) + ")");
    }
    return ConnectedEngine{std::move(client.value()), std::move(chosen)};
}

void add_engine_options(CLI::App& cmd, std::string& engine, std::string& api_key_env, int* concurrency) {
    auto* option = cmd.add_option("--engine", engine,
                                  "Run on this OpenAI-compatible server instead (http[s]://host:port; --model is then the "
                                  "server's model id)");
    cmd.add_option("--api-key-env", api_key_env, "With --engine: the environment variable holding the server's key")
        ->needs(option);
    if (concurrency) {
        cmd.add_option("--concurrency", *concurrency, "With --engine: requests in flight at once")
            ->check(CLI::Range(1, 256))
            ->capture_default_str()
            ->needs(option);
    }
}

int engine_error_exit_code(const Error& error) {
    return error.code == ErrorCode::InvalidArgument ? kExitUsage : kExitError;
}

} // namespace octo::cli
