// octoscope-cli serve as an operator runs it (docs/server.md, "Running it in production"): slow
// or idle clients cannot keep others waiting, the key is checked before a body is read, the
// connection count is bounded, the port is the server's alone, a client that leaves cancels its
// request whatever its kind, and SIGTERM drains what is in flight before the server exits, with
// an error status for what outlasts the drain. Loopback only; every wait is bounded.
#include <gtest/gtest.h>

#include <signal.h>

#include <filesystem>
#include <map>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/cli/serve_harness.h"
#include "tests/support/shared_data.h"

namespace octo::test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

// The status code of an HTTP response's first line (0 when there is none).
int status_of(const std::string& response) {
    if (response.rfind("HTTP/1.1 ", 0) != 0 || response.size() < 12) return 0;
    return std::stoi(response.substr(9, 3));
}

json body_of(const std::string& response) {
    const size_t head_end = response.find("\r\n\r\n");
    return head_end == std::string::npos ? json() : json::parse(response.substr(head_end + 4), nullptr, false);
}

// 200 clients that send half a request's headers and then nothing held every HTTP thread: nobody
// else was answered until they timed out. Now each has its own thread and a deadline for its
// headers: others are answered while the slow ones still wait, and the slow ones are then closed.
TEST(ServeConnections, SlowClientsDoNotKeepOthersWaiting) {
    ServerProcess server({"--threads", "1", "--header-timeout", "5"});
    ASSERT_GT(server.port(), 0) << server.err();
    std::vector<std::unique_ptr<RawConnection>> slow;
    for (int i = 0; i < 200; ++i) {
        slow.push_back(std::make_unique<RawConnection>(server.port()));
        ASSERT_TRUE(slow.back()->connected());
        ASSERT_TRUE(slow.back()->send("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl"));
    }
    // A connected client may still wait in the listen backlog: the server counts it once it has
    // accepted it (under a loaded parallel ctest run that took a moment), well inside the deadline.
    Answer health = get(server.port(), "/health");
    for (int i = 0; i < 20 && health.status == 200 && health.body["connections"]["open"].get<int>() < 200; ++i) {
        std::this_thread::sleep_for(100ms);
        health = get(server.port(), "/health");
    }
    EXPECT_EQ(health.status, 200);
    const Answer answer = post(server.port(), "/v1/completions", {{"prompt", "abc"}, {"max_tokens", 4}});
    EXPECT_EQ(answer.status, 200) << answer.raw;
    int still_waiting = 0;
    for (auto& c : slow) still_waiting += c->closed_by_server() ? 0 : 1;
    EXPECT_EQ(still_waiting, 200) << "the others were answered only after slow clients were dropped";
    EXPECT_GE(health.body["connections"]["open"].get<int>(), 200) << health.raw;

    // Past the header deadline every slow client is closed, whatever it does.
    int closed = 0;
    for (int i = 0; i < 600 && closed < 200; ++i) {
        closed = 0;
        for (auto& c : slow) closed += c->closed_by_server() ? 1 : 0;
        if (closed < 200) std::this_thread::sleep_for(100ms);
    }
    EXPECT_EQ(closed, 200);
    EXPECT_GE(get(server.port(), "/health").body["connections"]["timed_out"].get<int>(), 200);
    EXPECT_EQ(server.stop(), 0) << server.err();
}

