// RunSpec, the one description of a run: every field reaches the engine's request and prompt,
// and a capture cannot be written without the precision its run took.
#include <gtest/gtest.h>

#include "engine/capture/capture_io.h"
#include "engine/capture/capture_payload.h"
#include "engine/generation/run_spec.h"

namespace octo {
namespace {

TEST(RunSpec, EveryFieldReachesThePromptAndTheRequest) {
    RunSpec s;
    s.prompt = "hi";
    s.chat = true;
    s.system = "be brief";
    s.parse_special = true;
    s.max_tokens = 7;
    s.stop_strings = {"\n\n"};
    s.stop_at_eog = false;
    s.sampling.temperature = 0.5f;
    s.sampling.seed = 9;
    s.precision = Precision::Exact;
    s.disabled[3] = true;
    s.ablation_mode = AblationMode::Mean;
    s.dla = true;
    s.record_attention = false;

    const PromptSpec p = prompt_spec(s);
    EXPECT_EQ(p.text, "hi");
    EXPECT_TRUE(p.chat);
    EXPECT_EQ(p.system, "be brief");
    EXPECT_TRUE(p.parse_special);

    const InstrumentedRequest r = instrumented_request(s, {1, 2, 3});
    EXPECT_EQ(r.generate.prompt_ids, (std::vector<int32_t>{1, 2, 3}));
    EXPECT_EQ(r.generate.max_tokens, 7);
    EXPECT_EQ(r.generate.stop_strings, s.stop_strings);
    EXPECT_FALSE(r.generate.stop_at_eog);
    EXPECT_EQ(r.generate.sampling.temperature, 0.5f);
    EXPECT_EQ(r.generate.sampling.seed, 9u);
    EXPECT_EQ(r.precision, Precision::Exact);
    EXPECT_EQ(r.disabled, s.disabled);
    EXPECT_EQ(r.ablation_mode, AblationMode::Mean);
    EXPECT_TRUE(r.dla);
    EXPECT_FALSE(r.record_attention);
    EXPECT_EQ(r.cancel, nullptr);

    EXPECT_FALSE(instrumented_request(RunSpec{}, {}).precision) << "no precision named: the model's default";
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
