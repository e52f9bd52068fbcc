#include "app/cli/json_log_formatter.h"

#include <chrono>
#include <ctime>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <spdlog/details/log_msg.h>

namespace octo::cli {

namespace {

// UTC, milliseconds: 2026-12-06T17:05:12.123Z
std::string iso8601(spdlog::log_clock::time_point t) {
    const auto since = t.time_since_epoch();
    const std::time_t seconds = static_cast<std::time_t>(std::chrono::duration_cast<std::chrono::seconds>(since).count());
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(since).count() % 1000;
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[40];
    const size_t n = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(text + n, sizeof text - n, ".%03dZ", static_cast<int>(ms));
    return text;
}

} // namespace

void JsonLogFormatter::format(const spdlog::details::log_msg& msg, spdlog::memory_buf_t& dest) {
    nlohmann::ordered_json line;
    line["ts"] = iso8601(msg.time);
    const auto level = spdlog::level::to_string_view(msg.level);
    line["level"] = std::string(level.data(), level.size());
    const std::string_view payload(msg.payload.data(), msg.payload.size());
    const nlohmann::ordered_json fields = payload.starts_with('{') ? nlohmann::ordered_json::parse(payload, nullptr, false)
                                                                   : nlohmann::ordered_json();
    if (fields.is_object()) {
        for (const auto& [key, value] : fields.items()) line[key] = value;
    } else {
        line["msg"] = std::string(payload);
    }
    const std::string text = line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    dest.append(text.data(), text.data() + text.size());
}

std::unique_ptr<spdlog::formatter> JsonLogFormatter::clone() const { return std::make_unique<JsonLogFormatter>(); }

} // namespace octo::cli
