#include "engine/serve/openai_server.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <ctime>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <variant>

#include <httplib.h>
#include <openssl/evp.h>

#include "engine/chat/tool_call_format.h"
#include "engine/core/log.h"
#include "engine/core/utf8_text.h"
#include "engine/generation/prompt_builder.h"
#include "engine/instrumentation/head_map.h"
#include "engine/router/model_embedding.h"
#include "engine/serve/http_listener.h"
#include "engine/serve/openai_response.h"
#include "engine/serve/server_metrics.h"

namespace octo::serve {

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

constexpr auto kPoll = 100ms; // how often a waiting answer checks that its client is still there

void send_error(httplib::Response& res, const ApiError& e) {
    res.status = e.status;
    res.set_content(error_json(e).dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

ApiError api_error(int status, std::string message, std::string type, std::string code = {}, std::string param = {}) {
    ApiError e;
    e.status = status;
    e.message = std::move(message);
    e.type = std::move(type);
    e.code = std::move(code);
    e.param = std::move(param);
    return e;
}

// An engine error as the client sees it.
ApiError engine_error(const Error& e) {
    switch (e.code) {
    case ErrorCode::InvalidArgument:
    case ErrorCode::Tokenizer: return api_error(400, e.message, "invalid_request_error");
    case ErrorCode::OutOfMemory: return api_error(503, e.message, "server_error", "out_of_memory");
    case ErrorCode::Cancelled: return api_error(503, e.message, "server_error", "cancelled");
    default: return api_error(500, e.message, "server_error");
    }
}

uint64_t random_seed() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    return rng();
}

// Hands `handle` the events that arrived before the answer started, then each new one until every
// choice has ended. False, with the request cancelled (its sequences end, their blocks return),
// when `handle` fails to write or the client is gone.
bool follow(RequestChannel& channel, std::vector<SequenceEvent>& early, const std::function<bool(SequenceEvent&)>& handle) {
    for (SequenceEvent& e : early) {
        if (!handle(e)) {
            channel.cancel();
            return false;
        }
    }
    auto checked = std::chrono::steady_clock::now();
    while (!channel.finished()) {
        for (SequenceEvent& e : channel.wait(kPoll)) {
            if (!handle(e)) {
                channel.cancel();
                return false;
            }
        }
        // Every kPoll, however fast the tokens come: a whole answer writes nothing until the end.
        if (std::chrono::steady_clock::now() - checked >= kPoll) {
            if (!HttpListener::client_connected()) {
                channel.cancel();
                return false;
            }
            checked = std::chrono::steady_clock::now();
        }
    }
    return true;
}

// A client's text in a log line: at most 200 bytes, control characters and spaces as %XX (a
// decoded path may hold a newline that would forge a line).
std::string loggable(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size() && out.size() < 200; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c <= 0x20 || c == 0x7f) {
            static constexpr char kHex[] = "0123456789ABCDEF";
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// For the access log: the request's prompt and generated tokens (all choices).
void note_tokens(int64_t prompt, int64_t completion) {
    if (RequestRecord* r = HttpListener::current_request()) {
        r->prompt_tokens = prompt;
        r->completion_tokens = completion;
    }
}

std::string sse(const nlohmann::ordered_json& event) {
    return "data: " + event.dump(-1, ' ', false, json::error_handler_t::replace) + "\n\n";
}

// Compares every byte whatever the first difference (the key's length is not secret).
bool constant_time_equal(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

} // namespace

nlohmann::json served_head_map(const HeadMap& map) {
    nlohmann::json out = map.describe();
    const nlohmann::json doc = map.to_json();
    out["version"] = doc.at("version");
    out["layers"] = doc.at("layers");
    return out;
}

bool is_loopback_host(const std::string& host) {
    if (host == "localhost" || host == "::1" || host == "[::1]") return true;
    in_addr v4{};
    if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
    return false;
}

struct OpenAiServer::Impl {
    ServedModel model;
    ServedModelInfo info;
    ServerOptions options;
    BatchScheduler scheduler;
    HttpListener http;
    ServerMetrics metrics;
    std::atomic<bool> stopping{false};

    // Requests submitted and not yet answered in full (what a drain waits for).
    std::mutex in_flight_mutex;
    std::condition_variable in_flight_changed;
    int in_flight = 0;

    Impl(ServedModel m, ServedModelInfo i, ServerOptions o)
        : model(m), info(std::move(i)), options(std::move(o)), scheduler(m, options.scheduler), http(options.connections) {}

    // Held by a request from its submission until its answer is written or abandoned.
    std::shared_ptr<void> in_flight_ticket() {
        {
            std::lock_guard lock(in_flight_mutex);
            in_flight += 1;
        }
        return std::shared_ptr<void>(nullptr, [this](void*) {
            {
                std::lock_guard lock(in_flight_mutex);
                in_flight -= 1;
            }
            in_flight_changed.notify_all();
        });
    }

    // "Authorization: Bearer KEY": the scheme's case does not matter (RFC 9110, 11.1), nor the
    // spaces around the key.
    bool authorised(const httplib::Request& req) const {
        if (options.api_key.empty()) return true;
        const std::string value = req.get_header_value("Authorization");
        const size_t space = value.find(' ');
        if (space == std::string::npos) return false;
        std::string scheme = value.substr(0, space);
        std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        const size_t begin = value.find_first_not_of(' ', space);
        const size_t end = value.find_last_not_of(' ');
        const std::string key = begin == std::string::npos ? std::string() : value.substr(begin, end + 1 - begin);
        return constant_time_equal(key, options.api_key) && scheme == "bearer";
    }

    // The endpoints (each below), after guard_requests.
    void routes();
    // What every request passes: the body's size limit, the API key, CORS (the preflight and the
    // answer's headers), the request id, the JSON error bodies of 404/405/413/500, the access log.
    void guard_requests();
    json health() const;     // GET /health
    json model_list() const; // GET /v1/models
    // A new request while the server drains: 503 server_stopping, and the connection closes.
    bool refused_while_stopping(httplib::Response& res) const {
        if (!stopping) return false;
        HttpListener::close_after_response();
        res.set_header("Retry-After", "1");
        send_error(res, api_error(503, "the server is stopping and takes no new requests", "server_error", "server_stopping"));
        return true;
    }
    // A request naming another model than the served one: 404 model_not_found.
    bool refused_model(const std::string& asked, httplib::Response& res) const {
        if (asked.empty() || asked == info.id) return false;
        send_error(res, api_error(404, "the model '" + asked + "' does not exist here; this server serves '" + info.id + "' (GET /v1/models)",
                                  "invalid_request_error", "model_not_found", "model"));
        return true;
    }
    // After each response's last byte: the metrics and the access log line.
    void answered(const httplib::Request& req, const httplib::Response& res);
    // Each event of a generation as it reaches the request's thread: time to first token, time
    // between tokens (`first_seen`: whether the request's first token was seen already).
    void observe(const SequenceEvent& e, bool& first_seen);
    // A POST body, read here rather than by httplib (which caps form-encoded bodies at 8 KB, and
    // curl -d sends JSON as form-encoded); false, with the error answered, when it cannot be read.
    bool read_body(const httplib::Request& req, const httplib::ContentReader& reader, httplib::Response& res, std::string& body) const;
    // POST /v1/chat/completions and /v1/completions: the request read and checked, its prompt built,
    // its choices queued, then answered whole or streamed.
    void complete(const httplib::Request& req, const std::string& body, httplib::Response& res, Endpoint endpoint);
    // A request checked and its prompt built (what complete() queues), or the error to answer.
    struct PreparedCompletion {
        std::shared_ptr<CompletionRequest> request;
        BuiltPrompt prompt;
        ConversationRendering rendering; // the model's tool format, when tools are offered
        bool tools_offered = false;      // a chat request with tools and tool_choice not "none"
    };
    std::variant<ApiError, PreparedCompletion> prepare_completion(CompletionRequest request, Endpoint endpoint) const;
    std::optional<ApiError> check_logit_bias(const CompletionRequest& q) const;
    // A required tool call: the request's grammar becomes the call's (refused beside another grammar).
    std::optional<ApiError> constrain_tool_call(CompletionRequest& q, const ConversationRendering& rendering) const;
    std::shared_ptr<AnswerContext> answer_context(const PreparedCompletion& p, Endpoint endpoint) const;
    // A non-streamed answer is decided when it is complete: its status is the outcome's (an engine
    // failure, or the drain timing out, is a 5xx with no partial 200 before it).
    void answer_whole(RequestChannel& channel, const AnswerContext& context, int64_t n_prompt, httplib::Response& res);
    // What a stream's chunk writer holds on to after complete() returns.
    struct Streamed {
        std::shared_ptr<CompletionRequest> request;
        std::shared_ptr<AnswerContext> context; // points at *request
        std::shared_ptr<RequestChannel> channel;
        std::shared_ptr<void> ticket;           // the in-flight count a drain waits on
        int64_t n_prompt = 0;
    };
    void answer_stream(Streamed stream, httplib::Response& res);
    // Until every choice has started, collecting the events in `early`: false, answered, when one
    // failed (its error is the status) or the client left.
    bool wait_for_start(RequestChannel& channel, int n, std::vector<SequenceEvent>& early, bool& first_seen, httplib::Response& res);
    void stop(std::chrono::milliseconds drain, const std::function<bool()>& give_up);
    void tokenize(const std::string& body, httplib::Response& res) const;
    void embeddings(const std::string& body, httplib::Response& res);
    // The served model's embedding (the residual stream after the last layer, mean-pooled, unit
    // length): made on first use, and only ever touched on the engine thread.
    std::unique_ptr<ModelEmbedding> embedding;
    void detokenize(const std::string& body, httplib::Response& res) const;
    // The Access-Control-Allow-Origin for this request: "*", its Origin, or "" (no CORS).
    std::string allowed_origin(const httplib::Request& req) const {
        if (options.cors_origins.empty() || !req.has_header("Origin")) return {};
        const std::string origin = req.get_header_value("Origin");
        for (const std::string& allowed : options.cors_origins) {
            if (allowed == "*") return "*";
            if (allowed == origin) return origin;
        }
        return {};
    }
};

void OpenAiServer::Impl::guard_requests() {
    http.set_payload_max_length(options.max_body_bytes);
    // Once the headers are in: the body's deadline starts, and the key is checked before a byte
    // of the body is read (a client without the key cannot hold a connection with a slow body).
    http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        HttpListener::headers_read();
        // A browser's CORS preflight carries no credentials.
        if (req.path == "/health" || req.method == "OPTIONS" || authorised(req)) return httplib::Server::HandlerResponse::Unhandled;
        if (req.has_header("Content-Length") || req.has_header("Transfer-Encoding")) HttpListener::close_after_response();
        send_error(res, api_error(401, "missing or wrong API key (Authorization: Bearer …)", "authentication_error", "invalid_api_key"));
        return httplib::Server::HandlerResponse::Handled;
    });
    http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return;
        switch (res.status) {
        case 404: return send_error(res, api_error(404, "no such endpoint (POST /v1/chat/completions, POST /v1/completions, "
                                                        "GET /v1/models, POST /v1/embeddings, POST /tokenize, POST /detokenize, GET /health, GET /metrics)",
                                                   "invalid_request_error", "not_found"));
        case 413: return send_error(res, api_error(413, "the request body is too large", "invalid_request_error", "body_too_large"));
        default: return send_error(res, api_error(res.status, "the request could not be handled", res.status >= 500 ? "server_error" : "invalid_request_error"));
        }
    });
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        send_error(res, api_error(500, "internal error while handling the request", "server_error"));
    });
    // Every answer carries its request's id (the client's X-Request-Id, or one made for it).
    http.set_post_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        if (const RequestRecord* r = HttpListener::current_request(); r && !r->id.empty()) res.set_header("X-Request-Id", r->id);
        if (const std::string origin = allowed_origin(req); !origin.empty()) {
            res.set_header("Access-Control-Allow-Origin", origin);
            res.set_header("Access-Control-Expose-Headers", "X-Request-Id, Retry-After");
            if (origin != "*") res.set_header("Vary", "Origin");
        }
    });
    // CORS preflight: what a browser page on an allowed origin may send.
    http.Options(".*", [this](const httplib::Request& req, httplib::Response& res) {
        if (allowed_origin(req).empty()) {
            res.set_header("Allow", "GET, POST");
            return send_error(res, api_error(405, "OPTIONS answers only a CORS preflight from an origin --cors-origin allows",
                                             "invalid_request_error", "method_not_allowed"));
        }
        res.status = 204;
        res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
        res.set_header("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Request-Id");
        res.set_header("Access-Control-Max-Age", "600");
    });
    http.set_logger([this](const httplib::Request& req, const httplib::Response& res) { answered(req, res); });
}

