// The application log (docs/logging.md): spdlog's logger "octoscope" (kLoggerName, also the
// default logger) writes to a rotating file <user data>/logs/octoscope.log (5 MB × 3 files) and
// to the log panel's feed. The engine's diagnostics (engine/core/log.h) and Qt's own messages
// (qDebug, qWarning … forwarded by a message handler, which still passes them on to Qt's
// default output) go into it. The GUI sets it up once at start (app/gui/main.cpp).
#pragma once

#include <QString>

#include <filesystem>
#include <memory>

namespace octo::ui {

class LogFeed;

std::filesystem::path log_file_path();

// Sets the log up (once per process; later calls return the same feed). When the log file
// cannot be opened, `error` says why and only the panel gets the lines.
std::shared_ptr<LogFeed> install_app_log(QString* error = nullptr);
// The feed once install_app_log ran, else null.
std::shared_ptr<LogFeed> app_log_feed();

} // namespace octo::ui