// The key is checked when the headers are in: a client without it gets 401 before sending its
// body (it could hold a connection with a slow body on a public server).
TEST(ServeConnections, TheKeyIsCheckedBeforeTheBodyIsRead) {
    ServerProcess server({"--api-key-env", "OCTO_TEST_KEY", "--threads", "1", "--body-timeout", "2"}, {"OCTO_TEST_KEY=s3cret"});
    ASSERT_GT(server.port(), 0) << server.err();
    RawConnection keyless(server.port());
    ASSERT_TRUE(keyless.send("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                             "Authorization: Bearer wrong\r\nContent-Length: 100000\r\n\r\n"));
    const std::string refused = keyless.receive(30s);
    EXPECT_EQ(status_of(refused), 401) << refused;
    EXPECT_EQ(body_of(refused)["error"]["code"], "invalid_api_key") << refused;

    // With the key, a body that never comes is given up after --body-timeout.
    RawConnection keyed(server.port());
    ASSERT_TRUE(keyed.send("POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                           "Authorization: Bearer s3cret\r\nContent-Length: 100000\r\n\r\n{\"prompt\""));
    const std::string late = keyed.receive(30s);
    EXPECT_EQ(status_of(late), 400) << late;
    EXPECT_EQ(body_of(late)["error"]["code"], "body_unreadable") << late;
    EXPECT_EQ(server.stop(), 0) << server.err();
}

// More connections than --max-connections: the one over is answered 503 and closed; the others
// are served, and a place freed is taken again.
TEST(ServeConnections, ConnectionsOverTheLimitGet503) {
    ServerProcess server({"--threads", "1", "--max-connections", "2"});
    ASSERT_GT(server.port(), 0) << server.err();
    std::vector<std::unique_ptr<RawConnection>> clients;
    for (int i = 0; i < 3; ++i) clients.push_back(std::make_unique<RawConnection>(server.port()));
    int ok = 0;
    int refused = 0;
    for (auto& c : clients) {
        ASSERT_TRUE(c->send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
        const std::string r = c->receive(30s);
        if (status_of(r) == 200) ok += 1;
        if (status_of(r) == 503 && body_of(r)["error"]["code"] == "too_many_connections") refused += 1;
    }
    EXPECT_EQ(ok, 2);
    EXPECT_EQ(refused, 1);
    clients.clear(); // closed: their places free up once the server notices
    Answer again;
    for (int i = 0; i < 300 && again.status != 200; ++i) {
        again = get(server.port(), "/health");
        if (again.status != 200) std::this_thread::sleep_for(100ms);
    }
    EXPECT_EQ(again.status, 200) << again.raw;
    EXPECT_GE(again.body["connections"]["refused"].get<int>(), 1);
    EXPECT_EQ(server.stop(), 0) << server.err();
}

// A second server on a port in use fails to start (both listened and shared the requests).
TEST(ServeConnections, ASecondServerOnTheSamePortFailsToStart) {
    ServerProcess first({"--threads", "1"});
    ASSERT_GT(first.port(), 0) << first.err();
    ServerProcess second({"--threads", "1", "--port", std::to_string(first.port())});
    EXPECT_EQ(second.port(), 0) << "it listens on the same port";
    EXPECT_EQ(second.wait_exit(30s), 1);
    EXPECT_NE(second.err().find("in use"), std::string::npos) << second.err();
    EXPECT_EQ(get(first.port(), "/health").status, 200);
    EXPECT_EQ(first.stop(), 0) << first.err();
}

// A whole (not streamed) answer's client that leaves cancels it, running or waiting: its
// sequences end and their blocks return (it ran on to the end).
TEST(ServeCancel, AClientThatLeavesCancelsAWholeAnswerRunningOrWaiting) {
    const std::string path = write_talker();
    ServerProcess server({"--model", path, "--parallel", "1", "--threads", "1", "--max-tokens", "4000"});
    ASSERT_GT(server.port(), 0) << server.err();
    const std::string body = json{{"prompt", "abc"}, {"max_tokens", 4000}, {"temperature", 0}}.dump();
    const std::string request = "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    RawConnection running(server.port());
    ASSERT_TRUE(running.send(request));
    ASSERT_TRUE(wait_for(server.port(), "running", 1));
    RawConnection waiting(server.port());
    ASSERT_TRUE(waiting.send(request));
    ASSERT_TRUE(wait_for(server.port(), "waiting", 1));

    waiting.close();
    EXPECT_TRUE(wait_for(server.port(), "waiting", 0)) << "the request whose client left still waits";
    json health = get(server.port(), "/health").body;
    EXPECT_EQ(health["running"], 1) << "the other one runs on";
    EXPECT_EQ(health["cancelled"], 1) << health.dump();

    running.close();
    EXPECT_TRUE(wait_for(server.port(), "running", 0)) << "the request whose client left still runs";
    health = get(server.port(), "/health").body;
    EXPECT_EQ(health["cancelled"], 2) << health.dump();
    EXPECT_EQ(health["completed"], 0) << health.dump();
    EXPECT_EQ(health["kv"]["blocks_used"], 0) << "the cancelled sequence still holds KV blocks";
    EXPECT_EQ(server.stop(), 0) << server.err();
    std::filesystem::remove(path);
}

// SIGTERM: the requests in flight, whole and streamed, finish (to their last token) before the
// server exits.
TEST(ServeDrain, SigtermLetsTheRequestsInFlightFinish) {
    const std::string path = write_talker();
    ServerProcess server({"--model", path, "--parallel", "2", "--threads", "1", "--max-tokens", "4000", "--drain-timeout", "120"});
    ASSERT_GT(server.port(), 0) << server.err();
    const int port = server.port();
    const json whole = {{"prompt", "abc"}, {"max_tokens", 4000}, {"temperature", 0}};
    json streamed = whole;
    streamed["stream"] = true;
    auto a = std::async(std::launch::async, [&] { return post(port, "/v1/completions", whole); });
    auto b = std::async(std::launch::async, [&] { return stream(port, "/v1/completions", streamed); });
    ASSERT_TRUE(wait_for(port, "running", 2));
    server.signal(SIGTERM);

    const Answer answer = a.get();
    ASSERT_EQ(answer.status, 200) << answer.raw;
    EXPECT_EQ(answer.body["choices"][0]["finish_reason"], "length");
    EXPECT_EQ(answer.body["usage"]["completion_tokens"], 4000);
    const std::vector<json> events = b.get();
    ASSERT_GE(events.size(), 2u);
    EXPECT_EQ(events.back(), "[DONE]");
    EXPECT_EQ(events[events.size() - 2]["choices"][0]["finish_reason"], "length") << events[events.size() - 2].dump();

    EXPECT_EQ(server.wait_exit(60s), 0) << server.err();
    EXPECT_NE(server.err().find("draining 2 request(s)"), std::string::npos) << server.err();
    EXPECT_NE(server.err().find("2 of 2 request(s) in flight finished; 0 cancelled"), std::string::npos) << server.err();
    std::filesystem::remove(path);
}

// What outlasts --drain-timeout is cancelled: a whole answer gets an error status (it was a 200
// with an error body, which the OpenAI clients took for an answer with no choices).
TEST(ServeDrain, WhatOutlastsTheDrainGetsAnErrorStatus) {
    const std::string path = write_talker();
    ServerProcess server({"--model", path, "--parallel", "1", "--threads", "1", "--max-tokens", "4000", "--drain-timeout", "0.5"});
    ASSERT_GT(server.port(), 0) << server.err();
    const int port = server.port();
    auto a = std::async(std::launch::async, [&] {
        return post(port, "/v1/completions", {{"prompt", "abc"}, {"max_tokens", 4000}, {"temperature", 0}});
    });
    ASSERT_TRUE(wait_for(port, "running", 1));
    server.signal(SIGTERM);
    const Answer answer = a.get();
    EXPECT_EQ(answer.status, 503) << answer.raw;
    EXPECT_EQ(answer.body["error"]["type"], "server_error") << answer.raw;
    EXPECT_FALSE(answer.body.contains("choices"));
    EXPECT_EQ(server.wait_exit(60s), 0) << server.err();
    EXPECT_NE(server.err().find("0 of 1 request(s) in flight finished; 1 cancelled"), std::string::npos) << server.err();
    std::filesystem::remove(path);
}

// curl -d sends JSON as application/x-www-form-urlencoded; httplib capped such bodies at 8 KB
// (413) whatever --max-body said. A body is JSON whatever its form type, up to --max-body.
TEST(ServeBodies, AFormEncodedJsonBodyOver8KbIsRead) {
    ServerProcess server({"--threads", "1", "--max-body", "20000"});
    ASSERT_GT(server.port(), 0) << server.err();
    const std::string body = json{{"prompt", "abc"}, {"max_tokens", 2}}.dump() + std::string(12000, ' ');
    const Answer form = post_raw(server.port(), "/v1/completions", body, {}, "application/x-www-form-urlencoded");
    EXPECT_EQ(form.status, 200) << form.raw;
    const Answer big = post_raw(server.port(), "/v1/completions", body + std::string(10000, ' '), {}, "application/x-www-form-urlencoded");
    EXPECT_EQ(big.status, 413) << big.raw;
    EXPECT_EQ(big.body["error"]["code"], "body_too_large") << big.raw;
    EXPECT_EQ(server.stop(), 0) << server.err();
}


// Every answer carries X-Request-Id (the client's, or one made for it), and the access log names
// it with the request's status and tokens.
TEST(ServeObservability, RequestIdsAreEchoedAndLogged) {
    ServerProcess server({"--threads", "1"});
    ASSERT_GT(server.port(), 0) << server.err();
    const json body = {{"prompt", "Add 2 and 3."}, {"max_tokens", 4}};
    const Answer given = post(server.port(), "/v1/completions", body, {{"X-Request-Id", "trace-42"}});
    ASSERT_EQ(given.status, 200) << given.raw;
    EXPECT_EQ(given.header("X-Request-Id"), "trace-42");
    const Answer made = post(server.port(), "/v1/completions", body);
    const std::string id = made.header("X-Request-Id");
    EXPECT_EQ(id.rfind("req-", 0), 0u) << id;
    EXPECT_EQ(id.size(), 20u) << id;
    const Answer spaced = post(server.port(), "/v1/completions", body, {{"X-Request-Id", "two words"}});
    EXPECT_NE(spaced.header("X-Request-Id"), "two words") << "not a usable id";
    EXPECT_EQ(get(server.port(), "/nowhere").status, 404);
    EXPECT_EQ(server.stop(), 0);
    const std::string log = server.err();
    const std::string line = "access trace-42 127.0.0.1 POST /v1/completions 200 tokens " +
                             std::to_string(given.body["usage"]["prompt_tokens"].get<int>()) + "+" +
                             std::to_string(given.body["usage"]["completion_tokens"].get<int>()) + " ";
    EXPECT_NE(log.find(line), std::string::npos) << log;
    EXPECT_NE(log.find("access " + id + " "), std::string::npos) << log;
    EXPECT_NE(log.find("GET /nowhere 404"), std::string::npos) << log;
}

// Chat histories OpenAI and llama.cpp accept are answered: two user messages in a row, an
// assistant message first or last, a system message after the first (refused with 400; on a
// ChatML model it is written where it stands).
TEST(ServeBodies, ChatHistoriesOpenAiAcceptsAreAnswered) {
    const auto refdata = refdata_dir();
    if (!refdata) GTEST_SKIP() << "../shared/refdata is absent";
    ServerProcess server({"--model", (*refdata / "qwen2-tiny-f32.gguf").string(), "--threads", "1"});
    ASSERT_GT(server.port(), 0) << server.err();
    const auto message = [](const char* role, const char* content) { return json{{"role", role}, {"content", content}}; };
    const std::vector<json> histories = {
        json::array({message("user", "Hi."), message("user", "Who are you?")}),
        json::array({message("assistant", "Hello."), message("user", "Who are you?")}),
        json::array({message("user", "Hi."), message("assistant", "Hello")}),
        json::array({message("user", "Hi."), message("system", "Answer in French."), message("user", "Who are you?")}),
    };
    for (const json& messages : histories) {
        const Answer a = post(server.port(), "/v1/chat/completions", {{"messages", messages}, {"max_tokens", 2}, {"octoscope", {{"prompt", true}}}});
        ASSERT_EQ(a.status, 200) << messages.dump() << "\n" << a.raw;
        std::string prompt;
        for (const json& piece : a.body["choices"][0]["octoscope"]["prompt"]["pieces"]) prompt += piece.get<std::string>();
        if (messages.size() == 3) {
            EXPECT_NE(prompt.find("<|im_end|>\n<|im_start|>system\nAnswer in French.<|im_end|>\n<|im_start|>user\nWho are you?"),
                      std::string::npos) << prompt;
        }
    }
    EXPECT_EQ(server.stop(), 0) << server.err();
}

// --cors-origin: a preflight from an allowed origin is answered 204 with what it may send; its
// answers carry Access-Control-Allow-Origin (and expose X-Request-Id); other origins get none.
// Without the option OPTIONS is a 405.
TEST(ServeBodies, CorsAnswersTheOriginsItIsGiven) {
    ServerProcess server({"--threads", "1", "--cors-origin", "https://app.example", "--api-key-env", "OCTO_TEST_KEY"},
                         {"OCTO_TEST_KEY=k"});
    ASSERT_GT(server.port(), 0) << server.err();
    httplib::Client client("127.0.0.1", server.port());
    const auto preflight = client.Options("/v1/chat/completions", {{"Origin", "https://app.example"}, {"Access-Control-Request-Method", "POST"}});
    ASSERT_TRUE(preflight);
    EXPECT_EQ(preflight->status, 204) << "a preflight carries no key and is answered";
    EXPECT_EQ(preflight->get_header_value("Access-Control-Allow-Origin"), "https://app.example");
    EXPECT_NE(preflight->get_header_value("Access-Control-Allow-Headers").find("Authorization"), std::string::npos);
    const Answer allowed = post(server.port(), "/v1/completions", {{"prompt", "Add 2 and 3."}, {"max_tokens", 2}},
                                {{"Origin", "https://app.example"}, {"Authorization", "Bearer k"}});
    EXPECT_EQ(allowed.status, 200) << allowed.raw;
    EXPECT_EQ(allowed.header("Access-Control-Allow-Origin"), "https://app.example");
    EXPECT_NE(allowed.header("Access-Control-Expose-Headers").find("X-Request-Id"), std::string::npos);
    const Answer other = get(server.port(), "/health", {{"Origin", "https://evil.example"}});
    EXPECT_EQ(other.status, 200);
    EXPECT_EQ(other.header("Access-Control-Allow-Origin"), "");
    EXPECT_EQ(server.stop(), 0) << server.err();

    ServerProcess plain({"--threads", "1"});
    ASSERT_GT(plain.port(), 0) << plain.err();
    httplib::Client plain_client("127.0.0.1", plain.port());
    const auto refused = plain_client.Options("/v1/completions", {{"Origin", "https://app.example"}});
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 405);
    EXPECT_EQ(refused->get_header_value("Access-Control-Allow-Origin"), "");
    EXPECT_EQ(plain.stop(), 0) << plain.err();
}

// A generated BOS adds nothing to the text (a literal "<s>" appeared in answers): stories260K
// made to generate nothing else (logit_bias), the text stays empty while the tokens count and
// the log-probabilities name them.
TEST(ServeBodies, AGeneratedBosIsNotText) {
    const auto refdata = refdata_dir();
    if (!refdata) GTEST_SKIP() << "../shared/refdata is absent";
    ServerProcess server({"--model", (*refdata / "stories260K.gguf").string(), "--threads", "1"});
    ASSERT_GT(server.port(), 0) << server.err();
    const Answer a = post(server.port(), "/v1/completions",
                          {{"prompt", "Once upon a time"}, {"max_tokens", 3}, {"logprobs", 1}, {"logit_bias", {{"1", 100}}}});
    ASSERT_EQ(a.status, 200) << a.raw;
    EXPECT_EQ(a.body["choices"][0]["text"], "");
    EXPECT_EQ(a.body["usage"]["completion_tokens"], 3);
    EXPECT_EQ(a.body["choices"][0]["logprobs"]["tokens"], json::array({"<s>", "<s>", "<s>"}));
    EXPECT_EQ(server.stop(), 0) << server.err();
}

// The Prometheus exposition: its series name{labels} → value.
std::map<std::string, double> scrape(const std::string& text) {
    std::map<std::string, double> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line.empty() || line[0] == '#') continue;
        const size_t space = line.rfind(' ');
        if (space != std::string::npos) out[line.substr(0, space)] = std::stod(line.substr(space + 1));
    }
    return out;
}

// /metrics counts what was served: requests by status, the tokens in the answers' usage, one
// time to first token per generation, cumulative histogram buckets; it needs the key when one is set.
TEST(ServeObservability, MetricsCountWhatWasServed) {
    ServerProcess server({"--threads", "1", "--api-key-env", "OCTO_TEST_KEY"}, {"OCTO_TEST_KEY=k"});
    ASSERT_GT(server.port(), 0) << server.err();
    const httplib::Headers key = {{"Authorization", "Bearer k"}};
    int64_t prompt = 0;
    int64_t generated = 0;
    for (const char* text : {"Add 2 and 3.", "What is 12 + 9?"}) {
        const Answer a = post(server.port(), "/v1/completions", {{"prompt", text}, {"max_tokens", 6}}, key);
        ASSERT_EQ(a.status, 200) << a.raw;
        prompt += a.body["usage"]["prompt_tokens"].get<int64_t>();
        generated += a.body["usage"]["completion_tokens"].get<int64_t>();
    }
    const std::vector<json> events =
        stream(server.port(), "/v1/completions", {{"prompt", "Add 1 and 1."}, {"max_tokens", 6}, {"stream", true}}, 0, key);
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.back(), "[DONE]");
    EXPECT_EQ(post(server.port(), "/v1/completions", {{"prompt", "x"}}).status, 401);
    EXPECT_EQ(get(server.port(), "/metrics").status, 401) << "the metrics need the key";

    const Answer m = metrics_holding(server.port(),
                                     {"octoscope_requests_total{endpoint=\"/v1/completions\",status=\"200\"} 3",
                                      "octoscope_requests_total{endpoint=\"/metrics\",status=\"401\"} 1",
                                      "octoscope_sequences_total{outcome=\"completed\"} 3"},
                                     key);
    ASSERT_EQ(m.status, 200);
    EXPECT_EQ(m.header("Content-Type").rfind("text/plain; version=0.0.4", 0), 0u);
    const auto series = scrape(m.raw);
    EXPECT_EQ(series.at("octoscope_requests_total{endpoint=\"/v1/completions\",status=\"200\"}"), 3);
    EXPECT_EQ(series.at("octoscope_requests_total{endpoint=\"/v1/completions\",status=\"401\"}"), 1);
    EXPECT_EQ(series.at("octoscope_requests_total{endpoint=\"/metrics\",status=\"401\"}"), 1);
    EXPECT_GE(series.at("octoscope_prompt_tokens_total"), static_cast<double>(prompt + 1)) << "the streamed prompt counts too";
    EXPECT_GE(series.at("octoscope_generation_tokens_total"), static_cast<double>(generated + 1));
    EXPECT_EQ(series.at("octoscope_sequences_total{outcome=\"completed\"}"), 3);
    EXPECT_EQ(series.at("octoscope_time_to_first_token_seconds_count"), 3);
    EXPECT_GT(series.at("octoscope_kv_blocks{state=\"total\"}"), 0);
    EXPECT_EQ(series.at("octoscope_requests_waiting"), 0);
    double previous = 0;
    for (const char* le : {"0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60", "120", "+Inf"}) {
        const double n = series.at(std::string("octoscope_request_duration_seconds_bucket{le=\"") + le + "\"}");
        EXPECT_GE(n, previous) << "buckets are cumulative (le " << le << ")";
        previous = n;
    }
    EXPECT_EQ(previous, series.at("octoscope_request_duration_seconds_count"));
    EXPECT_EQ(server.stop(), 0) << server.err();
}

