#include "engine/serve/openai_server.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <ctime>
#include <functional>
#include <random>

#include <httplib.h>

#include "engine/generation/prompt_builder.h"
#include "engine/instrumentation/head_map.h"
#include "engine/serve/openai_response.h"

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

std::string random_id(const char* prefix) {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = prefix;
    for (int i = 0; i < 24; ++i) out.push_back(kDigits[rng() & 15]);
    return out;
}

uint64_t random_seed() {
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    return rng();
}

// Hands `handle` the events that arrived before the answer started, then each new one until every
// choice has ended. False, with the request cancelled (its sequences end, their blocks return),
// when `handle` fails to write or the client is gone.
bool follow(RequestChannel& channel, std::vector<SequenceEvent>& early, httplib::DataSink& sink,
            const std::function<bool(SequenceEvent&)>& handle) {
    for (SequenceEvent& e : early) {
        if (!handle(e)) {
            channel.cancel();
            return false;
        }
    }
    while (!channel.finished()) {
        auto events = channel.wait(kPoll);
        for (SequenceEvent& e : events) {
            if (!handle(e)) {
                channel.cancel();
                return false;
            }
        }
        if (events.empty() && !sink.is_writable()) {
            channel.cancel();
            return false;
        }
    }
    return true;
}

std::string sse(const json& event) {
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
    httplib::Server http;
    std::atomic<bool> stopping{false};

    Impl(ServedModel m, ServedModelInfo i, ServerOptions o)
        : model(m), info(std::move(i)), options(std::move(o)), scheduler(m, options.scheduler) {}

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

    void routes();
    void complete(const httplib::Request& req, httplib::Response& res, Endpoint endpoint);
};

void OpenAiServer::Impl::routes() {
    http.set_payload_max_length(options.max_body_bytes);
    // Each waiting or running request holds an HTTP thread: enough of them that the scheduler's
    // queue, not the thread pool's, decides when to refuse.
    const auto threads = static_cast<size_t>(std::clamp(options.scheduler.parallel + options.scheduler.max_queue + 4, 8, 1024));
    http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
        if (!res.body.empty()) return;
        switch (res.status) {
        case 404: return send_error(res, api_error(404, "no such endpoint (POST /v1/chat/completions, POST /v1/completions, "
                                                        "GET /v1/models, GET /health)", "invalid_request_error", "not_found"));
        case 413: return send_error(res, api_error(413, "the request body is too large", "invalid_request_error", "body_too_large"));
        default: return send_error(res, api_error(res.status, "the request could not be handled", res.status >= 500 ? "server_error" : "invalid_request_error"));
        }
    });
    http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        send_error(res, api_error(500, "internal error while handling the request", "server_error"));
    });
    const auto wrong_method = [](const char* allowed) {
        return [allowed](const httplib::Request&, httplib::Response& res) {
            res.set_header("Allow", allowed);
            send_error(res, api_error(405, std::string("this endpoint takes ") + allowed, "invalid_request_error", "method_not_allowed"));
        };
    };
    http.Get("/health", [this](const httplib::Request&, httplib::Response& res) {
        const SchedulerStats s = scheduler.stats();
        const json body = {{"status", "ok"},
                           {"model", info.id},
                           {"running", s.running},
                           {"waiting", s.waiting},
                           {"completed", s.completed},
                           {"cancelled", s.cancelled},
                           {"failed", s.failed},
                           {"kv", {{"blocks_total", s.kv.blocks_total}, {"blocks_used", s.kv.blocks_used}, {"blocks_cached", s.kv.blocks_cached}}}};
        res.set_content(body.dump(), "application/json");
    });
    http.Get("/v1/models", [this](const httplib::Request& req, httplib::Response& res) {
        if (!authorised(req)) return send_error(res, api_error(401, "missing or wrong API key (Authorization: Bearer …)", "authentication_error", "invalid_api_key"));
        json entry = {{"id", info.id}, {"object", "model"}, {"created", info.created}, {"owned_by", "octoscope"}};
        entry["octoscope"] = info.describe;
        entry["octoscope"]["n_ctx"] = info.n_ctx;
        entry["octoscope"]["fingerprint"] = info.fingerprint;
        res.set_content(json{{"object", "list"}, {"data", json::array({entry})}}.dump(), "application/json");
    });
    http.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) { complete(req, res, Endpoint::Chat); });
    http.Post("/v1/completions", [this](const httplib::Request& req, httplib::Response& res) { complete(req, res, Endpoint::Completion); });
    http.Post("/health", wrong_method("GET"));
    http.Post("/v1/models", wrong_method("GET"));
    http.Get("/v1/chat/completions", wrong_method("POST"));
    http.Get("/v1/completions", wrong_method("POST"));
}

