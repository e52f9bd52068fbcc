// `serve --log-format json`: every log line one JSON object, for collectors (Loki, Elasticsearch,
// CloudWatch): {"ts": "2026-12-06T17:05:12.123Z", "level": "info", …}. A message that is itself a
// JSON object (the server's access lines) gives its fields; any other text is "msg".
#pragma once

#include <memory>

#include <spdlog/formatter.h>

namespace octo::cli {

class JsonLogFormatter final : public spdlog::formatter {
public:
    void format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) override;
    std::unique_ptr<spdlog::formatter> clone() const override;
};

} // namespace octo::cli
