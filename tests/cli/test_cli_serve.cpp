// octoscope-cli serve against a client on loopback (docs/server.md): the server is started by
// the test on a free port and stopped with SIGINT. Contract (health, models, chat and completion
// answers in OpenAI's shapes, the same text as `generate`), streaming (server-sent chunks that add
// up to the whole answer), the extension, concurrency (many requests at once, each request's
// tokens identical to a solo run), a disconnecting client's sequence cancelled and its blocks
// freed, malformed requests answered 4xx while the server keeps serving, a full queue answered
// 429, and the safety rules (a key required off loopback, checked when set).
// Covers: engine/serve/openai_server.cpp, engine/serve/http_listener.cpp,
//   engine/serve/server_metrics.cpp
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include "engine/model/synthetic_model.h"
#include "tests/cli/cli_runner.h"
#include "tests/cli/serve_harness.h"
#include "tests/support/shared_data.h"

namespace octo::test {
namespace {

using nlohmann::json;

class Serve : public ::testing::Test {
protected:
    static void SetUpTestSuite() { server_ = new ServerProcess({"--parallel", "4", "--threads", "2"}); }
    static void TearDownTestSuite() {
        EXPECT_EQ(server_->stop(), 0) << server_->err();
        delete server_;
    }
    int port() const { return server_->port(); }
    static ServerProcess* server_;
};
ServerProcess* Serve::server_ = nullptr;

TEST_F(Serve, HealthAndModelsDescribeTheServedModel) {
    ASSERT_GT(port(), 0) << server_->err();
    const Answer h = get(port(), "/health");
    EXPECT_EQ(h.status, 200);
    EXPECT_EQ(h.body["status"], "ok");
    const Answer m = get(port(), "/v1/models");
    ASSERT_EQ(m.status, 200);
    EXPECT_EQ(m.body["object"], "list");
    ASSERT_EQ(m.body["data"].size(), 1u);
    EXPECT_EQ(m.body["data"][0]["id"], "octet.gguf");
    EXPECT_EQ(m.body["data"][0]["object"], "model");
    EXPECT_EQ(m.body["data"][0]["octoscope"]["architecture"], "octet");
}

TEST_F(Serve, ChatAnswerHasOpenAisShapeAndGeneratesText) {
    const CliRun solo = run_cli({"generate", "--prompt", "What is 35% of 240?", "--max-tokens", "24", "--json"});
    ASSERT_EQ(solo.exit_status, 0) << solo.err;
    const Answer a = post(port(), "/v1/chat/completions", chat("What is 35% of 240?", {{"model", "octet.gguf"}}));
    ASSERT_EQ(a.status, 200) << a.raw;
    EXPECT_EQ(a.body["object"], "chat.completion");
    EXPECT_EQ(a.body["id"].get<std::string>().rfind("chatcmpl-", 0), 0u);
    EXPECT_EQ(a.body["model"], "octet.gguf");
    EXPECT_TRUE(a.body["system_fingerprint"].get<std::string>().rfind("octoscope-", 0) == 0);
    ASSERT_EQ(a.body["choices"].size(), 1u);
    const json& c = a.body["choices"][0];
    EXPECT_EQ(c["message"]["role"], "assistant");
    // octet's chat is its prompt template on the last user message: the same text as generate.
    EXPECT_EQ(c["message"]["content"], solo.json()["text"]);
    EXPECT_EQ(c["finish_reason"], "stop");
    EXPECT_TRUE(c["logprobs"].is_null());
    EXPECT_EQ(a.body["usage"]["prompt_tokens"], solo.json()["prompt_ids"].size());
    EXPECT_EQ(a.body["usage"]["completion_tokens"], solo.json()["tokens"].size());
    EXPECT_EQ(a.body["usage"]["total_tokens"],
              a.body["usage"]["prompt_tokens"].get<int>() + a.body["usage"]["completion_tokens"].get<int>());
    EXPECT_FALSE(c.contains("octoscope")) << "the extension appears only when asked for";
}

TEST_F(Serve, StreamedChunksAddUpToTheWholeAnswer) {
    const json body = chat("Add 17 and 26.", {{"logprobs", true}, {"top_logprobs", 2}});
    const Answer whole = post(port(), "/v1/chat/completions", body);
    ASSERT_EQ(whole.status, 200);
    json streamed_body = body;
    streamed_body["stream"] = true;
    streamed_body["stream_options"] = {{"include_usage", true}};
    const std::vector<json> events = stream(port(), "/v1/chat/completions", streamed_body);
    ASSERT_GE(events.size(), 4u);
    EXPECT_EQ(events.back(), "[DONE]");
    std::string text;
    size_t token_chunks = 0;
    std::string finish;
    for (const json& e : events) {
        if (!e.is_object() || e["choices"].empty()) continue;
        EXPECT_EQ(e["object"], "chat.completion.chunk");
        const json& c = e["choices"][0];
        if (c["delta"].contains("content")) text += c["delta"]["content"].get<std::string>();
        if (c.contains("logprobs")) {
            token_chunks += 1;
            EXPECT_EQ(c["logprobs"]["content"][0]["top_logprobs"].size(), 2u);
        }
        if (!c["finish_reason"].is_null()) finish = c["finish_reason"];
    }
    EXPECT_EQ(events[0]["choices"][0]["delta"]["role"], "assistant");
    EXPECT_EQ(text, whole.body["choices"][0]["message"]["content"]);
    EXPECT_EQ(token_chunks, whole.body["choices"][0]["logprobs"]["content"].size());
    EXPECT_EQ(finish, whole.body["choices"][0]["finish_reason"]);
    const json& usage = events[events.size() - 2]["usage"];
    EXPECT_EQ(usage, whole.body["usage"]);
}

TEST_F(Serve, CompletionsAnswerWithLegacyLogprobs) {
    const Answer a = post(port(), "/v1/completions", {{"prompt", "What is 12 + 9?"}, {"max_tokens", 8}, {"temperature", 0}, {"logprobs", 3}});
    ASSERT_EQ(a.status, 200) << a.raw;
    EXPECT_EQ(a.body["object"], "text_completion");
    const json& c = a.body["choices"][0];
    const size_t n = a.body["usage"]["completion_tokens"];
    ASSERT_GT(n, 0u);
    EXPECT_EQ(c["logprobs"]["tokens"].size(), n);
    EXPECT_EQ(c["logprobs"]["token_logprobs"].size(), n);
    EXPECT_EQ(c["logprobs"]["top_logprobs"].size(), n);
    EXPECT_EQ(c["logprobs"]["top_logprobs"][0].size(), 3u);
    for (const json& lp : c["logprobs"]["token_logprobs"]) EXPECT_LE(lp.get<double>(), 0.0);
    EXPECT_TRUE(c["text"].is_string());
}

TEST_F(Serve, TheExtensionCarriesEachTokensMeasurements) {
    const Answer a = post(port(), "/v1/chat/completions",
                          chat("What is 35% of 240?", {{"octoscope", {{"metric", "gates"}, {"prompt", true}, {"heads", true}}}}));
    ASSERT_EQ(a.status, 200) << a.raw;
    const json& ext = a.body["choices"][0]["octoscope"];
    EXPECT_EQ(ext["metric"], "gates");
    const size_t n = a.body["usage"]["completion_tokens"];
    ASSERT_EQ(ext["tokens"].size(), n);
    for (const json& t : ext["tokens"]) {
        ASSERT_EQ(t["subsystems"].size(), 8u);
        double sum = 0;
        for (const json& v : t["subsystems"]) sum += v.get<double>();
        EXPECT_NEAR(sum, 1.0, 1e-3);
        EXPECT_TRUE(t["metrics"].contains("norm_share"));
        EXPECT_FALSE(t["heads"].empty());
    }
    EXPECT_EQ(ext["prompt"]["ids"].size(), a.body["usage"]["prompt_tokens"]);
    EXPECT_EQ(ext["stop_reason"], "end_of_generation");
    EXPECT_GT(ext["kv"]["evaluated_tokens"].get<int>(), 0);

    // The same measurements as generate --json.
    const CliRun solo = run_cli({"generate", "--prompt", "What is 35% of 240?", "--max-tokens", "24", "--json"});
    ASSERT_EQ(solo.exit_status, 0);
    ASSERT_EQ(solo.json()["tokens"].size(), n);
    for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(ext["tokens"][i]["id"], solo.json()["tokens"][i]["id"]);
        for (size_t s = 0; s < 8; ++s) {
            EXPECT_NEAR(ext["tokens"][i]["subsystems"][s].get<double>(), solo.json()["tokens"][i]["subsystems"][s].get<double>(), 1e-6);
        }
    }

