// The remote-engine client (engine/remote/) against servers that are not Octoscope: a fake
// server replays the recorded answers of llama.cpp's server (../shared/refdata/openai/, skipped
// when absent) and answers written from OpenAI's, vLLM's and TGI's published shapes
// (tests/data/openai/). Server-sent events are read whatever their line ends; tokens, their
// log-probabilities and alternatives, finish reasons and usage are read from every shape; errors
// carry the server's message; 429 and 5xx are retried with back-off while 4xx are not; a cancel
// stops at once.
// Covers: openai_answer.cpp, remote_batch.cpp, sse_reader.cpp
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include <httplib.h>

#include "engine/grammar/json_schema.h"
#include "engine/remote/openai_answer.h"
#include "engine/remote/remote_batch.h"
#include "engine/remote/remote_client.h"
#include "engine/remote/sse_reader.h"
#include "tests/support/shared_data.h"

namespace octo::remote {
namespace {

using nlohmann::json;

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const std::filesystem::path kFixtures = std::filesystem::path(OCTOSCOPE_TESTS_DIR) / "data" / "openai";

// A loopback server answering every POST and GET with what `answer` decides.
class FakeServer {
public:
    using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;
    // On `port` (0: any free one).
    explicit FakeServer(Handler answer, int port = 0) {
        server_.Post(".*", [answer](const httplib::Request& q, httplib::Response& r) { answer(q, r); });
        server_.Get(".*", [answer](const httplib::Request& q, httplib::Response& r) { answer(q, r); });
        port_ = port == 0 ? server_.bind_to_any_port("127.0.0.1") : (server_.bind_to_port("127.0.0.1", port) ? port : -1);
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        // Listening before it is used or stopped (a stop() before the listen began was lost,
        // and the destructor waited for ever).
        for (int i = 0; i < 5000 && port_ > 0 && !server_.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~FakeServer() {
        server_.stop();
        thread_.join();
    }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    int port() const { return port_; }

private:
    httplib::Server server_;
    int port_ = 0;
    std::thread thread_;
};

// Replays a body with its content type and status.
FakeServer::Handler replay(std::string body, std::string type, int status = 200) {
    return [body, type, status](const httplib::Request&, httplib::Response& r) {
        r.status = status;
        r.set_content(body, type);
    };
}

RemoteRequest chat_request() {
    RemoteRequest r;
    r.messages = {{ChatRole::User, "Once upon a time"}};
    r.max_tokens = 12;
    return r;
}

RemoteClient client(const std::string& url, int retries = 0) {
    return std::move(RemoteClient::create({url, ""}, {retries, 0.01, 0.05}).value());
}

TEST(SseReader, ReadsEventsWhateverTheLineEndsAndSplits) {
    SseReader r;
    std::vector<std::string> got;
    for (std::string_view part : {std::string_view("data: {\"a\":1}\n"), std::string_view("\ndata:x\r\n"), std::string_view("\r"),
                                  std::string_view("\n: comment\n\nevent: e\ndata: one\ndata: two\n\nid: 3\n"),
                                  std::string_view("data: last\r\r")}) {
        for (std::string& e : r.feed(part)) got.push_back(std::move(e));
    }
    EXPECT_EQ(got, (std::vector<std::string>{"{\"a\":1}", "x", "one\ntwo", "last"}));
    EXPECT_FALSE(r.pending());
    r.feed("data: cut");
    EXPECT_TRUE(r.pending());
}

TEST(RemoteClient, RefusesUrlsItCannotUse) {
    EXPECT_FALSE(RemoteClient::create({"gpu-box:8000", ""}).ok());
    EXPECT_FALSE(RemoteClient::create({"ftp://gpu-box", ""}).ok());
    EXPECT_FALSE(RemoteClient::create({"http://", ""}).ok());
    EXPECT_FALSE(RemoteClient::create({"http://user:secret@gpu-box", ""}).ok());
    EXPECT_TRUE(RemoteClient::create({"https://api.example.com/v1/", ""}).ok());
    EXPECT_EQ((RemoteEndpoint{"http://user:pw@box:1/v1", "k"}).describe(), "http://box:1/v1");
}

TEST(RemoteClient, SendsWhatTheRequestSays) {
    auto c = client("http://box:8000/v1");
    RemoteRequest r = chat_request();
    r.sampling.temperature = 0.5f;
    r.sampling.seed = 9;
    r.stop = {"\n"};
    r.octoscope = {{"metric", "gates"}};
    const json b = c.request_body(r);
    EXPECT_EQ(b["messages"][0]["role"], "user");
    EXPECT_EQ(b["stream"], true);
    EXPECT_EQ(b["logprobs"], true);
    EXPECT_EQ(b["top_logprobs"], 5);
    EXPECT_EQ(b["seed"], 9);
    EXPECT_EQ(b["stop"][0], "\n");
    EXPECT_EQ(b["octoscope"]["metric"], "gates");
    EXPECT_FALSE(b.contains("top_k"));
    EXPECT_FALSE(b.contains("logit_bias"));
    EXPECT_FALSE(b.contains("presence_penalty"));
    r.sampling.frequency_penalty = 0.5f;
    r.sampling.presence_penalty = -1.0f;
    r.sampling.logit_bias = {{42, -100.0f}};
    const json p = c.request_body(r);
    EXPECT_EQ(p["frequency_penalty"], 0.5);
    EXPECT_EQ(p["presence_penalty"], -1.0);
    EXPECT_EQ(p["logit_bias"]["42"], -100.0);
    r.chat = false;
    r.prompt = "x";
    r.top_logprobs = 9;
    EXPECT_EQ(c.request_body(r)["logprobs"], 5); // completions allow at most 5
}

// A constrained run asks the remote server for the same constraint: OpenAI's response_format
// (json_object for any object), else llama.cpp's GBNF "grammar"; tools go as they were declared.
TEST(RemoteClient, SendsTheConstraintAndTheTools) {
    auto c = client("http://box:8000/v1");
    RemoteRequest r = chat_request();
    EXPECT_FALSE(c.request_body(r).contains("response_format"));
    EXPECT_FALSE(c.request_body(r).contains("grammar"));
    r.json_schema = R"({"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "string"}}})";
    r.grammar = "root ::= \"{}\"";
    json b = c.request_body(r);
    EXPECT_EQ(b["response_format"]["type"], "json_schema");
    EXPECT_EQ(b["response_format"]["json_schema"]["schema"]["properties"]["b"]["type"], "integer");
    EXPECT_FALSE(b.contains("grammar")) << "the schema is the portable form";
    r.json_schema = std::string(kJsonObjectSchema);
    EXPECT_EQ(c.request_body(r)["response_format"], json({{"type", "json_object"}}));
    r.json_schema.clear();
    b = c.request_body(r);
    EXPECT_EQ(b["grammar"], r.grammar);
    EXPECT_FALSE(b.contains("response_format"));

