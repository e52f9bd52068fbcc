// Autosave of the workbench session (docs/autosave.md): on a timer (every 10 s by default) the
// session is taken and, when it differs from what was last written, written with the time to
// <user data>/autosave/session.json through write_file_atomic, so a crash mid-write never
// leaves half a file. saveNow() writes it unconditionally (on a clean exit).
#pragma once

#include <QDateTime>
#include <QJsonObject>
#include <QObject>
#include <QTimer>

#include <chrono>
#include <filesystem>
#include <functional>

#include "ui/session/autosave_files.h"
#include "ui/session/session_state.h"

namespace octo::ui {

class Autosave : public QObject {
    Q_OBJECT
public:
    using Snapshot = std::function<SessionState()>;
    static constexpr std::chrono::milliseconds kDefaultInterval{10000};

    Autosave(Snapshot snapshot, QObject* parent = nullptr);

    static std::filesystem::path filePath(); // <user data>/autosave/session.json

    // Takes the current session as the baseline (only later changes are written) and checks
    // every `interval`.
    void start(std::chrono::milliseconds interval = kDefaultInterval);
    void stop();
    // Writes the session when it changed since the baseline or the last write; false on a
    // write error (logged, and reported by `failed`).
    bool saveIfChanged();
    bool saveNow();

signals:
    void saved(const QDateTime& at);
    void failed(const QString& message);

private:
    bool write(const QJsonObject& session);

    Snapshot snapshot_;
    QTimer timer_;
    QJsonObject last_;
};

} // namespace octo::ui
