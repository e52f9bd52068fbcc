// Crash recovery (docs/autosave.md). While a workbench session runs, a marker file
// <user data>/autosave/session.lock holds its process id and start time; a clean exit writes a
// last autosave and removes the marker. A marker left by a process that is gone means that
// session did not exit cleanly: when the autosave was written after it started and holds another
// prompt, settings or switches than the window shows, the next start asks "Restore the prompt
// and settings autosaved at <time>?" and restores them on Restore. A
// corrupt autosave is reported (log and status bar), set aside as session.json.corrupt, and the
// workbench carries on.
#pragma once

#include <QDateTime>
#include <QObject>

#include <filesystem>
#include <functional>
#include <optional>

#include "ui/session/autosave.h"

class QWidget;

namespace octo::ui {

// How the last session ended, from the marker it left.
struct PreviousSession {
    bool crashed = false; // a marker whose process is gone
    QDateTime started_at;
};

class CrashRecovery : public QObject {
    Q_OBJECT
public:
    using Restore = std::function<void(const SessionState&)>;
    // Tests answer the restore question without a dialog; Ask (the default) shows it.
    enum class Answer { Ask, Restore, Discard };
    static void setAnswerForTests(Answer answer);

    CrashRecovery(QWidget* window, Autosave::Snapshot snapshot, Restore restore, QObject* parent = nullptr);

    static std::filesystem::path markerPath(); // <user data>/autosave/session.lock
    static PreviousSession previousSession();

    // Reads how the last session ended, marks this one as running, offers the autosave after a
    // crash, and starts autosaving every `interval`.
    void start(std::chrono::milliseconds interval = Autosave::kDefaultInterval);
    // The clean exit: a last autosave, and the marker removed.
    void finish();
    Autosave& autosave() { return autosave_; }

signals:
    void message(const QString& text); // for the status bar

private:
    void offer(const PreviousSession& previous);
    bool ask(const QDateTime& saved_at);

    QWidget* window_;
    Autosave::Snapshot snapshot_;
    Restore restore_;
    Autosave autosave_;
    bool running_ = false;
};

} // namespace octo::ui