    ChatTool tool;
    tool.name = "now";
    tool.declaration = R"({"type":"function","function":{"name":"now"}})";
    r.tools = {tool};
    r.tool_choice.mode = ToolChoice::Mode::Function;
    r.tool_choice.function = "now";
    ChatMessage call(ChatRole::Assistant, "");
    call.tool_calls.push_back({"call_1", "now", "{}"});
    ChatMessage result(ChatRole::Tool, "noon");
    result.tool_call_id = "call_1";
    r.messages.push_back(call);
    r.messages.push_back(result);
    b = c.request_body(r);
    EXPECT_EQ(b["tools"][0]["function"]["name"], "now");
    EXPECT_EQ(b["tool_choice"]["function"]["name"], "now");
    EXPECT_EQ(b["messages"][1]["tool_calls"][0]["function"]["name"], "now");
    EXPECT_TRUE(b["messages"][1]["content"].is_null());
    EXPECT_EQ(b["messages"][2]["role"], "tool");
    EXPECT_EQ(b["messages"][2]["tool_call_id"], "call_1");
    r.tool_choice = {};
    EXPECT_EQ(c.request_body(r)["tool_choice"], "auto");
}

TEST(RemoteClient, ReadsOpenAisStreamWithLogprobsAndUsage) {
    FakeServer server(replay(slurp(kFixtures / "openai_chat_stream.sse"), "text/event-stream"));
    std::vector<std::string> streamed;
    auto r = client(server.url()).complete(chat_request(), [&](const RemoteToken& t) { streamed.push_back(t.text); });
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->text, "Hello there\xc3\xa9");
    ASSERT_EQ(r->tokens.size(), 3u);
    EXPECT_EQ(streamed, (std::vector<std::string>{"Hello", " there", "\xc3\xa9"}));
    EXPECT_DOUBLE_EQ(*r->tokens[0].logprob, -0.0312);
    ASSERT_EQ(r->tokens[0].top.size(), 2u);
    EXPECT_EQ(r->tokens[0].top[1].text, "Hi");
    EXPECT_DOUBLE_EQ(r->tokens[0].top[1].logprob, -3.51);
    EXPECT_EQ(r->finish_reason, "length");
    ASSERT_TRUE(r->usage);
    EXPECT_EQ(r->usage->completion_tokens, 3);
    EXPECT_EQ(r->fingerprint, "fp_0ba0d124f1");
    EXPECT_EQ(r->model, "gpt-4o-mini-2024-07-18");
    EXPECT_GT(r->ttft_ms, 0.0);
    EXPECT_LE(r->tokens.front().arrival_ms, r->tokens.back().arrival_ms);
}

