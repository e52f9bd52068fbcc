// harmony_messages (engine/chat/harmony_channels.h): a gpt-oss answer split into its channels,
// on answers written as the published harmony format lays them out, cut ones and ones that
// ignore the format.
#include <gtest/gtest.h>

#include <string>

#include "engine/chat/harmony_channels.h"

namespace octo {
namespace {

std::string text_of(std::string_view answer, const HarmonyMessage& m) {
    return std::string(answer.substr(m.text_begin, m.text_end - m.text_begin));
}

TEST(HarmonyChannels, AnalysisThenFinal) {
    const std::string a = "<|channel|>analysis<|message|>User greets. Reply.<|end|><|start|>assistant<|channel|>final"
                          "<|message|>Hello!<|return|>";
    const auto m = harmony_messages(a);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[0].channel, "analysis");
    EXPECT_EQ(text_of(a, m[0]), "User greets. Reply.");
    EXPECT_TRUE(m[0].closed);
    EXPECT_EQ(m[1].channel, "final");
    EXPECT_EQ(text_of(a, m[1]), "Hello!");
    EXPECT_TRUE(m[1].closed);
    EXPECT_EQ(m[1].header_begin, a.find("<|start|>"));
    // every byte belongs to its message; only the texts' bytes are text
    EXPECT_EQ(harmony_channel_at(m, 0), "analysis");
    EXPECT_FALSE(harmony_in_text(m, 0));
    EXPECT_TRUE(harmony_in_text(m, a.find("User")));
    EXPECT_EQ(harmony_channel_at(m, a.find("<|end|>")), "analysis");
    EXPECT_FALSE(harmony_in_text(m, a.find("<|end|>")));
    EXPECT_EQ(harmony_channel_at(m, a.find("<|start|>")), "final");
    EXPECT_EQ(harmony_channel_at(m, a.find("Hello")), "final");
    EXPECT_TRUE(harmony_in_text(m, a.find("Hello")));
    EXPECT_FALSE(harmony_in_text(m, a.size() - 1));
}

// A tool call's header carries a recipient and a constraint after the channel name.
TEST(HarmonyChannels, CommentaryWithRecipientAndConstraint) {
    const std::string a = "<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{\"city\":\"Oslo\"}<|call|>";
    const auto m = harmony_messages(a);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].channel, "commentary");
    EXPECT_EQ(text_of(a, m[0]), "{\"city\":\"Oslo\"}");
    EXPECT_TRUE(m[0].closed);
}

// Streaming: an answer cut inside its analysis, inside the next header, and a model that writes
// no header at all (its text is channel "").
TEST(HarmonyChannels, UnfinishedAndUnformattedAnswers) {
    const std::string cut = "<|channel|>analysis<|message|>Thinking about";
    auto m = harmony_messages(cut);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(text_of(cut, m[0]), "Thinking about");
    EXPECT_FALSE(m[0].closed);

    const std::string header = "<|channel|>analysis<|message|>Done.<|end|><|start|>assistant<|chan";
    m = harmony_messages(header);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(m[1].channel, "");
    EXPECT_EQ(m[1].text_begin, m[1].text_end);

    const std::string plain = "Just an answer.";
    m = harmony_messages(plain);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].channel, "");
    EXPECT_EQ(text_of(plain, m[0]), plain);
    EXPECT_TRUE(harmony_in_text(m, 3));

    // a second header without a closer ends the text before it
    const std::string unclosed = "<|channel|>analysis<|message|>a<|channel|>final<|message|>b";
    m = harmony_messages(unclosed);
    ASSERT_EQ(m.size(), 2u);
    EXPECT_EQ(text_of(unclosed, m[0]), "a");
    EXPECT_EQ(text_of(unclosed, m[1]), "b");
    EXPECT_TRUE(harmony_messages("").empty());
}

} // namespace
} // namespace octo
