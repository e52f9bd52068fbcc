// A remote engine: any OpenAI-compatible server (vLLM, SGLang, TGI, llama.cpp's server, Ollama,
// OpenAI itself, or `octoscope-cli serve`) reached over HTTP(S) with cpp-httplib.
//
// Every completion is streamed, so that the time to the first token and each token's arrival are
// measured where the user sits. 429 and 5xx answers and failed connections are retried with
// exponential back-off (honouring Retry-After) as long as no token has arrived; a cancel closes
// the connection, which a server takes as the client going away. The key is sent as
// `Authorization: Bearer …` and kept nowhere else: RemoteEndpoint::describe() leaves it out.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/chat/chat_message.h"
#include "engine/core/result.h"
#include "engine/remote/openai_answer.h"
#include "engine/sampling/sampler_config.h"

namespace octo::remote {

struct RemoteEndpoint {
    std::string url;     // "http://gpu-box:8000", "https://api.example.com/v1" (a trailing /v1 is optional)
    std::string api_key; // empty: none sent
    // The URL without credentials (what captures and logs record).
    std::string describe() const;
};

struct RetryPolicy {
    int max_retries = 4;
    double first_delay_s = 0.5; // doubled after each retry, unless the server says Retry-After
    double max_delay_s = 8.0;
};

struct RemoteRequest {
    bool chat = true;
    std::vector<ChatMessage> messages; // chat
    std::string prompt;                // completions
    std::string model;                 // empty: the server's first model (RemoteClient::models)
    int64_t max_tokens = 128;
    SamplerConfig sampling;            // temperature, top_p, top_k (sent when > 0), seed
    bool send_seed = true;             // servers that ignore seeds are not deterministic
    std::vector<std::string> stop;
    int top_logprobs = 5;              // 0: no log-probabilities asked for
    nlohmann::json octoscope;          // the extension object to send (null: none)
    // Constrained output: a JSON Schema (sent as OpenAI's response_format json_schema, or
    // json_object for any object), else a GBNF grammar (llama.cpp's "grammar"); empty: none.
    std::string json_schema;
    std::string grammar;
    std::vector<ChatTool> tools; // chat: sent as `tools` (each as it was declared) with tool_choice
    ToolChoice tool_choice;
};

// One entry of GET /v1/models.
struct RemoteModel {
    std::string id;
    bool octoscope = false;  // served by `octoscope-cli serve`: the extension gives every view its data
    nlohmann::json describe; // Octoscope's description (architecture, backend, head map, …), else null
};

struct RemoteResult {
    std::string text;
    std::vector<RemoteToken> tokens;   // with arrival_ms; one per chunk when the server sends no log-probabilities
    std::string finish_reason;         // "stop", "length", … ("" when the stream ended without one)
    std::optional<RemoteUsage> usage;
    std::string model;                 // as the server names it
    std::string fingerprint;           // system_fingerprint
    nlohmann::json octoscope;          // the extension's summary (Octoscope servers): metric, ablation, stop_reason, kv, timing, prompt
    double ttft_ms = 0.0;              // request sent → first token
    double total_ms = 0.0;
    int retries = 0;
};

// A failed attempt that will be retried: said before the wait, so a user sees why nothing arrives.
struct RetryNotice {
    int retry = 0;         // 1 for the first retry
    int max_retries = 0;
    double wait_s = 0.0;   // before it
    std::string reason;    // "cannot reach http://…: Connection", "HTTP 503: the KV pool is full"
};

class RemoteClient {
public:
    // InvalidArgument for a URL that is not http:// or https://host[:port][/path].
    static Result<RemoteClient> create(RemoteEndpoint endpoint, RetryPolicy retry = {});

    // GET /v1/models: what the server serves (an empty list is an answer too). A refused
    // connection, 429 and 5xx are retried with the policy's back-off, as complete() does.
    Result<std::vector<RemoteModel>> models() const;

    // One completion, streamed; `on_token` (optional) is called as each token arrives. Errors:
    // Io (unreachable, or HTTP errors after the retries, with the server's message), Format (an
    // answer that is not OpenAI's), Cancelled.
    // `on_extension` (optional) gets each chunk's Octoscope extension object before that chunk's
    // tokens (the first names the metric and, when asked for, the prompt). `on_retry` (optional)
    // hears of each retry before its wait.
    Result<RemoteResult> complete(const RemoteRequest& request, const std::function<void(const RemoteToken&)>& on_token = {},
                                  const std::atomic<bool>* cancel = nullptr,
                                  const std::function<void(const nlohmann::json&)>& on_extension = {},
                                  const std::function<void(const RetryNotice&)>& on_retry = {}) const;

    const RemoteEndpoint& endpoint() const { return endpoint_; }

    // The JSON body complete() sends (tests; "stream": true).
    // (Keys in order: a JSON Schema's properties are written in the order it declares them.)
    nlohmann::ordered_json request_body(const RemoteRequest& request) const;

private:
    RemoteClient(RemoteEndpoint endpoint, RetryPolicy retry, std::string origin, std::string prefix);
    bool https() const { return origin_.rfind("https://", 0) == 0; }

    RemoteEndpoint endpoint_;
    RetryPolicy retry_;
    std::string origin_; // scheme://host:port
    std::string prefix_; // path before /v1 ("" or "/something")
};

} // namespace octo::remote