void OpenAiServer::Impl::complete(const httplib::Request& req, httplib::Response& res, Endpoint endpoint) {
    if (!authorised(req)) {
        return send_error(res, api_error(401, "missing or wrong API key (Authorization: Bearer …)", "authentication_error", "invalid_api_key"));
    }
    auto parsed = parse_completion_request(req.body, endpoint, options.limits);
    if (const auto* e = std::get_if<ApiError>(&parsed)) return send_error(res, *e);
    auto q = std::make_shared<CompletionRequest>(std::move(std::get<CompletionRequest>(parsed)));
    if (!q->model.empty() && q->model != info.id) {
        return send_error(res, api_error(404, "the model '" + q->model + "' does not exist here; this server serves '" + info.id +
                                                  "' (GET /v1/models)", "invalid_request_error", "model_not_found", "model"));
    }

    const Result<BuiltPrompt> prompt = build_prompt(model.model->file(), *model.tokenizer, q->run);
    if (!prompt) {
        ApiError e = engine_error(prompt.error());
        e.param = endpoint == Endpoint::Chat ? "messages" : "prompt";
        return send_error(res, e);
    }
    const auto n_prompt = static_cast<int64_t>(prompt->ids.size());
    if (n_prompt >= info.n_ctx) {
        return send_error(res, api_error(400, "the prompt has " + std::to_string(n_prompt) + " tokens; the context holds " +
                                                  std::to_string(info.n_ctx) + " with room for at least one generated token",
                                         "invalid_request_error", "context_length_exceeded",
                                         endpoint == Endpoint::Chat ? "messages" : "prompt"));
    }

    const uint64_t seed = q->seed_given ? q->run.sampling.seed : random_seed();
    std::vector<SequenceRequest> sequences;
    for (int i = 0; i < q->n; ++i) {
        SequenceRequest s{q->run, prompt->ids, q->octoscope.enabled};
        s.spec.sampling.seed = seed + static_cast<uint64_t>(i); // choice i: seed + i
        sequences.push_back(std::move(s));
    }
    auto channel = std::make_shared<RequestChannel>(q->n);
    if (!scheduler.submit(std::move(sequences), channel)) {
        res.set_header("Retry-After", "1");
        return send_error(res, api_error(429, std::to_string(options.scheduler.max_queue) +
                                                  " requests are waiting already (--max-queue); retry later",
                                         "rate_limit_exceeded", "rate_limit_exceeded"));
    }

    auto context = std::make_shared<AnswerContext>();
    context->request = q.get();
    context->tokenizer = model.tokenizer;
    context->id = random_id(endpoint == Endpoint::Chat ? "chatcmpl-" : "cmpl-");
    context->created = static_cast<int64_t>(std::time(nullptr));
    context->model = info.id;
    context->fingerprint = info.fingerprint;
    context->metric = q->octoscope.metric.value_or(default_metric(*model.model));
    context->n_layer = model.model->params().n_layer;
    context->n_expert = model.model->params().n_expert;
    context->prompt_ids = prompt->ids;
    context->prompt_text = prompt->text;

    // Until every choice has started (its prompt evaluated, the first token chosen), an error is
    // still the answer's status.
    auto early = std::make_shared<std::vector<SequenceEvent>>();
    int started = 0;
    while (started < q->n) {
        for (SequenceEvent& e : channel->wait(kPoll)) {
            if (e.kind == SequenceEvent::Kind::Failed) {
                channel->cancel();
                return send_error(res, engine_error(e.error));
            }
            if (e.kind == SequenceEvent::Kind::Prompt) started += 1;
            early->push_back(std::move(e));
        }
        if (stopping) {
            channel->cancel();
            return send_error(res, api_error(503, "the server is stopping", "server_error"));
        }
    }

    const auto releaser = [channel](bool) {
        if (!channel->finished()) channel->cancel(); // the client went away: its sequences end, their blocks return
    };
    if (!q->stream) {
        res.set_chunked_content_provider(
            "application/json",
            [q, context, channel, early](size_t, httplib::DataSink& sink) {
                std::vector<ChoiceRecord> records(static_cast<size_t>(q->n));
                std::optional<Error> failure;
                const auto take = [&](SequenceEvent& e) {
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
                if (!follow(*channel, *early, sink, take)) return false;
                const json body = failure ? error_json(engine_error(*failure)) : answer_json(*context, records);
                const std::string text = body.dump(-1, ' ', false, json::error_handler_t::replace);
                if (!sink.write(text.data(), text.size())) return false;
                sink.done();
                return true;
            },
            releaser);
        return;
    }

    res.set_header("Cache-Control", "no-cache");
    res.set_chunked_content_provider(
        "text/event-stream",
        [q, context, channel, early](size_t, httplib::DataSink& sink) {
            std::vector<std::string> sent(static_cast<size_t>(q->n)); // text each choice has sent
            int64_t completion_tokens = 0;
            const auto write = [&](const json& event) {
                const std::string line = sse(event);
                return sink.write(line.data(), line.size());
            };
            const auto send = [&](SequenceEvent& e) {
                std::string& text = sent[static_cast<size_t>(e.choice)];
                switch (e.kind) {
                case SequenceEvent::Kind::Prompt: return write(first_chunk_json(*context, e.choice, e.prompt_metrics));
                case SequenceEvent::Kind::Token:
                    completion_tokens += 1;
                    text += e.token.visible_text;
                    return write(token_chunk_json(*context, e.choice, e.token, e.token.visible_text,
                                                  q->octoscope.enabled ? &e.metrics : nullptr));
                case SequenceEvent::Kind::Done: {
                    const std::string rest = e.result.text.size() > text.size() ? e.result.text.substr(text.size()) : std::string();
                    return write(last_chunk_json(*context, e.choice, rest, e.result, e.kv));
                }
                case SequenceEvent::Kind::Failed: return write(error_json(engine_error(e.error)));
                }
                return true;
            };
            if (!follow(*channel, *early, sink, send)) return false;
            if (q->include_usage && !write(usage_chunk_json(*context, completion_tokens))) return false;
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

void OpenAiServer::stop() {
    if (!impl_ || impl_->stopping.exchange(true)) return;
    impl_->scheduler.shutdown(); // every waiting answer ends, so that the HTTP threads can finish
    impl_->http.stop();
}

SchedulerStats OpenAiServer::stats() const { return impl_->scheduler.stats(); }

} // namespace octo::serve
