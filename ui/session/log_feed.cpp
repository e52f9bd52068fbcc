#include "ui/session/log_feed.h"

#include <QMetaObject>

namespace octo::ui {

LogFeed::LogFeed() { set_pattern("%H:%M:%S.%e %-7l %v"); }

std::vector<LogLine> LogFeed::recent() {
    std::lock_guard lock(mutex_);
    return {recent_.begin(), recent_.end()};
}

void LogFeed::clear() {
    std::lock_guard lock(mutex_);
    recent_.clear();
}

void LogFeed::sink_it_(const spdlog::details::log_msg& msg) {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    QString text = QString::fromUtf8(formatted.data(), static_cast<qsizetype>(formatted.size()));
    while (text.endsWith(QLatin1Char('\n')) || text.endsWith(QLatin1Char('\r'))) text.chop(1);
    staged_.push_back(LogLine{msg.level, std::move(text)});
    if (staged_.size() > kKeptLines) staged_.erase(staged_.begin()); // the UI thread is not keeping up
    if (delivery_pending_) return;
    delivery_pending_ = true;
    QMetaObject::invokeMethod(this, &LogFeed::deliver, Qt::QueuedConnection);
}

void LogFeed::deliver() {
    std::vector<LogLine> lines;
    {
        std::lock_guard lock(mutex_);
        lines.swap(staged_);
        delivery_pending_ = false;
        recent_.insert(recent_.end(), lines.begin(), lines.end());
        while (recent_.size() > kKeptLines) recent_.pop_front();
    }
    if (!lines.empty()) emit linesAdded(lines);
}

} // namespace octo::ui
