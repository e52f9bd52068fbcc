#include "ui/session/autosave.h"

#include "engine/core/atomic_file.h"
#include "engine/core/log.h"
#include "engine/model/user_data.h"

namespace octo::ui {

Autosave::Autosave(Snapshot snapshot, QObject* parent) : QObject(parent), snapshot_(std::move(snapshot)) {
    connect(&timer_, &QTimer::timeout, this, &Autosave::saveIfChanged);
}

std::filesystem::path Autosave::filePath() { return user_data_dir() / "autosave" / "session.json"; }

void Autosave::start(std::chrono::milliseconds interval) {
    last_ = session_to_json(snapshot_());
    timer_.start(interval);
}

void Autosave::stop() { timer_.stop(); }

bool Autosave::saveIfChanged() {
    const QJsonObject now = session_to_json(snapshot_());
    return now == last_ || write(now);
}

bool Autosave::saveNow() { return write(session_to_json(snapshot_())); }

bool Autosave::write(const QJsonObject& session) {
    const QDateTime at = QDateTime::currentDateTimeUtc();
    const QByteArray bytes = autosave_bytes(session, at);
    const Status written = write_file_atomic(filePath(), std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
    if (!written) {
        log_message(LogLevel::Error, "autosave failed: " + written.error().message);
        emit failed(QString::fromStdString(written.error().message));
        return false;
    }
    last_ = session;
    emit saved(at);
    return true;
}

} // namespace octo::ui
