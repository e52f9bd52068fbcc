// The HTTP side of `octoscope-cli serve` (docs/server.md): an OpenAI-compatible API over the
// in-process engine, on cpp-httplib (the Debian package; the library parses HTTP, this file only
// routes and answers).
//
//   GET  /health                 {"status": "ok", "model", "running", "waiting", "kv", "connections"} (no key needed)
//   GET  /v1/models              the one served model
//   POST /v1/chat/completions    messages → an answer, or server-sent chunks with "stream": true
//   POST /v1/completions         prompt → the same
//   POST /tokenize, /detokenize  text or messages → token ids, and back (llama.cpp's and vLLM's shapes)
//   GET  /metrics                Prometheus text (server_metrics.h)
//   OPTIONS *                    CORS preflight, for the origins --cors-origin names
//
// Every failure is an OpenAI-style error object with a 4xx/5xx status: 400 for a malformed body
// (openai_request.h), 401 without the API key (when one is set), 404 for another model's id or an
// unknown path, 405 for a wrong method, 413 for a body over the limit, 429 when max_queue requests
// wait already (with Retry-After), 503 when the KV pool cannot hold the request, 500 for an
// engine failure. A streamed answer's status goes with its first chunk; a whole answer's when it
// is complete. A client that disconnects cancels its request, streamed or not, waiting or running
// (its blocks go back to the pool). Requests run through the BatchScheduler (continuous
// batching); connections, their deadlines and limits are HttpListener's (http_listener.h).
//
// Stopping (SIGTERM/SIGINT in the CLI): no new connections or requests (503 "server_stopping"),
// the requests in flight finish for up to the drain time, then what is left is cancelled with
// 503 "the server is stopping" (an error event in a stream that has started).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/serve/batch_scheduler.h"
#include "engine/serve/connection_limits.h"
#include "engine/serve/openai_request.h"

namespace octo::serve {

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080;          // 0: any free port (port() tells which)
    std::string api_key;      // empty: no key asked for (only allowed on a loopback host)
    size_t max_body_bytes = 4u << 20;
    RequestLimits limits;
    SchedulerOptions scheduler;
    ConnectionLimits connections;
    bool log_json = false; // log lines (access, drain) as JSON objects rather than text
    std::vector<std::string> cors_origins; // origins a browser page may call from ("*": any); empty: no CORS
};

// What /v1/models and every answer say about the model.
struct ServedModelInfo {
    std::string id;          // the model's id in requests and answers (the file name)
    std::string fingerprint; // system_fingerprint: "octoscope-<version>-<digest of the model and backend>"
    int64_t created = 0;     // the file's modification time, Unix seconds
    int64_t n_ctx = 0;
    nlohmann::json describe; // extra fields under "octoscope" in /v1/models (architecture, backend, ...)
};

// The head map as /v1/models describes it under "octoscope": HeadMap::describe() (source, path)
// with the map itself ("version", "layers": one subsystem id per head), so that a client shows
// the server's groups by their names (remote_model_info reads it back).
nlohmann::json served_head_map(const HeadMap& map);

// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost): binding anything else
// needs an API key.
bool is_loopback_host(const std::string& host);

class OpenAiServer {
public:
    OpenAiServer(ServedModel model, ServedModelInfo info, ServerOptions options);
    ~OpenAiServer();
    OpenAiServer(const OpenAiServer&) = delete;
    OpenAiServer& operator=(const OpenAiServer&) = delete;

    // Binds host:port (InvalidArgument for a non-loopback host without a key, Io when the
    // address cannot be bound).
    Status bind();
    int port() const { return port_; }
    // Serves until stop() (blocking); bind() first.
    Status serve();
    // From any thread (a signal handler's watcher): stops accepting, lets the requests in flight
    // finish for up to `drain` (less once `give_up` says so), cancels the rest; serve() returns
    // once every connection has closed. Blocks for the drain.
    void stop(std::chrono::milliseconds drain = std::chrono::milliseconds(0), const std::function<bool()>& give_up = {});

    SchedulerStats stats() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
    int port_ = 0;
};

} // namespace octo::serve