json OpenAiServer::Impl::health() const {
    const SchedulerStats s = scheduler.stats();
    return {{"status", "ok"},
            {"model", info.id},
            {"running", s.running},
            {"waiting", s.waiting},
            {"completed", s.completed},
            {"cancelled", s.cancelled},
            {"failed", s.failed},
            {"kv", {{"blocks_total", s.kv.blocks_total}, {"blocks_used", s.kv.blocks_used}, {"blocks_cached", s.kv.blocks_cached}}},
            {"connections", {{"open", http.open_connections()}, {"refused", http.refused_connections()}, {"timed_out", http.timed_out_connections()}}}};
}

json OpenAiServer::Impl::model_list() const {
    json entry = {{"id", info.id}, {"object", "model"}, {"created", info.created}, {"owned_by", "octoscope"}};
    entry["octoscope"] = info.describe;
    entry["octoscope"]["n_ctx"] = info.n_ctx;
    entry["octoscope"]["fingerprint"] = info.fingerprint;
    return {{"object", "list"}, {"data", json::array({entry})}};
}

void OpenAiServer::Impl::routes() {
    guard_requests();
    const auto wrong_method = [](const char* allowed) {
        return [allowed](const httplib::Request&, httplib::Response& res) {
            res.set_header("Allow", allowed);
            send_error(res, api_error(405, std::string("this endpoint takes ") + allowed, "invalid_request_error", "method_not_allowed"));
        };
    };
    const auto text_tool = [this](bool detokenize) {
        return [this, detokenize](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
            std::string body;
            if (!read_body(req, reader, res, body)) return;
            if (detokenize) return this->detokenize(body, res);
            tokenize(body, res);
        };
    };
    http.Post("/tokenize", text_tool(false));
    http.Post("/v1/embeddings", [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
        std::string body;
        if (read_body(req, reader, res, body)) embeddings(body, res);
    });
    http.Get("/v1/embeddings", wrong_method("POST"));
    http.Post("/detokenize", text_tool(true));
    http.Get("/metrics", [this](const httplib::Request&, httplib::Response& res) {
        const ConnectionCounts connections{http.open_connections(), http.refused_connections(), http.timed_out_connections()};
        res.set_content(metrics.render(scheduler.stats(), connections), "text/plain; version=0.0.4; charset=utf-8");
    });
    http.Get("/health", [this](const httplib::Request&, httplib::Response& res) { res.set_content(health().dump(), "application/json"); });
    http.Get("/v1/models", [this](const httplib::Request&, httplib::Response& res) { res.set_content(model_list().dump(), "application/json"); });
    const auto generation = [this](Endpoint endpoint) {
        return [this, endpoint](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
            std::string body;
            if (read_body(req, reader, res, body)) complete(req, body, res, endpoint);
        };
    };
    http.Post("/v1/chat/completions", generation(Endpoint::Chat));
    http.Post("/v1/completions", generation(Endpoint::Completion));
    http.Post("/health", wrong_method("GET"));
    http.Post("/metrics", wrong_method("GET"));
    http.Get("/tokenize", wrong_method("POST"));
    http.Get("/detokenize", wrong_method("POST"));
    http.Post("/v1/models", wrong_method("GET"));
    http.Get("/v1/chat/completions", wrong_method("POST"));
    http.Get("/v1/completions", wrong_method("POST"));
}