    // Switching rte-c off changes the answer to an arithmetic question, as generate --disable does.
    const Answer off = post(port(), "/v1/chat/completions", chat("What is 35% of 240?", {{"octoscope", {{"disable", {"rte-c"}}}}}));
    const CliRun solo_off = run_cli({"generate", "--prompt", "What is 35% of 240?", "--max-tokens", "24", "--disable", "rte-c", "--json"});
    ASSERT_EQ(off.status, 200);
    EXPECT_EQ(off.body["choices"][0]["message"]["content"], solo_off.json()["text"]);
    EXPECT_EQ(off.body["choices"][0]["octoscope"]["ablation"]["disabled"], json::array({"rte-c"}));
}

TEST_F(Serve, ManyRequestsAtOnceEachGetTheirSoloTokens) {
    const std::vector<std::string> texts = {"What is 35% of 240?", "Add 17 and 26.", "What is 12 + 9?", "Is 'run' a verb?"};
    std::vector<json> bodies;
    for (int i = 0; i < 16; ++i) {
        bodies.push_back(chat(texts[static_cast<size_t>(i) % texts.size()],
                              {{"temperature", 0.9}, {"seed", 1000 + i}, {"max_tokens", 16}, {"logprobs", true}}));
    }
    std::vector<json> solo;
    for (const json& b : bodies) {
        const Answer a = post(port(), "/v1/chat/completions", b);
        ASSERT_EQ(a.status, 200) << a.raw;
        solo.push_back(a.body["choices"][0]);
    }
    std::vector<std::future<Answer>> running;
    for (const json& b : bodies) {
        running.push_back(std::async(std::launch::async, [this, b] { return post(port(), "/v1/chat/completions", b); }));
    }
    for (size_t i = 0; i < running.size(); ++i) {
        const Answer a = running[i].get();
        ASSERT_EQ(a.status, 200) << a.raw;
        const json& c = a.body["choices"][0];
        EXPECT_EQ(c["message"]["content"], solo[i]["message"]["content"]) << "request " << i;
        ASSERT_EQ(c["logprobs"]["content"].size(), solo[i]["logprobs"]["content"].size());
        for (size_t t = 0; t < c["logprobs"]["content"].size(); ++t) {
            EXPECT_EQ(c["logprobs"]["content"][t]["logprob"], solo[i]["logprobs"]["content"][t]["logprob"]) << "request " << i;
        }
    }
}

// logit_bias +100 forces a token at every step, -100 bans the greedy one; an id past the
// vocabulary is a 400 naming the field. The penalties are accepted in OpenAI's range.
TEST_F(Serve, LogitBiasForcesAndBansTokens) {
    const Answer plain = post(port(), "/v1/chat/completions", chat("Add 17 and 26.", {{"max_tokens", 4}, {"octoscope", json::object()}}));
    ASSERT_EQ(plain.status, 200) << plain.raw;
    const int first = plain.body["choices"][0]["octoscope"]["tokens"][0]["id"];
    const int forced = first == 40 ? 41 : 40;
    const Answer a = post(port(), "/v1/chat/completions",
                          chat("Add 17 and 26.", {{"max_tokens", 4}, {"logit_bias", {{std::to_string(forced), 100}}}, {"octoscope", json::object()}}));
    ASSERT_EQ(a.status, 200) << a.raw;
    ASSERT_EQ(a.body["choices"][0]["octoscope"]["tokens"].size(), 4u);
    for (const json& t : a.body["choices"][0]["octoscope"]["tokens"]) EXPECT_EQ(t["id"], forced);
    const Answer banned = post(port(), "/v1/chat/completions",
                               chat("Add 17 and 26.", {{"max_tokens", 1}, {"logit_bias", {{std::to_string(first), -100}}}, {"octoscope", json::object()}}));
    ASSERT_EQ(banned.status, 200) << banned.raw;
    EXPECT_NE(banned.body["choices"][0]["octoscope"]["tokens"][0]["id"], first);
    const Answer outside = post(port(), "/v1/chat/completions", chat("x", {{"logit_bias", {{"99999999", 1}}}}));
    EXPECT_EQ(outside.status, 400) << outside.raw;
    EXPECT_EQ(outside.body["error"]["param"], "logit_bias");
    const Answer penalties = post(port(), "/v1/chat/completions", chat("Add 17 and 26.", {{"presence_penalty", 1.5}, {"frequency_penalty", -0.5}}));
    EXPECT_EQ(penalties.status, 200) << penalties.raw;
}

// /tokenize counts what a completion or a chat request of the same text sees (the usage's
// prompt_tokens), with pieces when asked; /detokenize gives the text back.
TEST_F(Serve, TokenizeCountsWhatARequestSeesAndDetokenizeGivesTheTextBack) {
    const std::string text = "What is 35% of 240?";
    const Answer completion = post(port(), "/v1/completions", {{"prompt", text}, {"max_tokens", 1}});
    ASSERT_EQ(completion.status, 200) << completion.raw;
    const Answer counted = post(port(), "/tokenize", {{"content", text}});
    ASSERT_EQ(counted.status, 200) << counted.raw;
    EXPECT_EQ(counted.body["count"], completion.body["usage"]["prompt_tokens"]);
    EXPECT_EQ(counted.body["tokens"].size(), counted.body["count"].get<size_t>());
    EXPECT_GT(counted.body["max_model_len"].get<int>(), 0);

    const json messages = json::array({{{"role", "user"}, {"content", text}}});
    const Answer chatted = post(port(), "/v1/chat/completions", {{"messages", messages}, {"max_tokens", 1}});
    const Answer chat_count = post(port(), "/tokenize", {{"messages", messages}});
    ASSERT_EQ(chat_count.status, 200) << chat_count.raw;
    EXPECT_EQ(chat_count.body["count"], chatted.body["usage"]["prompt_tokens"]);

    const Answer bare = post(port(), "/tokenize", {{"prompt", text}, {"add_special_tokens", false}, {"with_pieces", true}});
    ASSERT_EQ(bare.status, 200) << bare.raw;
    std::string pieces;
    json ids = json::array();
    for (const json& t : bare.body["tokens"]) {
        pieces += t["piece"].get<std::string>();
        ids.push_back(t["id"]);
    }
    EXPECT_EQ(pieces, text) << "the model's own text tokens, nothing added";
    const Answer back = post(port(), "/detokenize", {{"tokens", ids}});
    ASSERT_EQ(back.status, 200) << back.raw;
    EXPECT_EQ(back.body["content"], text);
    EXPECT_EQ(back.body["prompt"], text);

    EXPECT_EQ(post(port(), "/detokenize", {{"tokens", {1, 99999999}}}).body["error"]["param"], "tokens");
    EXPECT_EQ(post(port(), "/detokenize", {{"tokens", {1, -2}}}).status, 400);
    EXPECT_EQ(post(port(), "/tokenize", {{"content", 5}}).status, 400);
    EXPECT_EQ(post(port(), "/tokenize", json::object()).status, 400);
    EXPECT_EQ(get(port(), "/tokenize").status, 405);
}

// /v1/embeddings: one unit vector per input, in order, the model's width; the same text gives
// the same vector, another text another; base64 carries the same floats; the usage counts the
// tokens /tokenize counts.
TEST_F(Serve, EmbeddingsAreUnitVectorsOneForEachInput) {
    const json inputs = json::array({"Add 17 and 26.", "What is 12 + 9?", "Add 17 and 26."});
    const Answer a = post(port(), "/v1/embeddings", {{"input", inputs}, {"model", "octet.gguf"}});
    ASSERT_EQ(a.status, 200) << a.raw;
    EXPECT_EQ(a.body["object"], "list");
    ASSERT_EQ(a.body["data"].size(), 3u);
    std::vector<std::vector<float>> vectors;
    for (size_t i = 0; i < 3; ++i) {
        const json& d = a.body["data"][i];
        EXPECT_EQ(d["object"], "embedding");
        EXPECT_EQ(d["index"], i);
        vectors.push_back(d["embedding"].get<std::vector<float>>());
        double norm = 0.0;
        for (const float v : vectors.back()) norm += static_cast<double>(v) * v;
        EXPECT_NEAR(norm, 1.0, 1e-4);
    }
    EXPECT_GT(vectors[0].size(), 8u);
    EXPECT_EQ(vectors[0].size(), vectors[1].size());
    EXPECT_EQ(vectors[0], vectors[2]) << "the same text, the same vector";
    EXPECT_NE(vectors[0], vectors[1]);
    int64_t tokens = 0;
    for (const json& text : inputs) tokens += post(port(), "/tokenize", {{"content", text}}).body["count"].get<int64_t>();
    EXPECT_EQ(a.body["usage"]["prompt_tokens"], tokens);

    const Answer packed = post(port(), "/v1/embeddings", {{"input", "Add 17 and 26."}, {"encoding_format", "base64"}});
    ASSERT_EQ(packed.status, 200) << packed.raw;
    const std::string text = packed.body["data"][0]["embedding"];
    // RFC 4648 base64 of little-endian float32s.
    static const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string bytes;
    uint32_t bits = 0;
    int count = 0;
    for (const char c : text) {
        if (c == '=') break;
        bits = (bits << 6) | static_cast<uint32_t>(kAlphabet.find(c));
        if ((count += 6) >= 8) {
            count -= 8;
            bytes.push_back(static_cast<char>((bits >> count) & 0xff));
        }
    }
    ASSERT_EQ(bytes.size(), vectors[0].size() * sizeof(float));
    std::vector<float> decoded(vectors[0].size());
    std::memcpy(decoded.data(), bytes.data(), bytes.size());
    EXPECT_EQ(decoded, vectors[0]);

    EXPECT_EQ(post(port(), "/v1/embeddings", {{"input", {1, 2, 3}}}).body["error"]["param"], "input");
    EXPECT_EQ(post(port(), "/v1/embeddings", json::object()).status, 400);
    EXPECT_EQ(post(port(), "/v1/embeddings", {{"input", "x"}, {"dimensions", 8}}).status, 400);
    EXPECT_EQ(post(port(), "/v1/embeddings", {{"input", "x"}, {"model", "other"}}).status, 404);
}

TEST_F(Serve, SeveralChoicesAreSeveralSamples) {
    const Answer a = post(port(), "/v1/chat/completions", chat("Add 17 and 26.", {{"n", 3}, {"temperature", 1.5}, {"seed", 5}}));
    ASSERT_EQ(a.status, 200) << a.raw;
    ASSERT_EQ(a.body["choices"].size(), 3u);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(a.body["choices"][static_cast<size_t>(i)]["index"], i);
    // choice i is the request with seed + i
    const Answer second = post(port(), "/v1/chat/completions", chat("Add 17 and 26.", {{"temperature", 1.5}, {"seed", 6}}));
    EXPECT_EQ(a.body["choices"][1]["message"]["content"], second.body["choices"][0]["message"]["content"]);
}

TEST_F(Serve, MalformedRequestsGetOpenAiErrorsAndTheServerKeepsServing) {
    const std::vector<std::pair<std::string, std::string>> bodies = {
        {"/v1/chat/completions", R"({"messages": [{"role": "user", "content": "x"})"},
        {"/v1/chat/completions", R"({})"},
        {"/v1/chat/completions", R"({"messages": [{"role": "wizard", "content": "x"}]})"},
        {"/v1/chat/completions", R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": -5})"},
        {"/v1/chat/completions", R"({"messages": [{"role": "user", "content": "x"}], "temperature": 7})"},
        {"/v1/chat/completions", R"({"messages": [{"role": "user", "content": "x"}], "n": 0})"},
        {"/v1/chat/completions", R"({"messages": [{"role": "assistant", "content": "x"}, {"role": "assistant", "content": "y"}]})"},
        {"/v1/completions", R"({"prompt": 5})"},
        {"/v1/completions", "\xff\xfe not json"},
        {"/v1/completions", R"({"prompt": "x", "octoscope": {"disable": ["rte-q"]}})"},
    };
    for (const auto& [path, body] : bodies) {
        const Answer a = post_raw(port(), path, body);
        EXPECT_EQ(a.status, 400) << body << " → " << a.raw;
        ASSERT_TRUE(a.body.is_object()) << a.raw;
        EXPECT_TRUE(a.body["error"]["message"].is_string()) << a.raw;
        EXPECT_EQ(a.body["error"]["type"], "invalid_request_error");
    }
    EXPECT_EQ(post(port(), "/v1/chat/completions", chat("x", {{"model", "gpt-4"}})).status, 404);
    EXPECT_EQ(get(port(), "/v1/nothing").status, 404);
    EXPECT_EQ(get(port(), "/v1/chat/completions").status, 405);
    std::string long_prompt;
    for (int i = 0; i < 3000; ++i) long_prompt += "What is 35% of 240? ";
    const Answer too_long = post(port(), "/v1/completions", {{"prompt", long_prompt}});
    EXPECT_EQ(too_long.status, 400);
    EXPECT_EQ(too_long.body["error"]["code"], "context_length_exceeded") << too_long.raw;
    httplib::Client client("127.0.0.1", port());
    const std::string huge(5u << 20, 'x');
    auto big = client.Post("/v1/completions", huge, "application/json");
    if (big) { // the server may also close the connection before reading it all
        EXPECT_EQ(big->status, 413);
    }
    // Still serving.
    EXPECT_EQ(post(port(), "/v1/chat/completions", chat("Add 17 and 26.")).status, 200);
    EXPECT_EQ(get(port(), "/health").body["failed"], 0);
}

TEST(ServeAlone, ADisconnectingClientCancelsItsSequenceAndFreesItsBlocks) {
    const std::string path = write_talker();
    ServerProcess server({"--model", path, "--parallel", "2", "--threads", "2", "--max-tokens", "4000"});
    ASSERT_GT(server.port(), 0) << server.err();
    const json body = {{"prompt", "abc"}, {"max_tokens", 4000}, {"temperature", 0}, {"stream", true}};
    const std::vector<json> events = stream(server.port(), "/v1/completions", body, /*stop_after=*/5);
    ASSERT_EQ(events.size(), 5u);
    for (const json& e : events) EXPECT_TRUE(e["choices"][0]["finish_reason"].is_null()) << "it ended before the client left";
    json health;
    for (int i = 0; i < 100; ++i) {
        health = get(server.port(), "/health").body;
        if (health["cancelled"] == 1) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    EXPECT_EQ(health["cancelled"], 1) << health.dump();
    EXPECT_EQ(health["running"], 0);
    EXPECT_EQ(health["kv"]["blocks_used"], 0) << "the cancelled sequence still holds KV blocks";
    EXPECT_EQ(server.stop(), 0) << server.err();
    std::filesystem::remove(path);
}

// A multi-turn request on a chat model: the extension's "prompt" has each message's tokens and
// their mean subsystem values (the lens of every turn).
TEST(ServeAlone, AConversationGetsTheLensOfEveryTurn) {
    const auto refdata = octo::test::refdata_dir();
    if (!refdata) GTEST_SKIP() << "../shared/refdata is absent";
    ServerProcess server({"--model", (*refdata / "qwen2-tiny-f32.gguf").string(), "--threads", "1"});
    ASSERT_GT(server.port(), 0) << server.err();
    const json messages = json::array({{{"role", "system"}, {"content", "Be brief."}},
                                       {{"role", "user"}, {"content", "Alice is the manager."}},
                                       {{"role", "assistant"}, {"content", "Noted."}},
                                       {{"role", "user"}, {"content", "Who is the manager?"}}});
    const Answer a = post(server.port(), "/v1/chat/completions",
                          {{"messages", messages}, {"max_tokens", 2}, {"octoscope", {{"prompt", true}}}});
    ASSERT_EQ(a.status, 200) << a.raw;
    const json& prompt = a.body["choices"][0]["octoscope"]["prompt"];
    ASSERT_EQ(prompt["turns"].size(), 4u) << prompt.dump();
    const size_t n_prompt = prompt["ids"].size();
    size_t previous_end = 0;
    for (size_t m = 0; m < 4; ++m) {
        const json& t = prompt["turns"][m];
        EXPECT_EQ(t["message"], m);
        EXPECT_EQ(t["role"], messages[m]["role"]);
        const size_t first = t["first_token"], end = t["end_token"];
        ASSERT_LT(first, end) << "message " << m << " reached the model";
        EXPECT_LE(end, n_prompt);
        EXPECT_GE(first, previous_end) << "in order";
        previous_end = end;
        std::string text;
        for (size_t i = first; i < end; ++i) text += prompt["pieces"][i].get<std::string>();
        EXPECT_NE(text.find(messages[m]["content"].get<std::string>()), std::string::npos) << text;
        ASSERT_EQ(t["subsystems"].size(), 8u);
        double sum = 0;
        for (const auto& v : t["subsystems"]) sum += v.get<double>();
        EXPECT_NEAR(sum, 1.0, 1e-4) << "a mean of norm shares";
    }
    EXPECT_EQ(server.stop(), 0) << server.err();
}

TEST(ServeAlone, AFullQueueAnswers429) {
    const std::string path = write_talker();
    ServerProcess server({"--model", path, "--parallel", "1", "--max-queue", "1", "--threads", "1", "--max-tokens", "2000"});
    ASSERT_GT(server.port(), 0) << server.err();
    const json slow = {{"prompt", "abc"}, {"max_tokens", 2000}, {"temperature", 0}};
    auto first = std::async(std::launch::async, [&] { return post(server.port(), "/v1/completions", slow); });
    ASSERT_TRUE(wait_for(server.port(), "running", 1));
    auto second = std::async(std::launch::async, [&] { return post(server.port(), "/v1/completions", slow); });
    ASSERT_TRUE(wait_for(server.port(), "waiting", 1));
    const Answer refused = post(server.port(), "/v1/completions", slow);
    EXPECT_EQ(refused.status, 429) << refused.raw;
    EXPECT_EQ(refused.body["error"]["code"], "rate_limit_exceeded");
    EXPECT_EQ(first.get().status, 200);
    EXPECT_EQ(second.get().status, 200);
    EXPECT_EQ(post(server.port(), "/v1/completions", {{"prompt", "abc"}, {"max_tokens", 4}}).status, 200); // room again
    EXPECT_EQ(server.stop(), 0) << server.err();
    std::filesystem::remove(path);
}

// --max-queue 0: no request waits, but one that can start at once is served (it refused every
// request, even on an idle server).
TEST(ServeAlone, NoQueueStillServesAnIdleServer) {
    const std::string path = write_talker();
    ServerProcess server({"--model", path, "--parallel", "1", "--max-queue", "0", "--threads", "1", "--max-tokens", "2000"});
    ASSERT_GT(server.port(), 0) << server.err();
    EXPECT_EQ(post(server.port(), "/v1/completions", {{"prompt", "abc"}, {"max_tokens", 4}}).status, 200) << "idle: served";
    const json slow = {{"prompt", "abc"}, {"max_tokens", 2000}, {"temperature", 0}};
    auto first = std::async(std::launch::async, [&] { return post(server.port(), "/v1/completions", slow); });
    ASSERT_TRUE(wait_for(server.port(), "running", 1));
    const Answer refused = post(server.port(), "/v1/completions", slow);
    EXPECT_EQ(refused.status, 429) << "busy and no room to wait: " << refused.raw;
    EXPECT_EQ(first.get().status, 200);
    EXPECT_EQ(post(server.port(), "/v1/completions", {{"prompt", "abc"}, {"max_tokens", 4}}).status, 200) << "idle again";
    EXPECT_EQ(server.stop(), 0) << server.err();
    std::filesystem::remove(path);
}

TEST(ServeAlone, KeysAreRequiredOffLoopbackAndChecked) {
    const CliRun open = run_cli({"serve", "--host", "0.0.0.0", "--port", "0"});
    EXPECT_EQ(open.exit_status, 2);
    EXPECT_NE(open.err.find("--api-key"), std::string::npos) << open.err;
    // An empty key is refused, not taken as "no key" (it silently turned the check off).
    const CliRun empty = run_cli({"serve", "--api-key", "", "--port", "0"});
    EXPECT_EQ(empty.exit_status, 2);
    EXPECT_NE(empty.err.find("--api-key"), std::string::npos) << empty.err;

    ServerProcess server({"--api-key-env", "OCTO_TEST_KEY", "--threads", "2"}, {"OCTO_TEST_KEY=s3cret"});
    ASSERT_GT(server.port(), 0) << server.err();
    const json body = chat("Add 17 and 26.");
    const Answer none = post(server.port(), "/v1/chat/completions", body);
    EXPECT_EQ(none.status, 401);
    EXPECT_EQ(none.body["error"]["type"], "authentication_error");
    EXPECT_EQ(post(server.port(), "/v1/chat/completions", body, {{"Authorization", "Bearer wrong"}}).status, 401);
    EXPECT_EQ(post(server.port(), "/v1/chat/completions", body, {{"Authorization", "Bearer s3cret"}}).status, 200);
    // The scheme's case does not matter (RFC 9110); another scheme, or none, is refused.
    EXPECT_EQ(post(server.port(), "/v1/chat/completions", body, {{"Authorization", "bearer s3cret"}}).status, 200);
    EXPECT_EQ(post(server.port(), "/v1/chat/completions", body, {{"Authorization", "BEARER s3cret"}}).status, 200);
    EXPECT_EQ(post(server.port(), "/v1/chat/completions", body, {{"Authorization", "Basic s3cret"}}).status, 401);
    EXPECT_EQ(post(server.port(), "/v1/chat/completions", body, {{"Authorization", "s3cret"}}).status, 401);
    EXPECT_EQ(post(server.port(), "/v1/chat/completions", body, {{"Authorization", "Bearer"}}).status, 401);
    EXPECT_EQ(get(server.port(), "/health").status, 200); // health needs no key
    EXPECT_EQ(server.stop(), 0);
}

TEST_F(Serve, GenerateWithEngineRunsOnTheServerWithEveryMeasurement) {
    const std::string url = "http://127.0.0.1:" + std::to_string(port());
    const CliRun local = run_cli({"generate", "--prompt", "What is 35% of 240?", "--max-tokens", "24", "--json"});
    const CliRun remote = run_cli({"generate", "--engine", url, "--prompt", "What is 35% of 240?", "--max-tokens", "24", "--json"});
    ASSERT_EQ(remote.exit_status, 0) << remote.err;
    const json r = remote.json(), l = local.json();
    EXPECT_EQ(r["text"], l["text"]);
    EXPECT_EQ(r["octoscope_server"], true);
    EXPECT_EQ(r["model"], "octet.gguf");
    ASSERT_EQ(r["tokens"].size(), l["tokens"].size());
    for (size_t i = 0; i < r["tokens"].size(); ++i) {
        EXPECT_NEAR(r["tokens"][i]["logprob"].get<double>(), l["tokens"][i]["logprob"].get<double>(), 1e-9);
        ASSERT_EQ(r["tokens"][i]["subsystems"].size(), 8u);
        EXPECT_NEAR(r["tokens"][i]["subsystems"][2].get<double>(), l["tokens"][i]["subsystems"][2].get<double>(), 1e-6);
    }
    EXPECT_EQ(r["prompt_ids"], l["prompt_ids"]);
    EXPECT_EQ(r["stop_reason"], l["stop_reason"]);
    EXPECT_GT(r["timing"]["ttft_ms"].get<double>(), 0.0);
    // Switches reach the server.
    const CliRun off = run_cli({"generate", "--engine", url, "--prompt", "What is 35% of 240?", "--disable", "rte-c", "--json"});
    const CliRun off_local = run_cli({"generate", "--prompt", "What is 35% of 240?", "--disable", "rte-c", "--json"});
    ASSERT_EQ(off.exit_status, 0) << off.err;
    EXPECT_EQ(off.json()["text"], off_local.json()["text"]);
    // Local-only options are refused with --engine.
    const CliRun precision = run_cli({"generate", "--engine", url, "--prompt", "x", "--precision", "exact"});
    EXPECT_EQ(precision.exit_status, 2);
    const CliRun wrong_model = run_cli({"generate", "--engine", url, "--model", "gpt-4", "--prompt", "x"});
    EXPECT_EQ(wrong_model.exit_status, 2);
    EXPECT_NE(wrong_model.err.find("octet.gguf"), std::string::npos) << wrong_model.err;
}

// A capture of a run on the server names it, holds its measurements, and replays there.
TEST_F(Serve, CapturesOfServerRunsNameTheServerAndReplayThere) {
    const std::string url = "http://127.0.0.1:" + std::to_string(port());
    const std::string file = temp_path("served.octo");
    const CliRun saved = run_cli({"generate", "--engine", url, "--prompt", "What is 12 times 7?", "--save-capture", file, "--json"});
    ASSERT_EQ(saved.exit_status, 0) << saved.err;
    const CliRun info = run_cli({"capture-info", file, "--json"});
    ASSERT_EQ(info.exit_status, 0) << info.err;
    const json i = info.json();
    EXPECT_EQ(i["format_version"], 3);
    EXPECT_EQ(i["engine"]["url"], url);
    EXPECT_EQ(i["engine"]["model"], "octet.gguf");
    EXPECT_EQ(i["engine"]["octoscope"], true);
    EXPECT_EQ(i["engine"]["fingerprint"], saved.json()["fingerprint"]);
    EXPECT_EQ(i["settings"]["precision"], nullptr);
    EXPECT_EQ(i["model"]["n_layer"], 16);
    EXPECT_EQ(i["text"], saved.json()["text"]);
    EXPECT_GT(i["prompt_tokens"].get<int>(), 0);
    EXPECT_EQ(i["stop_reason"], "end_of_generation");
    // The tokens equal the local run's, so a local capture replays identically on the server too.
    const CliRun replay = run_cli({"replay", file, "--json"});
    ASSERT_EQ(replay.exit_status, 0) << replay.err;
    EXPECT_EQ(replay.json()["identical"], true);
    EXPECT_EQ(replay.json()["prompt_identical"], true);
    EXPECT_EQ(replay.json()["recorded_fingerprint"], replay.json()["fingerprint"]);
    const std::string local = temp_path("local.octo");
    ASSERT_EQ(run_cli({"generate", "--prompt", "What is 12 times 7?", "--save-capture", local}).exit_status, 0);
    const CliRun there = run_cli({"replay", local, "--engine", url, "--json"});
    ASSERT_EQ(there.exit_status, 0) << there.err;
    EXPECT_EQ(there.json()["identical"], true);
    EXPECT_EQ(there.json()["tokens_compared"], i["generated_tokens"]);
}

// chat --engine: only the missing last turn runs, on the server; the text measures need no run.
TEST_F(Serve, ChatWithEngineGeneratesTheLastTurnThere) {
    const std::string url = "http://127.0.0.1:" + std::to_string(port());
    const std::string file = temp_path("chat-engine.json");
    std::ofstream(file) << R"([{"role": "user", "content": "Alice is the manager."},
        {"role": "assistant", "content": "Bob, the manager, agrees."}, {"role": "user", "content": "What is 35% of 240?"}])";
    const CliRun remote = run_cli({"chat", "--engine", url, "--conversation", file, "-n", "24", "--json"});
    const CliRun local = run_cli({"chat", "--conversation", file, "-n", "24", "--json"});
    const CliRun refused = run_cli({"chat", "--engine", url, "--conversation", file, "--precision", "exact"});
    std::filesystem::remove(file);
    ASSERT_EQ(remote.exit_status, 0) << remote.err;
    const json r = remote.json(), l = local.json();
    EXPECT_TRUE(r["engine"].is_string());
    EXPECT_EQ(r["model"], "octet.gguf");
    ASSERT_EQ(r["steps"].size(), 1u) << "given turns are not evaluated on a server";
    EXPECT_TRUE(r["steps"][0]["generated"].get<bool>());
    ASSERT_EQ(r["messages"].size(), 4u);
    EXPECT_EQ(r["messages"][3]["content"], l["messages"][3]["content"]) << "the same greedy answer as the local octet";
    EXPECT_TRUE(r["turns"][0]["lens"].is_null());
    ASSERT_EQ(r["coherence"]["findings"].size(), 1u) << "the text measures need no run";
    EXPECT_EQ(r["coherence"]["findings"][0]["later"]["text"], "Bob, the manager");
    EXPECT_EQ(refused.exit_status, 2) << refused.err;
}

