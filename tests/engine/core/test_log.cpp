// The engine's log: each level reaches the application's "octoscope" logger with the message
// as given, and nothing is written (nor does anything fail) without one.
#include <gtest/gtest.h>

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "engine/core/log.h"
#include "tests/support/captured_log.h"

namespace octo {
namespace {

TEST(Log, EachLevelReachesTheRegisteredLogger) {
    test::CapturedLog log;
    spdlog::get(kLoggerName)->set_level(spdlog::level::debug);
    log_message(LogLevel::Debug, "d");
    log_message(LogLevel::Info, "loaded model.gguf");
    log_message(LogLevel::Warning, "w");
    log_message(LogLevel::Error, "run failed: {not a format}");
    EXPECT_EQ(log.lines(), (std::vector<std::string>{"debug d", "info loaded model.gguf", "warning w",
                                                     "error run failed: {not a format}"}));
}

TEST(Log, WithoutALoggerMessagesAreDropped) {
    spdlog::drop(kLoggerName);
    log_message(LogLevel::Error, "nobody listens");
    EXPECT_EQ(spdlog::get(kLoggerName), nullptr) << "logging must not register a logger of its own";
}

} // namespace
} // namespace octo
