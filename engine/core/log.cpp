#include "engine/core/log.h"

#include <spdlog/spdlog.h>

namespace octo {

void log_message(LogLevel level, std::string_view message) {
    const auto logger = spdlog::get(kLoggerName);
    if (!logger) return;
    const spdlog::level::level_enum l = level == LogLevel::Debug     ? spdlog::level::debug
                                        : level == LogLevel::Info    ? spdlog::level::info
                                        : level == LogLevel::Warning ? spdlog::level::warn
                                                                     : spdlog::level::err;
    logger->log(l, "{}", message);
}

} // namespace octo
