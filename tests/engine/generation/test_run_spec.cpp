// RunSpec, the one request type: its parts reach the generator and the prompt builder, a capture
// cannot be written without the precision its run took, and its one serialiser (captures and
// autosave) keeps every field. A field added to a part and not serialised stops the build
// (run_spec_json.cpp takes each part apart with a structured binding of all its members); the
// tests below change every serialised key one at a time and check that each reaches the spec and
// comes back.
// Covers: engine/capture/run_spec_json.cpp, instrumented_generation.cpp, run_trace.cpp
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "engine/capture/capture_io.h"
#include "engine/capture/capture_payload.h"
#include "engine/capture/run_spec_json.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/run_spec.h"

namespace octo {
namespace {

using nlohmann::json;

TEST(RunSpec, TheGenerationPartReachesTheGenerator) {
    RunSpec s;
    s.max_tokens = 7;
    s.stop_strings = {"\n\n"};
    s.stop_at_eog = false;
    s.sampling.temperature = 0.5f;
    s.sampling.seed = 9;
    s.top_logprobs = 3;
    const std::atomic<bool> cancel{false};
    const std::vector<int32_t> ids = {1, 2, 3};
    const GenerateRequest g = generate_request(s, {.prompt_ids = ids, .expert_map = nullptr, .cancel = &cancel});
    EXPECT_EQ(g.prompt_ids, ids);
    EXPECT_EQ(g.max_tokens, 7);
    EXPECT_EQ(g.stop_strings, s.stop_strings);
    EXPECT_FALSE(g.stop_at_eog);
    EXPECT_EQ(g.sampling.temperature, 0.5f);
    EXPECT_EQ(g.sampling.seed, 9u);
    EXPECT_EQ(g.top_logprobs, 3u);
    EXPECT_EQ(g.cancel, &cancel);
    EXPECT_EQ(static_cast<const GenerationSpec&>(g), static_cast<const GenerationSpec&>(s));
    EXPECT_FALSE(RunSpec{}.precision) << "no precision named: the model's default";
}

TEST(RunSpec, EqualityCoversEveryPart) {
    const RunSpec a;
    RunSpec b;
    EXPECT_EQ(a, b);
    b.messages.push_back({ChatRole::User, "hi"});
    EXPECT_NE(a, b);
    b = a;
    b.sampling.repeat_last_n = 3;
    EXPECT_NE(a, b);
    b = a;
    b.record_router_probs = true;
    EXPECT_NE(a, b);
    b = a;
    b.disabled_experts.push_back({1, 2});
    EXPECT_NE(a, b);
    b = a;
    b.threads = 2;
    EXPECT_NE(a, b);
}

// A value other than the default for each key, as its JSON text form. A key the serialiser
// writes that is missing here fails the test below, so a new field gets a test value.
const std::map<std::string, json>& changed_values() {
    static const std::map<std::string, json> values = {
        {"prompt", "What is 35% of 240?"},
        {"chat", true},
        {"system", "be brief"},
        {"parse_special", true},
        {"enable_thinking", false},
        {"reasoning_effort", "high"},
        {"messages", json::array({{{"role", "system"}, {"content", "s"}},
                                  {{"role", "user"}, {"content", "u"}},
                                  {{"role", "assistant"}, {"content", ""},
                                   {"tool_calls", json::array({{{"id", "c1"}, {"name", "f"}, {"arguments", "{\"x\":1}"}}})}},
                                  {{"role", "tool"}, {"content", "2"}, {"tool_call_id", "c1"}, {"name", "f"}}})},
        {"tools", json::array({{{"name", "f"}, {"description", "d"}, {"parameters", "{}"},
                                {"declaration", R"({"type":"function","function":{"name":"f"}})"}}})},
        {"tool_choice", "function:f"},
        {"stop_strings", json::array({"\n\n", "END"})},
        {"max_tokens", 17},
        {"stop_at_eog", false},
        {"temperature", 0.5},
        {"seed", 4242u},
        {"top_k", 40},
        {"top_p", 0.75},
        {"repeat_penalty", 1.25},
        {"repeat_last_n", 32},
        {"frequency_penalty", 0.5},
        {"grammar", "root ::= [a-z]+"},
        {"json_schema", R"({"type": "integer"})"},
        {"presence_penalty", -0.25},
        {"logit_bias", json::array({json::array({5, 2.5}), json::array({9, -100.0})})},
        {"top_logprobs", 9},
        {"disabled", json::array({false, false, true, false, false, false, false, true})},
        {"ablation_mode", "mean"},
        {"dla", true},
        {"record_attention", false},
        {"attention_keeps_kv", true},
        {"disabled_experts", json::array({"3:5", "*:2"})},
        {"record_router_probs", true},
        {"switch_target", "experts"},
        {"n_ctx", 256},
        {"threads", 3},
        {"precision", "exact"},
        {"kv_type_k", "f16"},
        {"kv_type_v", "f16"},
    };
    return values;
}

Result<RunSpec> read_back(const json& j) {
    std::string error;
    FieldReader r(j, "settings", error);
    RunSpec s;
    read_run_spec(r, s, [](std::string_view) { return false; });
    if (!error.empty()) return make_error(ErrorCode::Format, error);
    return s;
}

TEST(RunSpecJson, EveryKeyChangesTheSpecAndComesBack) {
    const RunSpec defaults;
    const json base = run_spec_json(defaults, ByteStrings::Text);
    std::set<std::string> written;
    for (const std::string_view key : run_spec_keys()) written.emplace(key);
    EXPECT_EQ(written.size(), run_spec_keys().size()) << "a key is written twice";
    EXPECT_EQ(written.size(), base.size());
    for (const std::string& key : written) {
        ASSERT_TRUE(changed_values().contains(key)) << "no test value for \"" << key << "\": add one above";
        json changed = base;
        changed[key] = changed_values().at(key);
        ASSERT_NE(changed, base) << key;
        auto spec = read_back(changed);
        ASSERT_TRUE(spec) << key << ": " << spec.error().message;
        EXPECT_NE(spec.value(), defaults) << "\"" << key << "\" reached no field";
        EXPECT_EQ(run_spec_json(spec.value(), ByteStrings::Text), changed) << key;
        auto binary = read_back(run_spec_json(spec.value(), ByteStrings::Binary));
        ASSERT_TRUE(binary) << key << ": " << binary.error().message;
        EXPECT_EQ(binary.value(), spec.value()) << key << " as CBOR byte strings";
    }
    for (const auto& [key, value] : changed_values()) EXPECT_TRUE(written.contains(key)) << key << " is no longer written";
}

TEST(RunSpecJson, AWholeSpecRoundTripsInBothForms) {
    json all = run_spec_json(RunSpec{}, ByteStrings::Text);
    for (const auto& [key, value] : changed_values()) all[key] = value;
    auto spec = read_back(all);
    ASSERT_TRUE(spec) << spec.error().message;
    EXPECT_EQ(spec->prompt, "What is 35% of 240?");
    EXPECT_EQ(spec->messages.at(0), (ChatMessage{ChatRole::System, "s"}));
    EXPECT_EQ(spec->disabled_experts.at(1), (ExpertSwitch{-1, 2}));
    EXPECT_EQ(spec->switch_target, SwitchTarget::Experts);
    EXPECT_EQ(spec->precision, Precision::Exact);
    EXPECT_EQ(spec->sampling.top_p, 0.75f);
    for (ByteStrings form : {ByteStrings::Text, ByteStrings::Binary}) {
        const json j = run_spec_json(spec.value(), form);
        const auto cbor = json::to_cbor(j);
        auto back = read_back(json::from_cbor(cbor));
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(back.value(), spec.value());
    }
    // Arbitrary bytes survive as CBOR byte strings.
    RunSpec bytes;
    bytes.prompt = std::string("\xff\x00\xfe", 3);
    bytes.stop_strings = {std::string("\x80", 1)};
    auto back = read_back(json::from_cbor(json::to_cbor(run_spec_json(bytes, ByteStrings::Binary))));
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back.value(), bytes);
}

TEST(RunSpecJson, AbsentFieldsAreErrorsUnlessAllowedAndBadValuesAreNamed) {
    const json base = run_spec_json(RunSpec{}, ByteStrings::Text);
    json missing = base;
    missing.erase("top_k");
    auto r = read_back(missing);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("\"settings.top_k\" is missing"), std::string::npos) << r.error().message;
    {
        std::string error;
        FieldReader reader(missing, "settings", error);
        RunSpec s;
        s.sampling.top_k = 7;
        read_run_spec(reader, s, [](std::string_view key) { return key == "top_k"; });
        EXPECT_EQ(error, "");
        EXPECT_EQ(s.sampling.top_k, 7) << "an absent field keeps the spec's value";
    }
    const std::vector<std::pair<std::string, json>> bad = {
        {"precision", "fast"},        {"ablation_mode", "half"}, {"disabled", json::array({true})},
        {"max_tokens", -1},           {"threads", 1 << 20},      {"disabled_experts", json::array({"x"})},
        {"messages", json::array({{{"role", "robot"}, {"content", "x"}}})}, {"top_p", 0},
        {"stop_strings", json::array({1})}, {"chat", "yes"},
    };
    for (const auto& [key, value] : bad) {
        json j = base;
        j[key] = value;
        auto back = read_back(j);
        ASSERT_FALSE(back) << key;
        const bool named = back.error().message.find(key) != std::string::npos ||
                           (key == "top_p" && back.error().message.find("sampling") != std::string::npos);
        EXPECT_TRUE(named) << key << ": " << back.error().message;
    }
    auto precision_default = read_back(base);
    ASSERT_TRUE(precision_default);
    EXPECT_EQ(base["precision"], "default");
    EXPECT_FALSE(precision_default->precision);
}

// A run asked for "the model's default"; its capture names the precision the run took, so a
// replay repeats it whatever the default is then.
TEST(RunSpec, ACaptureStoresThePrecisionTheRunTook) {
    Capture c;
    c.trace.spec.precision = std::nullopt;
    c.trace.precision = Precision::Reference;
    c.trace.outcome.emplace();
    EXPECT_EQ(encode_capture(c)["settings"]["precision"], "reference");
    EXPECT_EQ(c.trace.repeat_spec().precision, Precision::Reference);
    c.trace.precision = Precision::Exact;
    EXPECT_EQ(encode_capture(c)["settings"]["precision"], "exact");
    EXPECT_TRUE(serialize_capture(c)) << "an empty finished run is written";
}

} // namespace
} // namespace octo