TEST(RemoteClient, ReadsVllmLegacyCompletionLogprobsFromAWholeAnswer) {
    // A server that ignores "stream" and answers with one JSON object.
    FakeServer server(replay(slurp(kFixtures / "vllm_completion_logprobs.json"), "application/json"));
    RemoteRequest r = chat_request();
    r.chat = false;
    r.prompt = "The capital of France is";
    auto got = client(server.url()).complete(r);
    ASSERT_TRUE(got.ok()) << got.error().message;
    EXPECT_EQ(got->text, " Paris.");
    ASSERT_EQ(got->tokens.size(), 2u);
    EXPECT_EQ(got->tokens[0].text, " Paris");
    EXPECT_DOUBLE_EQ(*got->tokens[0].logprob, -0.1171875);
    ASSERT_EQ(got->tokens[1].top.size(), 2u);
    EXPECT_EQ(got->tokens[1].top[0].text, "."); // most likely first
    EXPECT_EQ(got->finish_reason, "length");
    EXPECT_EQ(got->usage->prompt_tokens, 6);
}

TEST(RemoteClient, ReadsAStreamWithoutLogprobsAChunkPerToken) {
    FakeServer server(replay(slurp(kFixtures / "tgi_chat_stream.sse"), "text/event-stream"));
    auto r = client(server.url()).complete(chat_request());
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(r->text, "The sky is blue.");
    ASSERT_EQ(r->tokens.size(), 5u);
    EXPECT_FALSE(r->tokens[0].logprob.has_value());
    EXPECT_EQ(r->finish_reason, "stop");
}