// --log-format json: every log line is one JSON object; an access line has its fields.
TEST(ServeObservability, JsonLogsAreOneObjectPerLine) {
    ServerProcess server({"--threads", "1", "--log-format", "json"});
    ASSERT_GT(server.port(), 0) << server.err();
    ASSERT_EQ(post(server.port(), "/v1/completions", {{"prompt", "Add 2 and 3."}, {"max_tokens", 4}}, {{"X-Request-Id", "j-1"}}).status, 200);
    EXPECT_EQ(server.stop(), 0);
    const std::string log = server.err();
    int lines = 0;
    json access;
    size_t start = 0;
    while (start < log.size()) {
        size_t end = log.find('\n', start);
        if (end == std::string::npos) end = log.size();
        const std::string line = log.substr(start, end - start);
        start = end + 1;
        if (line.empty()) continue;
        lines += 1;
        const json j = json::parse(line, nullptr, false);
        ASSERT_TRUE(j.is_object()) << line;
        EXPECT_TRUE(j.contains("ts") && j.contains("level")) << line;
        if (j.value("event", "") == "access") access = j;
    }
    EXPECT_GE(lines, 3) << log; // serving, access, stopped
    EXPECT_EQ(access["id"], "j-1") << log;
    EXPECT_EQ(access["status"], 200);
    EXPECT_EQ(access["path"], "/v1/completions");
    EXPECT_GT(access["prompt_tokens"].get<int>(), 0);
}

} // namespace
} // namespace octo::test
