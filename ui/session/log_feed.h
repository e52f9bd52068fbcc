// The log panel's end of the application log: a thread-safe spdlog sink (engine work logs from
// its worker thread) that keeps the last kKeptLines lines and hands new ones to the UI thread in
// batches — one queued call per burst, never one per line. Create it on the UI thread.
#pragma once

#include <QObject>
#include <QString>

#include <deque>
#include <mutex>
#include <vector>

#include <spdlog/sinks/base_sink.h>

namespace octo::ui {

struct LogLine {
    spdlog::level::level_enum level = spdlog::level::info;
    QString text; // formatted, without the line break
};

class LogFeed : public QObject, public spdlog::sinks::base_sink<std::mutex> {
    Q_OBJECT
public:
    static constexpr size_t kKeptLines = 2000;

    LogFeed();

    std::vector<LogLine> recent(); // the lines delivered so far, oldest first
    void clear();

signals:
    void linesAdded(const std::vector<octo::ui::LogLine>& lines); // on the UI thread

protected:
    void sink_it_(const spdlog::details::log_msg& msg) override; // any thread, under mutex_
    void flush_() override {}

private:
    void deliver();

    std::deque<LogLine> recent_;
    std::vector<LogLine> staged_;
    bool delivery_pending_ = false;
};

} // namespace octo::ui