TEST(RemoteClient, ReadsLlamaCppServersRecordedAnswers) {
    const auto ref = test::refdata_dir();
    if (!ref) GTEST_SKIP() << "../shared/refdata is absent";
    const auto dir = *ref / "openai";
    const auto headers_type = [&](const std::string& name) {
        const std::string h = slurp(dir / (name + ".headers"));
        return h.find("text/event-stream") != std::string::npos ? std::string("text/event-stream") : std::string("application/json");
    };
    { // streamed chat with log-probabilities (recorded with max_tokens 6): the whole answer's first tokens
        FakeServer whole(replay(slurp(dir / "chat_logprobs.response.raw"), headers_type("chat_logprobs")));
        FakeServer streamed(replay(slurp(dir / "chat_stream_logprobs.response.raw"), headers_type("chat_stream_logprobs")));
        auto a = client(whole.url()).complete(chat_request());
        auto b = client(streamed.url()).complete(chat_request());
        ASSERT_TRUE(a.ok()) << a.error().message;
        ASSERT_TRUE(b.ok()) << b.error().message;
        const json recorded = json::parse(slurp(dir / "chat_logprobs.response.raw"));
        EXPECT_EQ(a->text, recorded["choices"][0]["message"]["content"]);
        ASSERT_EQ(a->tokens.size(), recorded["choices"][0]["logprobs"]["content"].size());
        EXPECT_EQ(a->tokens[0].id, 436);
        EXPECT_EQ(a->tokens[0].top.size(), 3u);
        ASSERT_EQ(b->tokens.size(), 6u);
        EXPECT_EQ(a->text.substr(0, b->text.size()), b->text);
        for (size_t i = 0; i < b->tokens.size(); ++i) {
            EXPECT_EQ(b->tokens[i].text, a->tokens[i].text);
            EXPECT_DOUBLE_EQ(*a->tokens[i].logprob, *b->tokens[i].logprob);
            EXPECT_EQ(b->tokens[i].top.size(), 2u);
        }
        EXPECT_EQ(a->finish_reason, "length");
    }
    { // completions answered in chat's content[] shape
        FakeServer s(replay(slurp(dir / "completion_logprobs.response.raw"), headers_type("completion_logprobs")));
        RemoteRequest r = chat_request();
        r.chat = false;
        r.prompt = "Once upon a time";
        auto got = client(s.url()).complete(r);
        ASSERT_TRUE(got.ok()) << got.error().message;
        EXPECT_EQ(got->text, ", there was a little girl named Lily");
        EXPECT_FALSE(got->tokens.empty());
        EXPECT_TRUE(got->tokens[0].logprob.has_value());
    }
    { // a streamed completion without log-probabilities
        FakeServer s(replay(slurp(dir / "completion_stream.response.raw"), headers_type("completion_stream")));
        RemoteRequest r = chat_request();
        r.chat = false;
        auto got = client(s.url()).complete(r);
        ASSERT_TRUE(got.ok()) << got.error().message;
        EXPECT_FALSE(got->text.empty());
        EXPECT_FALSE(got->finish_reason.empty());
    }
    { // its 500 for a malformed body: the server's own message, after the retries
        int calls = 0;
        FakeServer s([&](const httplib::Request&, httplib::Response& res) {
            calls += 1;
            res.status = 500;
            res.set_content(slurp(dir / "error_bad_json.response.raw"), "application/json");
        });
        auto got = client(s.url(), 2).complete(chat_request());
        ASSERT_FALSE(got.ok());
        EXPECT_EQ(got.error().code, ErrorCode::Io);
        EXPECT_NE(got.error().message.find("parse error"), std::string::npos) << got.error().message;
        EXPECT_EQ(calls, 3);
    }
    { // the model list
        FakeServer s(replay(slurp(dir / "models.response.raw"), "application/json"));
        auto models = client(s.url()).models();
        ASSERT_TRUE(models.ok()) << models.error().message;
        ASSERT_EQ(models->size(), 1u);
        EXPECT_EQ(models->front().id, "stories260K.gguf");
        EXPECT_FALSE(models->front().octoscope);
    }
}

TEST(RemoteClient, Retries429AndFiveHundredsButNotOtherErrors) {
    int calls = 0;
    const std::string ok = slurp(kFixtures / "tgi_chat_stream.sse");
    FakeServer flaky([&](const httplib::Request&, httplib::Response& r) {
        calls += 1;
        if (calls == 1) {
            r.status = 429;
            r.set_header("Retry-After", "0");
            r.set_content(R"({"error": {"message": "slow down", "type": "rate_limit_exceeded"}})", "application/json");
        } else if (calls == 2) {
            r.status = 503;
            r.set_content("overloaded", "text/plain");
        } else {
            r.set_content(ok, "text/event-stream");
        }
    });
    auto got = client(flaky.url(), 3).complete(chat_request());
    ASSERT_TRUE(got.ok()) << got.error().message;
    EXPECT_EQ(got->retries, 2);
    EXPECT_EQ(calls, 3);

    int refused_calls = 0;
    FakeServer refusing([&](const httplib::Request&, httplib::Response& r) {
        refused_calls += 1;
        r.status = 400;
        r.set_content(R"({"error": {"message": "'temperature' must be between 0 and 2", "type": "invalid_request_error"}})",
                      "application/json");
    });
    auto bad = client(refusing.url(), 3).complete(chat_request());
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, ErrorCode::InvalidArgument);
    EXPECT_NE(bad.error().message.find("'temperature' must be between 0 and 2"), std::string::npos);
    EXPECT_EQ(refused_calls, 1);

    auto unreachable = RemoteClient::create({"http://127.0.0.1:1", ""}, {1, 0.01, 0.02}).value().complete(chat_request());
    ASSERT_FALSE(unreachable.ok());
    EXPECT_EQ(unreachable.error().code, ErrorCode::Io);
    EXPECT_NE(unreachable.error().message.find("cannot reach"), std::string::npos);
}

