// octoscope-cli serve: the in-process engine behind an OpenAI-compatible API (engine/serve/,
// docs/server.md), with the engine's measurements as an extension. Binds loopback unless told
// otherwise, and then only with an API key; Ctrl+C (or SIGTERM) stops it cleanly.
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <span>
#include <thread>

#include <spdlog/spdlog.h>

#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/json_log_formatter.h"
#include "app/cli/kv_type_option.h"
#include "app/common/builtin_model.h"
#include "engine/core/log.h"
#include "engine/core/sha256.h"
#include "engine/serve/openai_server.h"

namespace octo::cli {

namespace {

struct ServeOptions {
    std::string model;
    std::string host = "127.0.0.1";
    int port = 8080;
    int parallel = 4;
    int max_queue = 64;
    std::string api_key;
    std::string api_key_env;
    int64_t n_ctx = 0;
    int64_t max_tokens = 4096;
    size_t max_body_bytes = 4u << 20;
    int threads = 0;
    std::string backend = "auto";
    std::string model_id;
    KvTypeOptions kv;
    double drain_timeout = 30;  // seconds
    double header_timeout = 10;
    double body_timeout = 60;
    double idle_timeout = 5;
    int max_connections = 512;
    std::string log_format = "text";
    std::vector<std::string> cors_origins;
};

// Signals received: the first drains, a second cancels what is still running.
std::atomic<int> g_signals{0};
static_assert(std::atomic<int>::is_always_lock_free, "set from a signal handler");
extern "C" void on_stop_signal(int) { g_signals.fetch_add(1); }

std::chrono::milliseconds millis(double seconds) { return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000.0)); }

std::string model_fingerprint(const OpenedModel& m) {
    const std::string what = m.model->identity() + "\n" + m.info.backend + "\n" +
                             std::string(precision_name(m.info.default_precision)) + "\nkv " +
                             std::string(kv_type_name(m.info.kv_types.k)) + "/" + std::string(kv_type_name(m.info.kv_types.v));
    const std::string digest = sha256_hex(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(what.data()), what.size()));
    return std::string("octoscope-") + OCTOSCOPE_VERSION + "-" + digest.substr(0, 12);
}

int run_serve(ServeOptions o) {
    if (o.log_format == "json") {
        if (const auto logger = spdlog::get(kLoggerName)) logger->set_formatter(std::make_unique<JsonLogFormatter>());
    }
    if (!o.api_key_env.empty()) {
        const char* key = std::getenv(o.api_key_env.c_str());
        if (!key || !*key) return report_error(false, "--api-key-env " + o.api_key_env + " is not set", kExitUsage);
        o.api_key = key;
    }
    // Refused before gigabytes are paged in.
    if (!serve::is_loopback_host(o.host) && o.api_key.empty()) {
        return report_error(false, "--host " + o.host + " is reachable from other machines: set --api-key or --api-key-env "
                                   "(or bind 127.0.0.1)", kExitUsage);
    }
    auto opened = open_model_or_builtin(o.model, {.backend = o.backend, .threads = o.threads, .n_ctx = o.n_ctx,
                                                   .kv_sequences = o.parallel, .kv_types = o.kv.choice()});
    if (!opened) return report_error(false, opened.error());

    serve::ServedModelInfo info;
    info.id = o.model_id.empty() ? std::filesystem::path(opened->info.path).filename().string() : o.model_id;
    info.fingerprint = model_fingerprint(opened.value());
    std::error_code ec;
    const auto mtime = std::filesystem::last_write_time(opened->info.path, ec);
    info.created = ec ? 0 : std::chrono::duration_cast<std::chrono::seconds>(
                                std::chrono::file_clock::to_sys(mtime).time_since_epoch()).count();
    info.n_ctx = opened->info.n_ctx;
    info.describe = {{"name", valid_utf8(opened->info.name)},
                     {"architecture", opened->info.architecture},
                     {"backend", opened->info.backend},
                     {"n_layer", opened->info.n_layer},
                     {"n_head", opened->info.n_head},
                     {"has_router", opened->info.has_router},
                     {"kv_types", kv_types_json(opened->info.kv_types)},
                     {"n_expert", opened->info.n_expert},
                     {"head_map", serve::served_head_map(opened->map())},
                     {"metrics", "norm_share, relative, dla, gates, experts"}};

    serve::ServerOptions so;
    so.host = o.host;
    so.port = o.port;
    so.api_key = o.api_key;
    so.max_body_bytes = o.max_body_bytes;
    so.limits.max_tokens = o.max_tokens;
    so.scheduler.parallel = o.parallel;
    so.scheduler.max_queue = o.max_queue;
    so.connections.header_timeout = millis(o.header_timeout);
    so.connections.body_timeout = millis(o.body_timeout);
    so.connections.idle_timeout = millis(o.idle_timeout);
    so.connections.max_connections = o.max_connections;
    so.log_json = o.log_format == "json";
    so.cors_origins = o.cors_origins;
    serve::ServedModel served{opened->model.get(), opened->tokenizer.get(), opened->backend.get(), &opened->map(),
                              opened->expert_map(), opened->kv.get()};
    serve::OpenAiServer server(served, info, so);
    if (auto s = server.bind(); !s) return report_error(false, s.error());
    log_message(LogLevel::Info, "serving " + info.id + " (" + opened->info.architecture + ", " + opened->info.backend + ", context " +
                                    std::to_string(info.n_ctx) + ", " + std::to_string(o.parallel) + " in parallel) on http://" +
                                    o.host + ":" + std::to_string(server.port()) + (o.api_key.empty() ? "" : " (API key required)") +
                                    "; Ctrl+C stops it");
    // The listening port on stdout, alone on its line, for scripts that started it with --port 0.
    std::cout << "port " << server.port() << std::endl;

    g_signals.store(0);
    auto previous_int = std::signal(SIGINT, on_stop_signal);
    auto previous_term = std::signal(SIGTERM, on_stop_signal);
    std::atomic<bool> ended{false};
    std::thread watcher([&] {
        while (g_signals.load() == 0 && !ended.load()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
        server.stop(millis(o.drain_timeout), [] { return g_signals.load() > 1; });
    });
    const Status served_ok = server.serve();
    ended.store(true);
    watcher.join();
    std::signal(SIGINT, previous_int);
    std::signal(SIGTERM, previous_term);
    const serve::SchedulerStats stats = server.stats();
    log_message(LogLevel::Info, "stopped: " + std::to_string(stats.completed) + " completed, " + std::to_string(stats.cancelled) +
                                    " cancelled, " + std::to_string(stats.failed) + " failed");
    if (!served_ok) return report_error(false, served_ok.error());
    return kExitOk;
}

} // namespace

