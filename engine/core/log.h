// Engine diagnostics (a model loaded, a load or run failed). They go to the spdlog logger named
// "octoscope" when the application has registered one — the GUI does: a rotating file in the
// user's data directory and its log panel (ui/app_log.h) — and are dropped otherwise, so
// octoscope-cli's stdout and stderr stay exactly its own. Safe to call from any thread.
#pragma once

#include <string_view>

namespace octo {

enum class LogLevel { Debug, Info, Warning, Error };

void log_message(LogLevel level, std::string_view message);

// The logger's name, for the application that registers it.
inline constexpr const char* kLoggerName = "octoscope";

} // namespace octo