// A server that is not up yet (starting, restarting): the refused connections are retried with
// back-off, for the model list as for an answer (the first request failed at once).
TEST(RemoteClient, RetriesARefusedConnectionUntilTheServerIsUp) {
    int port = 0;
    {
        FakeServer probe(replay("", "text/plain")); // a free port, closed again
        port = probe.port();
    }
    const std::string models = R"({"object": "list", "data": [{"id": "m", "object": "model"}]})";
    const std::string stream = slurp(kFixtures / "tgi_chat_stream.sse");
    std::unique_ptr<FakeServer> late;
    std::thread starter([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        late = std::make_unique<FakeServer>(
            [&](const httplib::Request& q, httplib::Response& r) {
                if (q.method == "GET") {
                    r.set_content(models, "application/json");
                } else {
                    r.set_content(stream, "text/event-stream");
                }
            },
            port);
    });
    const RemoteClient c = RemoteClient::create({"http://127.0.0.1:" + std::to_string(port), ""}, {30, 0.1, 0.4}).value();
    const auto listed = c.models();
    starter.join();
    ASSERT_TRUE(listed.ok()) << listed.error().message;
    ASSERT_EQ(listed->size(), 1u);
    EXPECT_EQ(listed->front().id, "m");
    late.reset();
    std::thread again([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        late = std::make_unique<FakeServer>(replay(stream, "text/event-stream"), port);
    });
    std::vector<RetryNotice> notices;
    const auto got = c.complete(chat_request(), {}, nullptr, {}, [&](const RetryNotice& n) { notices.push_back(n); });
    again.join();
    ASSERT_TRUE(got.ok()) << got.error().message;
    EXPECT_GE(got->retries, 1);
    ASSERT_FALSE(notices.empty());
    EXPECT_NE(notices.front().reason.find("refused"), std::string::npos) << notices.front().reason;
}

// https:// on a plain HTTP server says so (it said only "SSLConnection"), and is not retried.
TEST(RemoteClient, HttpsOnAPlainServerSaysWhatToTry) {
    FakeServer plain(replay(R"({"object": "list", "data": []})", "application/json"));
    const std::string url = "https://127.0.0.1:" + std::to_string(plain.port());
    const auto listed = RemoteClient::create({url, ""}, {3, 0.01, 0.02}).value().models();
    ASSERT_FALSE(listed.ok());
    EXPECT_NE(listed.error().message.find("try http://"), std::string::npos) << listed.error().message;
    EXPECT_EQ(listed.error().message.find("retries"), std::string::npos) << "a wrong scheme does not pass by waiting";
}