// eval, compare and claims with --engine give on an Octoscope server what they give locally.
TEST_F(Serve, EvalWithEngineGivesTheLocalAccuracy) {
    const std::string url = "http://127.0.0.1:" + std::to_string(port());
    const std::string data = std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/octet/octet_test.jsonl";
    for (const std::vector<std::string>& extra : {std::vector<std::string>{}, std::vector<std::string>{"--disable", "rte-b,rte-d"}}) {
        std::vector<std::string> local = {"eval", "--data", data, "--limit", "40", "--json"};
        local.insert(local.end(), extra.begin(), extra.end());
        std::vector<std::string> remote = local;
        for (const char* a : {"--engine", url.c_str(), "--concurrency", "4"}) remote.push_back(a);
        const CliRun l = run_cli(local), r = run_cli(remote);
        ASSERT_EQ(l.exit_status, 0) << l.err;
        ASSERT_EQ(r.exit_status, 0) << r.err;
        const json lj = l.json(), rj = r.json();
        EXPECT_EQ(rj["n"], 40);
        EXPECT_EQ(rj["overall"], lj["overall"]);
        EXPECT_EQ(rj["per_subsystem"], lj["per_subsystem"]);
        EXPECT_EQ(rj["disabled"], lj["disabled"]);
        EXPECT_EQ(rj["engine"], url);
        EXPECT_EQ(rj["concurrency"], 4);
    }
    const CliRun local_only = run_cli({"eval", "--data", data, "--engine", url, "--precision", "exact"});
    EXPECT_EQ(local_only.exit_status, 2) << local_only.err;
}

