// A run on a server as a trace and as a capture (engine/remote/remote_trace.h, capture format
// version 3's `engine`): what the server sent is kept — ids, log-probabilities, an Octoscope
// server's prompt, metrics and head norms — nothing else is made up, and such a capture reads back
// with the server named. Replays of runs without ids compare text.
// Covers: openai_runner.cpp, remote_answers.cpp
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "engine/capture/capture_container.h"
#include "engine/capture/capture_io.h"
#include "engine/capture/capture_payload.h"
#include "engine/capture/capture_replay.h"
#include "engine/remote/openai_runner.h"
#include "engine/remote/remote_answers.h"
#include "engine/remote/remote_trace.h"
#include "engine/serve/openai_server.h"

namespace octo {
namespace {

using nlohmann::json;

// Another server: text only, no ids, log-probabilities for the first two tokens.
remote::RemoteResult plain_result() {
    remote::RemoteResult r;
    r.text = "The sky";
    r.finish_reason = "length";
    r.model = "tgi";
    r.fingerprint = "3.0.1-sha-abc";
    r.ttft_ms = 40.0;
    r.total_ms = 70.0;
    r.tokens = {{"The", -0.5, {{"A", -1.5, std::nullopt}}, std::nullopt, nullptr, 40.0},
                {" sky", -0.25, {}, std::nullopt, nullptr, 55.0},
                {"", std::nullopt, {}, std::nullopt, nullptr, 70.0}};
    return r;
}

// An Octoscope server with the extension: ids, the prompt, metrics, head norms, stop reason, KV.
remote::RemoteResult octoscope_result() {
    remote::RemoteResult r;
    r.text = "84";
    r.finish_reason = "stop";
    r.ttft_ms = 5.0;
    r.total_ms = 9.0;
    const json shares = json::array({0.1, 0.1, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1});
    r.tokens = {{"8", -0.1, {{"7", -2.5, 51}}, 54, {{"id", 54}, {"metrics", {{"gates", shares}, {"norm_share", shares}}}, {"heads", {1.0, 2.0}}}, 5.0},
                {"4", -0.2, {}, std::nullopt, {{"id", 50}, {"metrics", {{"gates", shares}}}}, 7.0},
                {"", -0.01, {}, 2046, {{"id", 2046}, {"metrics", json::object()}}, 9.0}};
    r.octoscope = {{"metric", "gates"},
                   {"stop_reason", "end_of_generation"},
                   {"prompt", {{"ids", {1, 7, 9}}, {"pieces", {"<s>", "What", "?"}}, {"metrics", {{{"gates", shares}}, json::object(), json::object()}}}},
                   {"kv", {{"reused_tokens", 2}, {"evaluated_tokens", 1}, {"block_size", 16}, {"blocks_total", 64},
                           {"blocks_used", 2}, {"blocks_cached", 5}}}};
    return r;
}

RunSpec spec_of(const std::string& prompt) {
    RunSpec s;
    s.prompt = prompt;
    s.max_tokens = 3;
    return s;
}

// A spec's conversation is what a server is asked (chat), whole; a plain prompt goes to completions.
TEST(RemoteTrace, AConversationIsSentWhole) {
    RunSpec spec;
    spec.messages = {{ChatRole::User, "u"}, {ChatRole::Assistant, "a"}, {ChatRole::User, "v"}};
    const remote::RemoteRequest r = remote::request_for_spec(spec, remote::RemoteModel{}, "", false);
    EXPECT_TRUE(r.chat);
    EXPECT_EQ(r.messages, spec.messages);
    RunSpec plain;
    plain.prompt = "p";
    const remote::RemoteRequest p = remote::request_for_spec(plain, remote::RemoteModel{}, "", false);
    EXPECT_FALSE(p.chat);
    EXPECT_EQ(p.prompt, "p");
    EXPECT_TRUE(p.messages.empty());
}

TEST(RemoteTrace, AnotherServersRunKeepsOnlyWhatItSent) {
    const RunTrace t = remote::trace_of_remote_run(spec_of("Sky?"), plain_result());
    EXPECT_EQ(t.n_prompt, 0u); // the server sends no prompt tokens
    ASSERT_EQ(t.n_generated(), 3u);
    const auto g = t.generated();
    EXPECT_EQ(g[0].id, -1);
    EXPECT_EQ(g[0].bytes, "The");
    ASSERT_TRUE(g[0].logprobs);
    EXPECT_DOUBLE_EQ(g[0].logprobs->logprob, -0.5);
    EXPECT_TRUE(g[0].logprobs->top.empty()) << "an alternative without an id is not stored";
    EXPECT_FALSE(g[2].logprobs);
    EXPECT_DOUBLE_EQ(g[0].ms, 40.0);
    EXPECT_DOUBLE_EQ(g[1].ms, 15.0);
    EXPECT_FALSE(g[0].metrics.norm_share);
    EXPECT_TRUE(g[0].probe.head_norms.empty());
    ASSERT_TRUE(t.outcome);
    EXPECT_EQ(t.outcome->stop_reason, StopReason::MaxTokens);
    EXPECT_DOUBLE_EQ(t.outcome->prefill_ms, 40.0);
    EXPECT_DOUBLE_EQ(t.outcome->decode_ms, 30.0);
}

TEST(RemoteTrace, AnOctoscopeServersRunHasItsMeasurements) {
    const RunTrace t = remote::trace_of_remote_run(spec_of("What?"), octoscope_result());
    ASSERT_EQ(t.n_prompt, 3u);
    EXPECT_EQ(t.prompt_ids(), (std::vector<int32_t>{1, 7, 9}));
    EXPECT_EQ(t.prompt_text, "<s>What?");
    ASSERT_TRUE(t.tokens[0].metrics.gates);
    EXPECT_FLOAT_EQ((*t.tokens[0].metrics.gates)[2], 0.3f);
    EXPECT_EQ(t.generated_ids(), (std::vector<int32_t>{54, 50, 2046})); // ids from the extension where logprobs had none
    ASSERT_EQ(t.generated()[0].logprobs->top.size(), 1u);
    EXPECT_EQ(t.generated()[0].logprobs->top[0].id, 51);
    EXPECT_EQ(t.generated()[0].probe.head_norms, (std::vector<float>{1.0f, 2.0f}));
    EXPECT_TRUE(t.generated()[1].metrics.gates);
    EXPECT_FALSE(t.generated()[1].metrics.norm_share);
    EXPECT_EQ(t.default_metric, Metric::Gates);
    EXPECT_EQ(t.outcome->stop_reason, StopReason::EndOfGeneration);
    EXPECT_EQ(t.outcome->reused_tokens, 2);
    // The pool's totals as the server reported them; no history or block states are made up.
    EXPECT_EQ(t.outcome->kv.block_size, 16);
    EXPECT_EQ(t.outcome->kv.blocks_total, 64);
    EXPECT_EQ(t.outcome->kv.blocks_used, 2);
    EXPECT_EQ(t.outcome->kv.blocks_cached, 5);
    EXPECT_EQ(t.outcome->kv.blocks_free, 57);
    EXPECT_TRUE(t.outcome->kv_history.empty());
    EXPECT_TRUE(t.outcome->kv_blocks.empty());
    // Counts that do not add up are bounded by the total, never negative.
    remote::RemoteResult odd = octoscope_result();
    odd.octoscope["kv"] = {{"blocks_total", 4}, {"blocks_used", 9}, {"blocks_cached", -3}};
    const RunTrace o = remote::trace_of_remote_run(spec_of("What?"), odd);
    EXPECT_EQ(o.outcome->kv.blocks_used, 4);
    EXPECT_EQ(o.outcome->kv.blocks_cached, 0);
    EXPECT_EQ(o.outcome->kv.blocks_free, 0);
}

// A hostile or broken server: every field of the extension with a wrong type is left out, never a
// crash (nlohmann's value() throws on such fields; CI's fuzzer found one in the request parser).
TEST(RemoteTrace, FieldsOfTheWrongTypeAreLeftOut) {
    remote::RemoteResult r = octoscope_result();
    r.octoscope = {{"metric", 7},
                   {"stop_reason", {{"a", 1}}},
                   {"prompt", {{"ids", "1 7 9"}, {"pieces", 3}, {"metrics", true}}},
                   {"kv", {{"reused_tokens", "2"}, {"evaluated_tokens", 1.5}, {"block_size", "16"}}}};
    r.tokens[0].octoscope = {{"id", "54"}, {"metrics", "gates"}, {"heads", {{"x", 1}}}};
    r.tokens[1].octoscope = json::array({1, 2});
    const RunTrace t = remote::trace_of_remote_run(spec_of("What?"), r);
    EXPECT_EQ(t.n_prompt, 0u);
    EXPECT_EQ(t.default_metric, RunTrace{}.default_metric);
    EXPECT_EQ(t.outcome->stop_reason, StopReason::EndOfGeneration) << "finish_reason \"stop\" without stop strings";
    EXPECT_EQ(t.outcome->reused_tokens, 0);
    EXPECT_EQ(t.outcome->evaluated_tokens, 0);
    EXPECT_EQ(t.outcome->kv.block_size, 0);
    EXPECT_EQ(t.generated_ids(), (std::vector<int32_t>{54, -1, 2046})); // the logprobs' id; none; the extension's
    EXPECT_FALSE(t.generated()[0].metrics.gates);
    EXPECT_TRUE(t.generated()[0].probe.head_norms.empty());
    const ClaimAnswer a = remote::claim_answer(r);
    EXPECT_EQ(a.reused_tokens, ClaimAnswer{}.reused_tokens);
    EXPECT_FALSE(a.is_eog.back());
}

TEST(RemoteTrace, TheServersHeadMapComesWithItsModel) {
    auto client = remote::RemoteClient::create({"http://gpu-box:8000", ""}).value();
    const HeadMap served = HeadMap::make_default(2, 8);
    remote::RemoteModel m{"octet.gguf", true, {{"n_layer", 2}, {"n_head", 8}, {"head_map", serve::served_head_map(served)}}};
    m.describe["head_map"]["source"] = "gguf";
    const ModelInfo info = remote::remote_model_info(client, m);
    ASSERT_TRUE(info.head_map);
    EXPECT_EQ(info.head_map->source(), HeadMapSource::Gguf);
    EXPECT_EQ(info.head_map->to_json(), served.to_json());
    // Only the source (an older server), or a map of another shape: no map, the groups unnamed.
    m.describe["head_map"] = {{"source", "gguf"}, {"path", nullptr}};
    EXPECT_FALSE(remote::remote_model_info(client, m).head_map);
    m.describe["head_map"] = serve::served_head_map(HeadMap::make_default(3, 8));
    EXPECT_FALSE(remote::remote_model_info(client, m).head_map);
}

Capture remote_capture(const remote::RemoteResult& r, bool octoscope) {
    Capture c;
    c.model.file_name = octoscope ? "octet.gguf" : "tgi";
    c.model.name = c.model.file_name;
    c.model.n_layer = octoscope ? 1 : 0;
    c.model.n_head = octoscope ? 2 : 0;
    c.engine = CaptureEngine{"http://gpu-box:8000", c.model.file_name, r.fingerprint, octoscope};
    c.app_version = "test";
    c.backend = "a remote server";
    c.device = "http://gpu-box:8000";
    c.trace = remote::trace_of_remote_run(spec_of("x"), r);
    return c;
}

Result<Capture> round_trip(const Capture& c, uint32_t version = kCaptureFormatVersion, bool drop_engine = false) {
    json payload = encode_capture(c);
    if (drop_engine) payload.erase("engine");
    const std::vector<uint8_t> cbor = json::to_cbor(payload);
    const std::string bytes =
        pack_capture_container({reinterpret_cast<const char*>(cbor.data()), cbor.size()}, version).value();
    return parse_capture({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, "remote.octo");
}

TEST(RemoteTrace, CapturesOfRemoteRunsReadBackWithTheServerNamed) {
    for (const bool octoscope : {false, true}) {
        const Capture c = remote_capture(octoscope ? octoscope_result() : plain_result(), octoscope);
        auto back = round_trip(c);
        ASSERT_TRUE(back.ok()) << back.error().message;
        ASSERT_TRUE(back->engine);
        EXPECT_EQ(back->engine->url, "http://gpu-box:8000");
        EXPECT_EQ(back->engine->model, c.engine->model);
        EXPECT_EQ(back->engine->fingerprint, c.engine->fingerprint);
        EXPECT_EQ(back->engine->octoscope, octoscope);
        EXPECT_EQ(back->model.n_layer, c.model.n_layer);
        ASSERT_EQ(back->trace.tokens.size(), c.trace.tokens.size());
        for (size_t i = 0; i < c.trace.tokens.size(); ++i) {
            EXPECT_EQ(back->trace.tokens[i].id, c.trace.tokens[i].id) << i;
            EXPECT_EQ(back->trace.tokens[i].bytes, c.trace.tokens[i].bytes) << i;
            EXPECT_EQ(back->trace.tokens[i].logprobs.has_value(), c.trace.tokens[i].logprobs.has_value()) << i;
            EXPECT_EQ(back->trace.tokens[i].probe.head_norms, c.trace.tokens[i].probe.head_norms) << i;
        }
        EXPECT_EQ(compare_replay(c.trace, back->trace).identical, true);
    }
    // A local capture has engine null; a version-3 file must say which.
    Capture local = remote_capture(octoscope_result(), true);
    local.engine.reset();
    auto back = round_trip(local);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_FALSE(back->engine);
    auto missing = round_trip(local, kCaptureFormatVersion, true);
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message.find("field \"engine\" is missing"), std::string::npos) << missing.error().message;
    auto older = round_trip(local, 2, true);
    EXPECT_TRUE(older.ok()) << "a version-2 file is a local run";
    // Only a remote run may lack ids, log-probabilities and a model shape.
    Capture bad = remote_capture(plain_result(), false);
    bad.engine.reset();
    EXPECT_FALSE(round_trip(bad).ok());
}

TEST(RemoteTrace, ReplaysWithoutIdsCompareText) {
    const RunTrace a = remote::trace_of_remote_run(spec_of("x"), plain_result());
    EXPECT_TRUE(compare_replay(a, a).identical);
    remote::RemoteResult other = plain_result();
    other.tokens[1].text = " sea";
    const ReplayComparison c = compare_replay(a, remote::trace_of_remote_run(spec_of("x"), other));
    EXPECT_FALSE(c.identical);
    EXPECT_EQ(c.first_divergence, 1u);
}

} // namespace
} // namespace octo