TEST(RemoteClient, SendsTheKeyAndACancelStopsTheStream) {
    std::string seen_key;
    FakeServer slow([&](const httplib::Request& q, httplib::Response& r) {
        seen_key = q.get_header_value("Authorization");
        r.set_chunked_content_provider("text/event-stream", [](size_t, httplib::DataSink& sink) {
            for (int i = 0; i < 200; ++i) {
                const std::string e = "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"x\"}}]}\n\n";
                if (!sink.write(e.data(), e.size())) return false;
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            sink.done();
            return true;
        });
    });
    auto c = std::move(RemoteClient::create({slow.url(), "k3y"}, {0, 0.01, 0.01}).value());
    std::atomic<bool> cancel{false};
    int tokens = 0;
    auto got = c.complete(chat_request(), [&](const RemoteToken&) {
        if (++tokens == 3) cancel.store(true);
    }, &cancel);
    ASSERT_FALSE(got.ok());
    EXPECT_EQ(got.error().code, ErrorCode::Cancelled);
    EXPECT_LT(tokens, 20) << "the client kept reading after the cancel"; // the server would send 200
    EXPECT_EQ(seen_key, "Bearer k3y");
}

TEST(RemoteBatch, KeepsConcurrencyRequestsInFlightAndAnswersInOrder) {
    std::atomic<int> in_flight{0}, most{0};
    FakeServer server([&](const httplib::Request& q, httplib::Response& r) {
        const int now = ++in_flight;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {}
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        const json body = json::parse(q.body);
        const json answer = {{"choices", json::array({{{"index", 0}, {"text", body["prompt"]}, {"finish_reason", "stop"}}})}};
        --in_flight;
        r.set_content(answer.dump(), "application/json");
    });
    std::vector<RemoteRequest> requests;
    for (int i = 0; i < 12; ++i) {
        RemoteRequest r;
        r.chat = false;
        r.prompt = "item " + std::to_string(i);
        requests.push_back(r);
    }
    std::vector<size_t> progress;
    BatchOptions o;
    o.concurrency = 4;
    o.progress = [&](size_t done, size_t total) {
        EXPECT_EQ(total, 12u);
        progress.push_back(done);
    };
    auto results = complete_all(client(server.url()), requests, o);
    ASSERT_TRUE(results.ok());
    ASSERT_EQ(results->size(), 12u);
    for (size_t i = 0; i < 12; ++i) {
        ASSERT_TRUE((*results)[i].ok()) << (*results)[i].error().message;
        EXPECT_EQ((*results)[i]->text, "item " + std::to_string(i));
    }
    EXPECT_EQ(most.load(), 4);
    EXPECT_EQ(progress.size(), 12u);
    EXPECT_EQ(progress.back(), 12u);

    std::atomic<bool> cancel{false};
    o.cancel = &cancel;
    o.progress = [&](size_t done, size_t) {
        if (done == 2) cancel.store(true);
    };
    auto stopped = complete_all(client(server.url()), requests, o);
    ASSERT_TRUE(stopped.ok());
    size_t cancelled = 0;
    for (const auto& r : *stopped) cancelled += !r.ok() && r.error().code == ErrorCode::Cancelled;
    EXPECT_GE(cancelled, 6u) << "requests were still sent after the cancel";
    o.concurrency = 0;
    EXPECT_FALSE(complete_all(client(server.url()), requests, o).ok());
}

TEST(OpenAiAnswer, ErrorMessagesComeFromTheBody) {
    EXPECT_EQ(error_message(400, R"({"error": {"message": "bad field"}})"), "bad field");
    EXPECT_EQ(error_message(500, R"({"error": "boom"})"), "boom");
    EXPECT_EQ(error_message(422, R"({"detail": "Field required"})"), "Field required");
    EXPECT_EQ(error_message(502, "<html>Bad Gateway</html>"), "HTTP 502: <html>Bad Gateway</html>");
    EXPECT_EQ(error_message(504, ""), "HTTP 504");
    EXPECT_FALSE(parse_answer(json::parse(R"({"object": "list"})")).ok());
    EXPECT_FALSE(parse_answer(json::parse(R"({"choices": [{"text": 5}]})")).ok());
    // Usage counts of another type count as 0 instead of throwing (found by fuzz_remote_stream).
    auto odd = parse_answer(json::parse(R"({"choices": [{"text": "hi"}], "usage": {"prompt_tokens": "7", "completion_tokens": null}})"));
    ASSERT_TRUE(odd.ok());
    ASSERT_TRUE(odd->usage);
    EXPECT_EQ(odd->usage->prompt_tokens, 0);
    EXPECT_EQ(odd->usage->completion_tokens, 0);
}

} // namespace
} // namespace octo::remote