TEST_F(Serve, CompareWithEngineGivesTheLocalComparison) {
    const std::string url = "http://127.0.0.1:" + std::to_string(port());
    const std::vector<std::string> args = {"compare", "--prompt", "What is 12 times 7?", "--disable-b", "rte-c", "--json"};
    std::vector<std::string> remote = args;
    remote.insert(remote.end(), {"--engine", url});
    const CliRun l = run_cli(args), r = run_cli(remote);
    ASSERT_EQ(l.exit_status, 0) << l.err;
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const json lj = l.json(), rj = r.json();
    EXPECT_EQ(rj["first_divergence"], lj["first_divergence"]);
    EXPECT_EQ(rj["a"]["text"], lj["a"]["text"]);
    EXPECT_EQ(rj["b"]["text"], lj["b"]["text"]);
    const json& lc = lj["comparison"];
    const json& rc = rj["comparison"];
    ASSERT_EQ(rc["logprob_delta"].size(), lc["logprob_delta"].size());
    for (size_t i = 0; i < lc["logprob_delta"].size(); ++i) {
        EXPECT_NEAR(rc["logprob_delta"][i].get<double>(), lc["logprob_delta"][i].get<double>(), 1e-9);
    }
    for (size_t s = 0; s < 8; ++s) {
        EXPECT_NEAR(rc["subsystems_delta"][s].get<double>(), lc["subsystems_delta"][s].get<double>(), 1e-6);
    }
    EXPECT_EQ(rc["largest_head_change"]["layer"], lc["largest_head_change"]["layer"]);
    EXPECT_EQ(rc["largest_head_change"]["head"], lc["largest_head_change"]["head"]);
}

