#include "engine/remote/remote_client.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include <httplib.h>

#include "engine/chat/chat_messages_json.h"
#include "engine/chat/chat_tools.h"
#include "engine/core/json_fields.h"
#include "engine/grammar/json_schema.h"
#include "engine/remote/sse_reader.h"

namespace octo::remote {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxErrorBody = 64 * 1024;
constexpr size_t kMaxPlainBody = 64u << 20; // a server that ignores "stream" answers with one JSON object

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

// Sleeps `seconds`, waking early on a cancel.
void wait(double seconds, const std::atomic<bool>* cancel) {
    const auto until = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < until && !cancelled(cancel)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

// What one streamed answer has brought so far.
struct Stream {
    RemoteResult result;
    bool any_token = false;
    bool done_marker = false;
    std::optional<Error> error;
};

void merge(Stream& s, const RemoteAnswer& a, Clock::time_point start, const std::function<void(const RemoteToken&)>& on_token,
           const std::function<void(const json&)>& on_extension) {
    if (!a.model.empty()) s.result.model = a.model;
    if (!a.fingerprint.empty()) s.result.fingerprint = a.fingerprint;
    if (a.usage) s.result.usage = a.usage;
    for (const RemoteChoice& c : a.choices) {
        if (c.index != 0) continue; // one choice is asked for
        if (c.octoscope.is_object()) { // before the chunk's tokens: the first chunk's names the prompt
            if (!s.result.octoscope.is_object()) s.result.octoscope = json::object();
            s.result.octoscope.update(c.octoscope);
            if (on_extension) on_extension(c.octoscope);
        }
        s.result.text += c.text;
        std::vector<RemoteToken> tokens = c.tokens;
        if (tokens.empty() && !c.text.empty()) tokens.push_back(RemoteToken{c.text, std::nullopt, {}, std::nullopt, nullptr, 0.0});
        for (RemoteToken& t : tokens) {
            t.arrival_ms = ms_since(start);
            if (!s.any_token) s.result.ttft_ms = t.arrival_ms;
            s.any_token = true;
            if (on_token) on_token(t);
            s.result.tokens.push_back(std::move(t));
        }
        if (c.finish_reason) s.result.finish_reason = *c.finish_reason;
    }
}

// Why a request never got an answer, in words (httplib names only the kind of failure).
std::string unreachable_reason(httplib::Error e, bool https) {
    switch (e) {
    case httplib::Error::Connection: return "the connection was refused or failed (is the server running, on that host and port?)";
    case httplib::Error::ConnectionTimeout: return "no connection within 10 s (a firewall, or the wrong host?)";
    case httplib::Error::SSLConnection:
        return https ? "the TLS handshake failed: is this a plain HTTP server? (try http:// instead of https://)"
                     : "the TLS handshake failed";
    case httplib::Error::SSLServerVerification: return "the server's TLS certificate could not be verified";
    case httplib::Error::SSLLoadingCerts: return "the system's CA certificates could not be loaded";
    case httplib::Error::Read: return "the connection broke while reading the answer (an https:// server on an http:// URL?)";
    case httplib::Error::Write: return "the connection broke while sending the request";
    default: return httplib::to_string(e);
    }
}

// A failure to connect that may pass (the server starting, restarting, overloaded): retried.
bool retryable_connection_error(httplib::Error e) {
    return e == httplib::Error::Connection || e == httplib::Error::ConnectionTimeout || e == httplib::Error::Read ||
           e == httplib::Error::Write;
}

// One POST of a completion and what came back: the status and headers, the body (an error's, or
// a whole answer from a server that ignores "stream"), and the stream merged so far.
struct Attempt {
    bool sent = false;
    httplib::Error error = httplib::Error::Success;
    int status = 0;
    std::string retry_after, content_type, raw;
    Stream stream;
    Clock::time_point start;
};

using TokenCallback = std::function<void(const RemoteToken&)>;
using ExtensionCallback = std::function<void(const json&)>;

// The bytes of a 200 answer as they arrive: SSE events merged into the stream (false stops the
// transfer: an error event, a chunk that is not an answer, a plain answer past 64 MiB).
bool receive_answer(Attempt& a, std::string_view data, SseReader& sse, const RemoteEndpoint& endpoint, const TokenCallback& on_token,
                    const ExtensionCallback& on_extension) {
    Stream& s = a.stream;
    if (a.content_type.find("text/event-stream") == std::string::npos) { // the whole answer at once
        if (a.raw.size() + data.size() > kMaxPlainBody) {
            s.error = make_error(ErrorCode::Format, "the answer of " + endpoint.describe() + " is larger than 64 MiB");
            return false;
        }
        a.raw.append(data);
        return true;
    }
    for (const std::string& event : sse.feed(data)) {
        if (event == "[DONE]") {
            s.done_marker = true;
            continue;
        }
        const json j = json::parse(event, nullptr, false);
        if (j.is_object() && j.contains("error")) {
            s.error = make_error(ErrorCode::Io, endpoint.describe() + " failed mid-answer: " + error_message(200, event));
            return false;
        }
        auto parsed = parse_answer(j);
        if (!parsed) {
            s.error = make_error(ErrorCode::Format, endpoint.describe() + " sent a chunk that is not an answer: " + parsed.error().message);
            return false;
        }
        merge(s, parsed.value(), a.start, on_token, on_extension);
    }
    return true;
}

Attempt post_completion(const std::string& origin, const RemoteEndpoint& endpoint, const std::string& path, const std::string& body,
                        const std::atomic<bool>* cancel, const TokenCallback& on_token, const ExtensionCallback& on_extension) {
    httplib::Client client(origin);
    client.set_connection_timeout(10, 0);
    client.set_read_timeout(600, 0);
    httplib::Request req;
    req.method = "POST";
    req.path = path;
    req.body = body;
    req.set_header("Content-Type", "application/json");
    req.set_header("Accept", "text/event-stream");
    if (!endpoint.api_key.empty()) req.set_header("Authorization", "Bearer " + endpoint.api_key);
    Attempt a;
    SseReader sse;
    a.start = Clock::now();
    req.response_handler = [&](const httplib::Response& r) {
        a.status = r.status;
        a.retry_after = r.get_header_value("Retry-After");
        a.content_type = r.get_header_value("Content-Type");
        return true;
    };
    req.content_receiver = [&](const char* data, size_t n, uint64_t, uint64_t) {
        if (cancelled(cancel)) return false;
        if (a.status != 200) {
            if (a.raw.size() < kMaxErrorBody) a.raw.append(data, std::min(n, kMaxErrorBody - a.raw.size()));
            return true;
        }
        return receive_answer(a, std::string_view(data, n), sse, endpoint, on_token, on_extension);
    };
    httplib::Response res;
    a.sent = client.send(req, res, a.error);
    if (a.raw.empty() && !res.body.empty()) a.raw = res.body.substr(0, a.status == 200 ? kMaxPlainBody : kMaxErrorBody);
    return a;
}

// The wait before a retry: the server's Retry-After in seconds (an HTTP date is not honoured),
// else the back-off's `delay`.
double retry_wait_s(const std::string& retry_after, double delay, double max_delay_s) {
    if (retry_after.empty()) return delay;
    char* end = nullptr;
    const double seconds = std::strtod(retry_after.c_str(), &end);
    return end != retry_after.c_str() && std::isfinite(seconds) ? std::clamp(seconds, 0.0, max_delay_s) : delay;
}

} // namespace

std::string RemoteEndpoint::describe() const {
    // Credentials in the URL itself (user:pass@host) are dropped too.
    const size_t scheme = url.find("://");
    const size_t at = url.find('@', scheme == std::string::npos ? 0 : scheme + 3);
    const size_t slash = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    if (scheme != std::string::npos && at != std::string::npos && (slash == std::string::npos || at < slash)) {
        return url.substr(0, scheme + 3) + url.substr(at + 1);
    }
    return url;
}

RemoteClient::RemoteClient(RemoteEndpoint endpoint, RetryPolicy retry, std::string origin, std::string prefix)
    : endpoint_(std::move(endpoint)), retry_(retry), origin_(std::move(origin)), prefix_(std::move(prefix)) {}

Result<RemoteClient> RemoteClient::create(RemoteEndpoint endpoint, RetryPolicy retry) {
    const std::string& url = endpoint.url;
    const size_t scheme_end = url.find("://");
    const std::string scheme = scheme_end == std::string::npos ? "" : url.substr(0, scheme_end);
    if (scheme != "http" && scheme != "https") {
        return make_error(ErrorCode::InvalidArgument, "the engine URL must start with http:// or https:// (got '" +
                                                          endpoint.describe() + "')");
    }
    const size_t host_start = scheme_end + 3;
    const size_t path_start = url.find('/', host_start);
    const std::string host = url.substr(host_start, path_start == std::string::npos ? std::string::npos : path_start - host_start);
    if (host.empty() || host.find('@') != std::string::npos || host.find_first_of(" \t") != std::string::npos) {
        return make_error(ErrorCode::InvalidArgument, "the engine URL '" + endpoint.describe() +
                                                          "' has no host (or carries credentials: use the API key instead)");
    }
    std::string prefix = path_start == std::string::npos ? "" : url.substr(path_start);
    while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
    if (prefix.size() >= 3 && prefix.compare(prefix.size() - 3, 3, "/v1") == 0) prefix.resize(prefix.size() - 3);
    return RemoteClient(std::move(endpoint), retry, scheme + "://" + host, prefix);
}

nlohmann::ordered_json RemoteClient::request_body(const RemoteRequest& r) const {
    using ordered = nlohmann::ordered_json;
    ordered body = {{"max_tokens", r.max_tokens}, {"temperature", r.sampling.temperature}, {"stream", true},
                 {"stream_options", {{"include_usage", true}}}};
    if (!r.model.empty()) body["model"] = r.model;
    if (r.chat) {
        body["messages"] = chat_messages_json(r.messages); // with tool calls and results where there are
        if (!r.tools.empty()) {
            ordered tools = ordered::array();
            for (const ChatTool& t : r.tools) tools.push_back(ordered::parse(t.declaration, nullptr, false));
            body["tools"] = std::move(tools);
            if (r.tool_choice.mode == ToolChoice::Mode::Function) {
                body["tool_choice"] = {{"type", "function"}, {"function", {{"name", r.tool_choice.function}}}};
            } else {
                body["tool_choice"] = tool_choice_text(r.tool_choice);
            }
        }
        if (r.top_logprobs > 0) {
            body["logprobs"] = true;
            body["top_logprobs"] = r.top_logprobs;
        }
    } else {
        body["prompt"] = r.prompt;
        if (r.top_logprobs > 0) body["logprobs"] = std::min(r.top_logprobs, 5);
    }
    if (r.sampling.top_p < 1.0f) body["top_p"] = r.sampling.top_p;
    if (r.sampling.top_k > 0) body["top_k"] = r.sampling.top_k;
    if (r.sampling.frequency_penalty != 0.0f) body["frequency_penalty"] = r.sampling.frequency_penalty;
    if (r.sampling.presence_penalty != 0.0f) body["presence_penalty"] = r.sampling.presence_penalty;
    if (!r.sampling.logit_bias.empty()) {
        json bias = json::object();
        for (const auto& [id, value] : r.sampling.logit_bias) bias[std::to_string(id)] = value;
        body["logit_bias"] = std::move(bias);
    }
    if (r.send_seed) body["seed"] = r.sampling.seed;
    if (!r.stop.empty()) body["stop"] = r.stop;
    if (!r.octoscope.is_null()) body["octoscope"] = r.octoscope;
    if (r.json_schema == kJsonObjectSchema) {
        body["response_format"] = {{"type", "json_object"}};
    } else if (!r.json_schema.empty()) {
        body["response_format"] = {{"type", "json_schema"},
                                   {"json_schema", {{"name", "octoscope"}, {"strict", true}, {"schema", ordered::parse(r.json_schema, nullptr, false)}}}};
    } else if (!r.grammar.empty()) {
        body["grammar"] = r.grammar; // llama.cpp's server (and Octoscope's) take GBNF
    }
    return body;
}

Result<std::vector<RemoteModel>> RemoteClient::models() const {
    httplib::Headers headers;
    if (!endpoint_.api_key.empty()) headers.emplace("Authorization", "Bearer " + endpoint_.api_key);
    double delay = retry_.first_delay_s;
    httplib::Result res{nullptr, httplib::Error::Unknown};
    for (int attempt = 0;; ++attempt) {
        httplib::Client client(origin_);
        client.set_connection_timeout(10, 0);
        client.set_read_timeout(30, 0);
        res = client.Get((prefix_ + "/v1/models").c_str(), headers);
        // As complete() does: a refused connection, 429 and 5xx are retried with back-off.
        const bool retryable = res ? res->status == 429 || res->status >= 500 : retryable_connection_error(res.error());
        if (!retryable || attempt >= retry_.max_retries) {
            if (!res) {
                return make_error(ErrorCode::Io, "cannot reach " + endpoint_.describe() + ": " + unreachable_reason(res.error(), https()) +
                                                     (attempt > 0 ? " (after " + std::to_string(attempt) + " retries)" : ""));
            }
            break;
        }
        wait(delay, nullptr);
        delay = std::min(delay * 2.0, retry_.max_delay_s);
    }
    if (res->status != 200) {
        return make_error(res->status >= 500 ? ErrorCode::Io : ErrorCode::InvalidArgument,
                          endpoint_.describe() + " /v1/models: " + error_message(res->status, res->body));
    }
    const json j = json::parse(res->body, nullptr, false);
    if (!j.is_object() || !j.contains("data") || !j["data"].is_array()) {
        return make_error(ErrorCode::Format, endpoint_.describe() + " /v1/models did not answer a model list");
    }
    std::vector<RemoteModel> models;
    for (const json& m : j["data"]) {
        if (!m.is_object() || !m.contains("id") || !m["id"].is_string()) continue;
        RemoteModel model;
        model.id = m["id"].get<std::string>();
        if (auto o = m.find("octoscope"); o != m.end() && o->is_object() && json_string_or(m, "owned_by") == "octoscope") {
            model.octoscope = true;
            model.describe = *o;
        }
        models.push_back(std::move(model));
    }
    return models;
}

Result<RemoteResult> RemoteClient::complete(const RemoteRequest& request, const std::function<void(const RemoteToken&)>& on_token,
                                            const std::atomic<bool>* cancel,
                                            const std::function<void(const nlohmann::json&)>& on_extension,
                                            const std::function<void(const RetryNotice&)>& on_retry) const {
    const std::string body = request_body(request).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    const std::string path = prefix_ + (request.chat ? "/v1/chat/completions" : "/v1/completions");
    double delay = retry_.first_delay_s;
    for (int attempt = 0;; ++attempt) {
        Attempt a = post_completion(origin_, endpoint_, path, body, cancel, on_token, on_extension);
        Stream& s = a.stream;
        s.result.retries = attempt;
        if (cancelled(cancel)) return make_error(ErrorCode::Cancelled, "cancelled");
        if (s.error) return *s.error;
        const bool unreached = !a.sent && a.status == 0;
        if (a.sent && a.status == 200) {
            if (a.content_type.find("text/event-stream") == std::string::npos) {
                auto whole = parse_answer(json::parse(a.raw, nullptr, false));
                if (!whole) return make_error(ErrorCode::Format, endpoint_.describe() + ": " + whole.error().message);
                merge(s, whole.value(), a.start, on_token, on_extension);
            }
            s.result.total_ms = ms_since(a.start);
            if (!s.any_token && s.result.finish_reason.empty()) {
                return make_error(ErrorCode::Format, endpoint_.describe() + " ended the answer without a token or a finish reason");
            }
            return std::move(s.result);
        }
        const bool retryable = (unreached ? retryable_connection_error(a.error) : !a.sent) || a.status == 429 || a.status >= 500;
        const std::string after = attempt > 0 ? " (after " + std::to_string(attempt) + " retries)" : "";
        if (retryable && !s.any_token && attempt < retry_.max_retries) {
            const double wait_s = retry_wait_s(a.retry_after, delay, retry_.max_delay_s);
            if (on_retry) {
                on_retry(RetryNotice{attempt + 1, retry_.max_retries, wait_s,
                                     unreached ? "cannot reach " + endpoint_.describe() + ": " + unreachable_reason(a.error, https())
                                               : "HTTP " + std::to_string(a.status) + ": " + error_message(a.status, a.raw)});
            }
            wait(wait_s, cancel);
            if (cancelled(cancel)) return make_error(ErrorCode::Cancelled, "cancelled");
            delay = std::min(delay * 2.0, retry_.max_delay_s);
            continue;
        }
        if (unreached) return make_error(ErrorCode::Io, "cannot reach " + endpoint_.describe() + ": " + unreachable_reason(a.error, https()) + after);
        return make_error(a.status >= 400 && a.status < 500 && a.status != 429 ? ErrorCode::InvalidArgument : ErrorCode::Io,
                          endpoint_.describe() + " answered HTTP " + std::to_string(a.status) + ": " + error_message(a.status, a.raw) + after);
    }
}

} // namespace octo::remote