void add_serve_command(CLI::App& app, CommandRunner& run) {
    auto o = std::make_shared<ServeOptions>();
    CLI::App* cmd = app.add_subcommand("serve", "Serve the model over an OpenAI-compatible HTTP API (docs/server.md)");
    cmd->add_option("--model,-m", o->model, "GGUF model (default: the built-in octet model)");
    cmd->add_option("--host", o->host, "Address to listen on; anything but loopback needs --api-key")->capture_default_str();
    cmd->add_option("--port", o->port, "Port (0: any free port, printed as 'port N' on stdout)")
        ->check(CLI::Range(0, 65535))->capture_default_str();
    cmd->add_option("--parallel,-p", o->parallel, "Sequences decoded together (continuous batching)")
        ->check(CLI::Range(1, 256))->capture_default_str();
    cmd->add_option("--max-queue", o->max_queue, "Requests that may wait; one more gets HTTP 429")
        ->check(CLI::Range(0, 4096))->capture_default_str();
    auto* key = cmd->add_option("--api-key", o->api_key, "Key clients must send (Authorization: Bearer KEY)");
    cmd->add_option("--api-key-env", o->api_key_env, "Read the key from this environment variable instead")->excludes(key);
    cmd->add_option("--ctx", o->n_ctx, "Context of each sequence (0: the model's, at most the default cap)")->check(CLI::Range(int64_t{0}, int64_t{1} << 24));
    cmd->add_option("--max-tokens", o->max_tokens, "The most tokens a request may ask for (and its default)")
        ->check(CLI::Range(int64_t{1}, int64_t{1} << 20))->capture_default_str();
    cmd->add_option("--max-body", o->max_body_bytes, "Largest request body in bytes (larger: HTTP 413)")
        ->check(CLI::Range(size_t{1024}, size_t{1} << 30))->capture_default_str();
    cmd->add_option("--model-id", o->model_id, "The model's id in the API (default: the file name)");
    cmd->add_option("--threads,-t", o->threads, "CPU threads (0: all cores)")->check(CLI::Range(0, 1024));
    cmd->add_option("--backend", o->backend, "auto, cpu or cuda")->capture_default_str();
    cmd->add_option("--drain-timeout", o->drain_timeout, "Seconds the requests in flight may take to finish on "
                                                          "SIGTERM/Ctrl+C before they are cancelled (a second Ctrl+C cancels at once)")
        ->check(CLI::Range(0.0, 86400.0))->capture_default_str();
    cmd->add_option("--header-timeout", o->header_timeout, "Seconds a client may take to send a request's headers")
        ->check(CLI::Range(0.1, 3600.0))->capture_default_str();
    cmd->add_option("--body-timeout", o->body_timeout, "Seconds a client may take to send a request's body")
        ->check(CLI::Range(0.1, 3600.0))->capture_default_str();
    cmd->add_option("--idle-timeout", o->idle_timeout, "Seconds an idle keep-alive connection stays open")
        ->check(CLI::Range(0.1, 3600.0))->capture_default_str();
    cmd->add_option("--max-connections", o->max_connections, "Connections open at once; one more is answered 503 and closed")
        ->check(CLI::Range(1, 65536))->capture_default_str();
    cmd->add_option("--cors-origin", o->cors_origins, "An origin whose browser pages may call the API "
                                                      "(https://app.example.com; repeatable; * for any)");
    cmd->add_option("--log-format", o->log_format, "Log lines (access, drain) as text, or as one JSON object each for collectors")
        ->check(CLI::IsMember({"text", "json"}))->capture_default_str();
    add_kv_type_options(*cmd, o->kv);
    cmd->callback([o, key, &run] {
        if (key->count() > 0 && o->api_key.empty()) throw CLI::ValidationError("--api-key", "is empty: give a key, or leave the option out");
        run = [o] { return run_serve(*o); };
    });
}

} // namespace octo::cli