bool OpenAiServer::Impl::read_body(const httplib::Request& req, const httplib::ContentReader& reader, httplib::Response& res,
                                   std::string& body) const {
    if (req.is_multipart_form_data()) {
        HttpListener::close_after_response(); // the body is not read
        send_error(res, api_error(415, "the body must be JSON (Content-Type: application/json), not multipart form data",
                                  "invalid_request_error", "unsupported_media_type"));
        return false;
    }
    bool too_large = false;
    const bool read = reader([&](const char* data, size_t n) {
        too_large = body.size() + n > options.max_body_bytes; // a chunked body has no Content-Length to check first
        if (!too_large) body.append(data, n);
        return !too_large;
    });
    if (read) return true;
    // httplib set the status: 413 over --max-body, 400 for a broken or late body.
    HttpListener::close_after_response(); // the rest of the body is not read
    if (too_large || res.status == 413) {
        send_error(res, api_error(413, "the request body is too large (--max-body " + std::to_string(options.max_body_bytes) + " bytes)",
                                  "invalid_request_error", "body_too_large"));
    } else {
        send_error(res, api_error(400, "the request body could not be read (cut short, malformed or too slow)",
                                  "invalid_request_error", "body_unreadable"));
    }
    return false;
}

void OpenAiServer::Impl::tokenize(const std::string& body, httplib::Response& res) const {
    auto parsed = parse_tokenize_request(body, options.limits);
    if (const auto* e = std::get_if<ApiError>(&parsed)) return send_error(res, *e);
    const TokenizeRequest& t = std::get<TokenizeRequest>(parsed);
    Result<std::vector<int32_t>> ids = std::vector<int32_t>{};
    if (!t.messages.empty() || t.add_special) {
        // As a chat or completions request would tokenize it.
        PromptSpec spec;
        spec.chat = !t.messages.empty();
        spec.messages = t.messages;
        spec.prompt = t.text;
        const Result<BuiltPrompt> built = build_prompt(model.model->file(), *model.tokenizer, spec);
        if (!built) return send_error(res, engine_error(built.error()));
        ids = built->ids;
    } else {
        ids = model.tokenizer->encode(t.text, false, false);
        if (!ids) return send_error(res, engine_error(ids.error()));
    }
    json tokens = json::array();
    for (const int32_t id : *ids) {
        if (t.with_pieces) {
            tokens.push_back({{"id", id}, {"piece", valid_utf8(model.tokenizer->token_bytes(id))}});
        } else {
            tokens.push_back(id);
        }
    }
    const json out = {{"tokens", std::move(tokens)}, {"count", ids->size()}, {"max_model_len", info.n_ctx}};
    res.set_content(out.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void OpenAiServer::Impl::detokenize(const std::string& body, httplib::Response& res) const {
    auto parsed = parse_detokenize_request(body);
    if (const auto* e = std::get_if<ApiError>(&parsed)) return send_error(res, *e);
    const std::vector<int32_t>& ids = std::get<std::vector<int32_t>>(parsed);
    for (const int32_t id : ids) {
        if (id >= model.tokenizer->n_tokens()) {
            return send_error(res, api_error(400, "'tokens' holds " + std::to_string(id) + "; the vocabulary has " +
                                                      std::to_string(model.tokenizer->n_tokens()) + " tokens",
                                             "invalid_request_error", "invalid_token", "tokens"));
        }
    }
    // Special tokens written out ("<|im_start|>"), as llama.cpp's and vLLM's detokenize do.
    const std::string text = valid_utf8(model.tokenizer->decode(ids, /*render_special=*/true));
    res.set_content(json{{"content", text}, {"prompt", text}}.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void OpenAiServer::Impl::embeddings(const std::string& body, httplib::Response& res) {
    const std::shared_ptr<void> ticket = in_flight_ticket();
    if (refused_while_stopping(res)) return;
    auto parsed = parse_embeddings_request(body);
    if (const auto* e = std::get_if<ApiError>(&parsed)) return send_error(res, *e);
    auto q = std::make_shared<EmbeddingsRequest>(std::move(std::get<EmbeddingsRequest>(parsed)));
    if (refused_model(q->model, res)) return;
    // Tokens as a completion of the text sees them: the usage, and the context's limit.
    int64_t prompt_tokens = 0;
    for (size_t i = 0; i < q->inputs.size(); ++i) {
        PromptSpec spec;
        spec.prompt = q->inputs[i];
        const Result<BuiltPrompt> built = build_prompt(model.model->file(), *model.tokenizer, spec);
        if (!built) return send_error(res, engine_error(built.error()));
        const auto n = static_cast<int64_t>(built->ids.size());
        if (n > info.n_ctx) {
            return send_error(res, api_error(400, "input " + std::to_string(i) + " has " + std::to_string(n) + " tokens; the context holds " +
                                                      std::to_string(info.n_ctx), "invalid_request_error", "context_length_exceeded", "input"));
        }
        prompt_tokens += n;
    }
    // The backend is the engine thread's: the vectors are computed there, between two steps.
    struct Outcome {
        std::optional<Error> error;
        std::vector<std::vector<float>> vectors;
    };
    auto promise = std::make_shared<std::promise<Outcome>>();
    std::future<Outcome> done = promise->get_future();
    scheduler.run_on_engine([this, q, promise](bool run) {
        Outcome o;
        if (!run) {
            o.error = make_error(ErrorCode::Cancelled, "the server is stopping");
        } else {
            if (!embedding) {
                auto made = ModelEmbedding::create(*model.model, *model.backend, *model.tokenizer, model.model->params().n_layer - 1,
                                                   /*cache_centroids=*/false);
                if (made) embedding = std::move(made.value());
                else o.error = made.error();
            }
            for (size_t i = 0; embedding && i < q->inputs.size(); ++i) o.vectors.push_back(embedding->embed(q->inputs[i]));
        }
        promise->set_value(std::move(o));
    });
    while (done.wait_for(kPoll) != std::future_status::ready) {
        if (!HttpListener::client_connected()) return; // the task finishes on its own; nobody reads it
    }
    const Outcome o = done.get();
    if (o.error) return send_error(res, engine_error(*o.error));
    note_tokens(prompt_tokens, 0);
    json data = json::array();
    for (size_t i = 0; i < o.vectors.size(); ++i) {
        json entry = {{"object", "embedding"}, {"index", i}};
        if (q->base64) {
            // Little-endian float32s, base64-encoded (OpenAI's format; the clients decode it).
            const auto* bytes = reinterpret_cast<const unsigned char*>(o.vectors[i].data());
            const int n = static_cast<int>(o.vectors[i].size() * sizeof(float));
            std::string text(static_cast<size_t>(4 * ((n + 2) / 3)), '\0');
            EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()), bytes, n);
            entry["embedding"] = std::move(text);
        } else {
            entry["embedding"] = o.vectors[i];
        }
        data.push_back(std::move(entry));
    }
    const json out = {{"object", "list"}, {"data", std::move(data)}, {"model", info.id},
                      {"usage", {{"prompt_tokens", prompt_tokens}, {"total_tokens", prompt_tokens}}}};
    res.set_content(out.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void OpenAiServer::Impl::observe(const SequenceEvent& e, bool& first_seen) {
    if (e.kind == SequenceEvent::Kind::Prompt && !first_seen) {
        first_seen = true;
        if (const RequestRecord* r = HttpListener::current_request()) metrics.first_token(seconds_since(r->started));
    }
    // A token's ms is since the previous one; a choice's first token's is since its start.
    if (e.kind == SequenceEvent::Kind::Token && e.token.ms > 0.0 && e.token_index > 0) metrics.between_tokens(e.token.ms / 1000.0);
}

void OpenAiServer::Impl::answered(const httplib::Request& req, const httplib::Response& res) {
    const RequestRecord* r = HttpListener::current_request();
    const double seconds = r ? seconds_since(r->started) : 0.0;
    static const std::set<std::string> kRoutes = {"/health",          "/metrics",  "/v1/models", "/v1/chat/completions",
                                                  "/v1/completions", "/tokenize", "/detokenize", "/v1/embeddings"};
    const std::string endpoint = kRoutes.count(req.path) ? req.path : "other";
    metrics.request_answered(endpoint, res.status, seconds);
    if (endpoint == "/health" || endpoint == "/metrics") return; // probes would drown the log
    const int64_t ms = static_cast<int64_t>(seconds * 1000.0 + 0.5);
    const int64_t prompt = r ? r->prompt_tokens : -1;
    const int64_t completion = r ? r->completion_tokens : -1;
    const std::string id = r ? r->id : std::string();
    if (options.log_json) {
        nlohmann::ordered_json line = {{"event", "access"}, {"id", id}, {"remote", req.remote_addr}, {"method", req.method},
                                       {"path", loggable(req.path)}, {"status", res.status}};
        if (prompt >= 0) line["prompt_tokens"] = prompt;
        if (completion >= 0) line["completion_tokens"] = completion;
        line["ms"] = ms;
        log_message(LogLevel::Info, line.dump(-1, ' ', false, json::error_handler_t::replace));
        return;
    }
    std::string line = "access " + id + " " + req.remote_addr + " " + (req.method.empty() ? "-" : loggable(req.method)) + " " +
                       loggable(req.path) + " " + std::to_string(res.status);
    if (prompt >= 0) line += " tokens " + std::to_string(prompt) + "+" + std::to_string(completion);
    line += " " + std::to_string(ms) + " ms";
    log_message(LogLevel::Info, line);
}

std::optional<ApiError> OpenAiServer::Impl::check_logit_bias(const CompletionRequest& q) const {
    const int64_t n_tokens = model.tokenizer->n_tokens();
    for (const auto& [id, bias] : q.run.sampling.logit_bias) {
        if (id >= n_tokens) {
            return api_error(400, "'logit_bias' names token " + std::to_string(id) + "; the vocabulary has " + std::to_string(n_tokens) +
                                      " (ids 0 to " + std::to_string(n_tokens - 1) + ")",
                             "invalid_request_error", "invalid_logit_bias", "logit_bias");
        }
    }
    return std::nullopt;
}

std::optional<ApiError> OpenAiServer::Impl::constrain_tool_call(CompletionRequest& q, const ConversationRendering& rendering) const {
    if (!q.run.tool_choice.forces_call()) return std::nullopt;
    if (!q.run.grammar.empty()) {
        return api_error(400, "a required tool call ('tool_choice') and 'response_format' or 'grammar' cannot both constrain a request",
                         "invalid_request_error", "", "tool_choice");
    }
    auto gbnf = tool_call_grammar(rendering.tmpl, q.run.tools, q.run.tool_choice);
    if (!gbnf) {
        return api_error(400, gbnf.error().message, "invalid_request_error", "", gbnf.error().code == ErrorCode::Unsupported ? "tools" : "tool_choice");
    }
    q.run.grammar = std::move(gbnf.value());
    return std::nullopt;
}

std::variant<ApiError, OpenAiServer::Impl::PreparedCompletion> OpenAiServer::Impl::prepare_completion(CompletionRequest request,
                                                                                                      Endpoint endpoint) const {
    PreparedCompletion p;
    p.request = std::make_shared<CompletionRequest>(std::move(request));
    CompletionRequest& q = *p.request;
    if (auto e = check_logit_bias(q)) return *e;
    // Tools: written in the model's tool format, read back from each answer; a required call is
    // constrained to the format and the tool's parameters. (Only a request with tools needs the
    // format; build_prompt recognises the template itself.)
    p.tools_offered = endpoint == Endpoint::Chat && !q.run.tools.empty() && q.run.tool_choice.mode != ToolChoice::Mode::None;
    if (p.tools_offered) {
        p.rendering = conversation_rendering(model.model->file());
        if (auto e = constrain_tool_call(q, p.rendering)) return *e;
    }
    const char* prompt_param = endpoint == Endpoint::Chat ? "messages" : "prompt";
    Result<BuiltPrompt> prompt = build_prompt(model.model->file(), *model.tokenizer, q.run);
    if (!prompt) {
        if (p.tools_offered && prompt.error().code == ErrorCode::Unsupported) { // the model's format has no tools
            return api_error(400, prompt.error().message, "invalid_request_error", "", "tools");
        }
        ApiError e = engine_error(prompt.error());
        e.param = prompt_param;
        return e;
    }
    p.prompt = std::move(prompt.value());
    const auto n_prompt = static_cast<int64_t>(p.prompt.ids.size());
    if (n_prompt >= info.n_ctx) {
        return api_error(400, "the prompt has " + std::to_string(n_prompt) + " tokens; the context holds " + std::to_string(info.n_ctx) +
                                  " with room for at least one generated token",
                         "invalid_request_error", "context_length_exceeded", prompt_param);
    }
    return p;
}

std::shared_ptr<AnswerContext> OpenAiServer::Impl::answer_context(const PreparedCompletion& p, Endpoint endpoint) const {
    const CompletionRequest& q = *p.request;
    auto context = std::make_shared<AnswerContext>();
    context->request = p.request.get();
    context->tokenizer = model.tokenizer;
    context->id = random_id(endpoint == Endpoint::Chat ? "chatcmpl-" : "cmpl-", 24);
    context->created = static_cast<int64_t>(std::time(nullptr));
    context->model = info.id;
    context->fingerprint = info.fingerprint;
    context->metric = q.octoscope.metric.value_or(default_metric(*model.model));
    context->n_layer = model.model->params().n_layer;
    context->n_expert = model.model->params().n_expert;
    context->head_map = model.map;
    context->prompt_ids = p.prompt.ids;
    context->prompt_text = p.prompt.text;
    if (p.tools_offered) {
        context->tool_format = p.rendering.tmpl;
        if (q.run.tool_choice.forces_call()) {
            if (auto opening = tool_call_opening(p.rendering.tmpl, q.run.tools, q.run.tool_choice)) context->tool_call_opening = *opening;
        }
        context->tool_ids = random_seed();
    }
    return context;
}

void OpenAiServer::Impl::complete(const httplib::Request&, const std::string& body, httplib::Response& res, Endpoint endpoint) {
    const std::shared_ptr<void> ticket = in_flight_ticket(); // taken before the check: a drain that starts now waits for it
    if (refused_while_stopping(res)) return;
    auto parsed = parse_completion_request(body, endpoint, options.limits);
    if (const auto* e = std::get_if<ApiError>(&parsed)) return send_error(res, *e);
    if (refused_model(std::get<CompletionRequest>(parsed).model, res)) return;
    auto prepared = prepare_completion(std::move(std::get<CompletionRequest>(parsed)), endpoint);
    if (const auto* e = std::get_if<ApiError>(&prepared)) return send_error(res, *e);
    const PreparedCompletion& p = std::get<PreparedCompletion>(prepared);
    const CompletionRequest& q = *p.request;

    const uint64_t seed = q.seed_given ? q.run.sampling.seed : random_seed();
    std::vector<SequenceRequest> sequences;
    for (int i = 0; i < q.n; ++i) {
        SequenceRequest s{q.run, p.prompt.ids, q.octoscope.enabled};
        s.spec.sampling.seed = seed + static_cast<uint64_t>(i); // choice i: seed + i
        sequences.push_back(std::move(s));
    }
    auto channel = std::make_shared<RequestChannel>(q.n);
    if (!scheduler.submit(std::move(sequences), channel)) {
        res.set_header("Retry-After", "1");
        return send_error(res, api_error(429, std::to_string(options.scheduler.max_queue) + " requests are waiting already (--max-queue); retry later",
                                         "rate_limit_exceeded", "rate_limit_exceeded"));
    }
    const std::shared_ptr<AnswerContext> context = answer_context(p, endpoint);
    const auto n_prompt = static_cast<int64_t>(p.prompt.ids.size());
    if (q.stream) return answer_stream(Streamed{p.request, context, channel, ticket, n_prompt}, res);
    answer_whole(*channel, *context, n_prompt, res);
}

void OpenAiServer::Impl::answer_whole(RequestChannel& channel, const AnswerContext& context, int64_t n_prompt, httplib::Response& res) {
    const CompletionRequest& q = *context.request;
    std::vector<ChoiceRecord> records(static_cast<size_t>(q.n));
    std::optional<Error> failure;
    std::vector<SequenceEvent> none;
    bool first_seen = false;
    const auto take = [&](SequenceEvent& e) {
        observe(e, first_seen);
        ChoiceRecord& r = records[static_cast<size_t>(e.choice)];
        switch (e.kind) {
        case SequenceEvent::Kind::Prompt: r.prompt_metrics = std::move(e.prompt_metrics); break;
        case SequenceEvent::Kind::Token:
            r.tokens.push_back(std::move(e.token));
            r.metrics.push_back(std::move(e.metrics));
            break;
        case SequenceEvent::Kind::Done:
            r.result = std::move(e.result);
            r.kv = e.kv;
            break;
        case SequenceEvent::Kind::Failed:
            if (!failure) failure = e.error;
            break;
        }
        return true;
    };
    if (!follow(channel, none, take)) return; // the client left: nobody reads an answer
    if (failure) return send_error(res, engine_error(*failure));
    int64_t completion_tokens = 0;
    for (const ChoiceRecord& r : records) completion_tokens += static_cast<int64_t>(r.tokens.size());
    note_tokens(n_prompt, completion_tokens);
    metrics.tokens(n_prompt * q.n, completion_tokens);
    res.set_content(answer_json(context, records).dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

bool OpenAiServer::Impl::wait_for_start(RequestChannel& channel, int n, std::vector<SequenceEvent>& early, bool& first_seen,
                                        httplib::Response& res) {
    int started = 0;
    while (started < n) {
        for (SequenceEvent& e : channel.wait(kPoll)) {
            observe(e, first_seen);
            if (e.kind == SequenceEvent::Kind::Failed) {
                channel.cancel();
                send_error(res, engine_error(e.error));
                return false;
            }
            if (e.kind == SequenceEvent::Kind::Prompt) started += 1;
            early.push_back(std::move(e));
        }
        if (started < n && !HttpListener::client_connected()) {
            channel.cancel(); // gone before its first token: its sequences end, their blocks return
            return false;
        }
    }
    return true;
}

void OpenAiServer::Impl::answer_stream(Streamed stream, httplib::Response& res) {
    // A stream's status is sent with its first chunk: until every choice has started (its prompt
    // evaluated, the first token chosen), an error is still the answer's status.
    auto early = std::make_shared<std::vector<SequenceEvent>>();
    auto first_seen = std::make_shared<bool>(false);
    if (!wait_for_start(*stream.channel, stream.request->n, *early, *first_seen, res)) return;

    const auto releaser = [channel = stream.channel](bool) {
        if (!channel->finished()) channel->cancel(); // the client went away: its sequences end, their blocks return
    };
    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, stream, early, first_seen](size_t, httplib::DataSink& sink) {
            const CompletionRequest& q = *stream.request;
            const AnswerContext& context = *stream.context;
            std::vector<std::string> sent(static_cast<size_t>(q.n)); // text each choice has sent
            int64_t completion_tokens = 0;
            const auto write = [&](const nlohmann::ordered_json& event) {
                const std::string line = sse(event);
                return sink.write(line.data(), line.size());
            };
            size_t replayed = 0; // the early events were observed as they came
            const auto send = [&](SequenceEvent& e) {
                if (replayed < early->size()) {
                    replayed += 1;
                } else {
                    observe(e, *first_seen);
                }
                std::string& text = sent[static_cast<size_t>(e.choice)];
                switch (e.kind) {
                case SequenceEvent::Kind::Prompt: return write(first_chunk_json(context, e.choice, e.prompt_metrics));
                case SequenceEvent::Kind::Token: {
                    completion_tokens += 1;
                    const std::string released = context.tool_format ? std::string() : e.token.visible_text; // held back with tools
                    text += released;
                    return write(token_chunk_json(context, e.choice, e.token, released, q.octoscope.enabled ? &e.metrics : nullptr));
                }
                case SequenceEvent::Kind::Done: {
                    const std::string rest = e.result.text.size() > text.size() ? e.result.text.substr(text.size()) : std::string();
                    return write(last_chunk_json(context, e.choice, rest, e.result, e.kv));
                }
                case SequenceEvent::Kind::Failed: return write(error_json(engine_error(e.error)));
                }
                return true;
            };
            const bool followed = follow(*stream.channel, *early, send);
            note_tokens(stream.n_prompt, completion_tokens);
            if (!followed) return false;
            metrics.tokens(stream.n_prompt * q.n, completion_tokens);
            if (q.include_usage && !write(usage_chunk_json(context, completion_tokens))) return false;
            static constexpr std::string_view kDone = "data: [DONE]\n\n";
            if (!sink.write(kDone.data(), kDone.size())) return false;
            sink.done();
            return true;
        },
        releaser);
}

OpenAiServer::OpenAiServer(ServedModel model, ServedModelInfo info, ServerOptions options)
    : impl_(std::make_unique<Impl>(model, std::move(info), std::move(options))) {
    impl_->routes();
}

OpenAiServer::~OpenAiServer() { stop(); }

Status OpenAiServer::bind() {
    const ServerOptions& o = impl_->options;
    if (!is_loopback_host(o.host) && o.api_key.empty()) {
        return make_error(ErrorCode::InvalidArgument, "--host " + o.host +
                                                          " is reachable from other machines: set --api-key (or bind 127.0.0.1)");
    }
    if (o.port < 0 || o.port > 65535) return make_error(ErrorCode::InvalidArgument, "--port must be 0..65535");
    const int port = o.port == 0 ? impl_->http.bind_to_any_port(o.host) : (impl_->http.bind_to_port(o.host, o.port) ? o.port : -1);
    if (port <= 0) {
        return make_error(ErrorCode::Io, "cannot listen on " + o.host + ":" + std::to_string(o.port) +
                                             " (in use, or not an address of this machine)");
    }
    impl_->http.set_backlog(1024); // httplib listens with a backlog of 5: a burst of clients waited seconds to connect
    port_ = port;
    return Ok{};
}

Status OpenAiServer::serve() {
    if (port_ <= 0) return make_error(ErrorCode::InvalidArgument, "bind() first");
    if (!impl_->http.listen_after_bind() && !impl_->stopping) {
        return make_error(ErrorCode::Io, "the server stopped listening unexpectedly");
    }
    return Ok{};
}

void OpenAiServer::stop(std::chrono::milliseconds drain, const std::function<bool()>& give_up) {
    if (impl_) impl_->stop(drain, give_up);
}

void OpenAiServer::Impl::stop(std::chrono::milliseconds drain, const std::function<bool()>& give_up) {
    if (stopping.exchange(true)) return;
    http.stop(); // no new connections; idle ones close, busy ones after their answer
    std::unique_lock lock(in_flight_mutex);
    const int at_stop = in_flight;
    if (at_stop > 0 && drain.count() > 0) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f", static_cast<double>(drain.count()) / 1000.0);
        log_message(LogLevel::Info, "stopping: draining " + std::to_string(at_stop) + " request(s) in flight for up to " +
                                        seconds + " s (Ctrl+C again cancels them)");
        const auto deadline = std::chrono::steady_clock::now() + drain;
        while (in_flight > 0 && std::chrono::steady_clock::now() < deadline && !(give_up && give_up())) {
            in_flight_changed.wait_for(lock, kPoll);
        }
    }
    const int left = in_flight;
    lock.unlock();
    if (at_stop > 0) {
        log_message(left == 0 ? LogLevel::Info : LogLevel::Warning,
                    "stopping: " + std::to_string(at_stop - std::min(left, at_stop)) + " of " + std::to_string(at_stop) +
                        " request(s) in flight finished; " + std::to_string(left) + " cancelled (503 \"the server is stopping\")");
    }
    scheduler.shutdown(); // what is left ends with "the server is stopping", so that the HTTP threads can finish
}

SchedulerStats OpenAiServer::stats() const { return impl_->scheduler.stats(); }

} // namespace octo::serve
