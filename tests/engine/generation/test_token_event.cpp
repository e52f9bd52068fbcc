// How a run stopped, by the names the CLI's JSON, captures and the server write.
#include <gtest/gtest.h>

#include "engine/generation/token_event.h"

namespace octo {
namespace {

TEST(TokenEvent, EveryStopReasonHasItsName) {
    EXPECT_STREQ(stop_reason_name(StopReason::MaxTokens), "max_tokens");
    EXPECT_STREQ(stop_reason_name(StopReason::EndOfGeneration), "end_of_generation");
    EXPECT_STREQ(stop_reason_name(StopReason::StopString), "stop_string");
    EXPECT_STREQ(stop_reason_name(StopReason::ContextFull), "context_full");
    EXPECT_STREQ(stop_reason_name(StopReason::Cancelled), "cancelled");
}

TEST(TokenEvent, ATokenStartsWithoutMeasurements) {
    const TokenEvent event{};
    EXPECT_EQ(event.id, -1);
    EXPECT_TRUE(event.probe.head_norms.empty());
    EXPECT_FALSE(event.constraint);
}

} // namespace
} // namespace octo
