// Captures the engine's log (engine/core/log.h) in a test: registers the "octoscope" spdlog
// logger with a memory sink for the object's lifetime; each line is "<level> <message>"
// without the line end.
// Header-only: link the test with octoscope_spdlog.
#pragma once

#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/core/log.h"

namespace octo::test {

class CapturedLog {
public:
    CapturedLog() : sink_(std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(64)) {
        spdlog::drop(kLoggerName);
        auto logger = std::make_shared<spdlog::logger>(kLoggerName, sink_);
        logger->set_pattern("%l %v");
        spdlog::register_logger(logger);
    }
    ~CapturedLog() { spdlog::drop(kLoggerName); }
    CapturedLog(const CapturedLog&) = delete;
    CapturedLog& operator=(const CapturedLog&) = delete;

    std::vector<std::string> lines() {
        std::vector<std::string> out = sink_->last_formatted();
        for (std::string& line : out) {
            while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        }
        return out;
    }

private:
    std::shared_ptr<spdlog::sinks::ringbuffer_sink_mt> sink_;
};

} // namespace octo::test