TEST_F(Serve, ClaimsWithEngineMeasureWhatTheServerCanShow) {
    const std::string url = "http://127.0.0.1:" + std::to_string(port());
    const std::vector<std::string> args = {"claims", "--claim", "groups-specialise", "--claim", "degraded-f-to-a", "--claim",
                                           "bold-numbers", "--claim", "kv-pool-reuse", "--items", "2", "--json"};
    std::vector<std::string> remote = args;
    remote.insert(remote.end(), {"--engine", url, "--concurrency", "8"});
    const CliRun l = run_cli(args), r = run_cli(remote);
    ASSERT_EQ(l.exit_status, 0) << l.err;
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const json lc = l.json()["claims"], rc = r.json()["claims"];
    ASSERT_EQ(rc.size(), 4u);
    for (size_t i = 0; i < 3; ++i) {
        SCOPED_TRACE(rc[i]["id"].get<std::string>());
        EXPECT_EQ(rc[i]["measured"], lc[i]["measured"]);
        EXPECT_EQ(rc[i]["n"], lc[i]["n"]);
        if (!lc[i].contains("control")) {
            EXPECT_EQ(rc[i]["verdict"], lc[i]["verdict"]);
            continue;
        }
        // A server's map cannot be shuffled: the control runs only here, so a local "holds" is
        // inconclusive through the server, and says why.
        EXPECT_TRUE(rc[i]["control"]["measured"].is_null());
        EXPECT_NE(rc[i]["control"]["reason"].get<std::string>().find("needs a local model"), std::string::npos);
        EXPECT_EQ(rc[i]["verdict"], lc[i]["verdict"] == "holds" ? json("inconclusive") : lc[i]["verdict"]);
    }
    EXPECT_EQ(lc[0]["id"], "groups-specialise");
    EXPECT_TRUE(lc[0]["control"]["measured"].is_number()) << "measured here beside its control";
    // The server's prefix cache is not this run's: KV reuse needs a local model.
    EXPECT_EQ(rc[3]["verdict"], "not measurable on this model");
    EXPECT_NE(rc[3]["reason"].get<std::string>().find("needs a local model"), std::string::npos);
    EXPECT_NE(r.json()["model"].get<std::string>().find(url), std::string::npos);
}

