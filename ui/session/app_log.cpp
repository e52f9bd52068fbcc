#include "ui/session/app_log.h"

#include <QtGlobal>

#include <cstring>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/spdlog.h>

#include "engine/core/log.h"
#include "engine/model/user_data.h"
#include "ui/session/log_feed.h"

namespace octo::ui {

namespace {

constexpr size_t kFileBytes = 5 * 1024 * 1024;
constexpr size_t kOlderFiles = 2; // with the current one: 5 MB × 3 files

std::shared_ptr<LogFeed> g_feed;
QtMessageHandler g_previous_handler = nullptr;

void forward_qt_message(QtMsgType type, const QMessageLogContext& context, const QString& text) {
    const spdlog::level::level_enum level = type == QtDebugMsg      ? spdlog::level::debug
                                            : type == QtInfoMsg     ? spdlog::level::info
                                            : type == QtWarningMsg  ? spdlog::level::warn
                                            : type == QtCriticalMsg ? spdlog::level::err
                                                                    : spdlog::level::critical;
    if (const auto logger = spdlog::get(kLoggerName)) {
        const char* category = context.category && std::strcmp(context.category, "default") != 0 ? context.category : "qt";
        logger->log(level, "[{}] {}", category, text.toStdString());
        if (type == QtFatalMsg) logger->flush();
    }
    if (g_previous_handler) g_previous_handler(type, context, text);
}

} // namespace

std::filesystem::path log_file_path() { return user_data_dir() / "logs" / "octoscope.log"; }

std::shared_ptr<LogFeed> app_log_feed() { return g_feed; }

std::shared_ptr<LogFeed> install_app_log(QString* error) {
    if (g_feed) return g_feed;
    g_feed = std::make_shared<LogFeed>();
    std::vector<spdlog::sink_ptr> sinks{g_feed};
    try {
        auto file = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(log_file_path().string(), kFileBytes, kOlderFiles);
        file->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [%l] [thread %t] %v");
        sinks.push_back(std::move(file));
    } catch (const spdlog::spdlog_ex& e) {
        if (error) *error = QString::fromUtf8(e.what());
    }
    auto logger = std::make_shared<spdlog::logger>(kLoggerName, sinks.begin(), sinks.end());
    logger->set_level(spdlog::level::info);
    logger->flush_on(spdlog::level::info); // the lines are few; a crash must not lose the last ones
    spdlog::register_logger(logger);
    spdlog::set_default_logger(logger);
    g_previous_handler = qInstallMessageHandler(forward_qt_message);
    return g_feed;
}

} // namespace octo::ui