// Another OpenAI-compatible server (here a fake one answering as TGI does): outputs work, the
// engine's internals are refused with a sentence, an unreachable server is a clean error.
TEST(ServeAlone, GenerateWithEngineOnAnotherServerSaysWhatItCannotShow) {
    httplib::Server fake;
    const std::string stream_body = [] {
        std::ifstream in(std::string(OCTOSCOPE_TESTS_DIR) + "/data/openai/tgi_chat_stream.sse", std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    fake.Get("/v1/models", [](const httplib::Request&, httplib::Response& r) {
        r.set_content(R"({"object": "list", "data": [{"id": "tgi", "object": "model", "owned_by": "tgi"}]})", "application/json");
    });
    fake.Post("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& r) { r.set_content(stream_body, "text/event-stream"); });
    const int fake_port = fake.bind_to_any_port("127.0.0.1");
    std::thread listener([&] { fake.listen_after_bind(); });
    const std::string url = "http://127.0.0.1:" + std::to_string(fake_port) + "/v1";
    const CliRun ok = run_cli({"generate", "--engine", url, "--chat", "--prompt", "What colour is the sky?", "--json"});
    EXPECT_EQ(ok.exit_status, 0) << ok.err;
    if (ok.exit_status == 0) {
        EXPECT_EQ(ok.json()["text"], "The sky is blue.");
        EXPECT_EQ(ok.json()["octoscope_server"], false);
        EXPECT_EQ(ok.json()["tokens"].size(), 5u);
    }
    const CliRun internals = run_cli({"generate", "--engine", url, "--chat", "--prompt", "x", "--disable", "rte-c"});
    EXPECT_EQ(internals.exit_status, 2);
    EXPECT_NE(internals.err.find("need a local model or an Octoscope server"), std::string::npos) << internals.err;
    // eval and claims judge its outputs; what needs internals says so.
    const std::string data = std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/octet/octet_test.jsonl";
    const CliRun eval = run_cli({"eval", "--data", data, "--limit", "6", "--engine", url, "--concurrency", "3", "--json"});
    EXPECT_EQ(eval.exit_status, 0) << eval.err;
    if (eval.exit_status == 0) {
        EXPECT_EQ(eval.json()["n"], 6);
        EXPECT_EQ(eval.json()["overall"], 0.0); // "The sky is blue." answers nothing
    }
    // A capture of its run: no ids, no model shape; its replay compares text and says sampled runs need not repeat.
    const std::string file = temp_path("tgi.octo");
    const CliRun saved = run_cli({"generate", "--engine", url, "--chat", "--prompt", "Sky?", "--save-capture", file});
    EXPECT_EQ(saved.exit_status, 0) << saved.err;
    const CliRun info = run_cli({"capture-info", file, "--json"});
    EXPECT_EQ(info.exit_status, 0) << info.err;
    if (info.exit_status == 0) {
        EXPECT_EQ(info.json()["engine"]["model"], "tgi");
        EXPECT_EQ(info.json()["engine"]["octoscope"], false);
        EXPECT_EQ(info.json()["model"]["n_layer"], 0);
        EXPECT_EQ(info.json()["prompt_tokens"], 0);
        EXPECT_EQ(info.json()["text"], "The sky is blue.");
    }
    const CliRun replay = run_cli({"replay", file, "--json"});
    EXPECT_EQ(replay.exit_status, 0) << replay.err;
    if (replay.exit_status == 0) {
        EXPECT_EQ(replay.json()["identical"], true);
        EXPECT_EQ(replay.json()["prompt_identical"], nullptr); // not known: the server sends no prompt tokens
        EXPECT_EQ(replay.json()["tokens_compared"], 5);
    }
    const CliRun sampled = run_cli({"generate", "--engine", url, "--chat", "--prompt", "Sky?", "--temperature", "0.8",
                                    "--save-capture", file});
    EXPECT_EQ(sampled.exit_status, 0) << sampled.err;
    const CliRun sampled_replay = run_cli({"replay", file, "--json"});
    EXPECT_EQ(sampled_replay.exit_status, 0) << sampled_replay.err;
    if (sampled_replay.exit_status == 0) {
        EXPECT_NE(sampled_replay.json()["note"].get<std::string>().find("need not repeat"), std::string::npos);
    }
    const CliRun eval_off = run_cli({"eval", "--data", data, "--engine", url, "--disable", "rte-c"});
    EXPECT_EQ(eval_off.exit_status, 2);
    const CliRun claims = run_cli({"claims", "--claim", "groups-specialise", "--claim", "compute-beats-analyse", "--items", "2",
                                   "--engine", url, "--json"});
    EXPECT_EQ(claims.exit_status, 0) << claims.err;
    if (claims.exit_status == 0) {
        const json c = claims.json()["claims"];
        EXPECT_EQ(c[0]["verdict"], "not measurable on this model");
        EXPECT_NE(c[0]["reason"].get<std::string>().find("needs a local model or an Octoscope server"), std::string::npos);
        EXPECT_TRUE(c[1]["measured"].is_number()); // an A/B of outputs: measurable anywhere
    }
    fake.stop();
    listener.join();
    const CliRun gone = run_cli({"generate", "--engine", url, "--prompt", "x"});
    EXPECT_EQ(gone.exit_status, 1);
    EXPECT_NE(gone.err.find("cannot reach"), std::string::npos) << gone.err;
}

// Ctrl+C during `eval --engine`: the open requests are closed, no new one is sent, exit 130.
TEST(ServeAlone, EvalWithEngineStopsCleanlyOnInterrupt) {
    httplib::Server slow;
    std::atomic<int> started{0};
    slow.Get("/v1/models", [](const httplib::Request&, httplib::Response& r) {
        r.set_content(R"({"object": "list", "data": [{"id": "slow", "object": "model", "owned_by": "someone"}]})", "application/json");
    });
    slow.Post("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& r) {
        started += 1;
        r.set_chunked_content_provider("text/event-stream", [](size_t, httplib::DataSink& sink) {
            for (int i = 0; i < 3000; ++i) { // a minute of tokens unless the client leaves
                const std::string e = "data: {\"choices\": [{\"index\": 0, \"delta\": {\"content\": \"x\"}}]}\n\n";
                if (!sink.write(e.data(), e.size())) return false;
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            sink.done();
            return true;
        });
    });
    const int port = slow.bind_to_any_port("127.0.0.1");
    std::thread listener([&] { slow.listen_after_bind(); });
    const std::string data = std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/octet/octet_test.jsonl";
    const std::string cmd = "timeout --preserve-status -s INT 2 '" + std::string(OCTOSCOPE_CLI_PATH) + "' eval --data '" + data +
                            "' --limit 8 --max-tokens 4000 --concurrency 2 --engine http://127.0.0.1:" + std::to_string(port) +
                            " --json > /dev/null 2>&1";
    const int status = std::system(cmd.c_str());
    slow.stop();
    listener.join();
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    EXPECT_EQ(started.load(), 2) << "after the interrupt no new request is sent";
}

TEST(ServeAlone, LoadBenchmarkReportsEachLevel) {
    const CliRun r = run_cli({"bench", "--serve", "--clients", "1,3", "--requests", "2", "--max-tokens", "6", "--threads", "2", "--json"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const json j = r.json();
    ASSERT_EQ(j["levels"].size(), 2u);
    EXPECT_EQ(j["levels"][0]["clients"], 1);
    EXPECT_EQ(j["levels"][1]["clients"], 3);
    EXPECT_EQ(j["levels"][1]["requests"], 6);
    for (const json& l : j["levels"]) {
        EXPECT_EQ(l["failed"], 0);
        EXPECT_GT(l["tokens_per_s"].get<double>(), 0.0);
        EXPECT_GT(l["requests_per_s"].get<double>(), 0.0);
    }
    EXPECT_DOUBLE_EQ(j["levels"][0]["tokens_per_s_vs_one_client"].get<double>(), 1.0);
    EXPECT_GE(j["mean_batch"].get<double>(), 1.0);
    for (const json& l : j["levels"]) EXPECT_LE(l["p50_latency_s"].get<double>(), l["p95_latency_s"].get<double>());
}

// --url: the same client loads a server started apart (as a peer's would be), whose model list
// names it; every request of each level is answered there (the server's metrics count them).
TEST(ServeAlone, LoadBenchmarkLoadsAServerStartedApart) {
    ServerProcess server({"--threads", "1", "--parallel", "2"});
    ASSERT_GT(server.port(), 0) << server.err();
    const std::string url = "http://127.0.0.1:" + std::to_string(server.port());
    const CliRun r = run_cli({"bench", "--serve", "--url", url, "--clients", "1,2", "--requests", "2", "--max-tokens", "4", "--json"});
    ASSERT_EQ(r.exit_status, 0) << r.err;
    const json j = r.json();
    EXPECT_EQ(j["model"], "octet.gguf");
    ASSERT_EQ(j["levels"].size(), 2u);
    for (const json& l : j["levels"]) EXPECT_EQ(l["failed"], 0);
    EXPECT_FALSE(j.contains("mean_batch")) << "not known of another process";
    const std::string seven = "octoscope_requests_total{endpoint=\"/v1/completions\",status=\"200\"} 7";
    const std::string metrics = metrics_holding(server.port(), {seven}).raw;
    EXPECT_NE(metrics.find(seven + "\n"), std::string::npos)
        << "a warm-up and 2 + 4 requests: " << metrics.substr(0, 400);
    EXPECT_EQ(run_cli({"bench", "--serve", "--url", "ftp://x"}).exit_status, 2);
    EXPECT_EQ(server.stop(), 0) << server.err();
}

} // namespace
} // namespace octo::test
