// File → Export Session… and Import Session… (docs/workbench.md, "Sessions"): the run history as
// a folder of captures plus an index (ui/session/session_archive.h), and back. Export takes each
// settled run as Save Capture would (CaptureController::captureOf) on the UI thread, then writes
// the files on a worker; a run that cannot be captured (still going, failed, made with a model
// that is no longer loaded) is left out and named in the index and the status line. Import reads
// the captures on a worker and adds them to the history oldest first, with their names and pins;
// an unreadable capture is named and the others still come in.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThreadPool>

class QWidget;

namespace octo::ui {

class CaptureController;
class RunStore;
class StatusSink;

class SessionArchiveController : public QObject {
    Q_OBJECT
public:
    SessionArchiveController(QWidget& parent, StatusSink& status, RunStore& store, CaptureController& captures, QObject* owner);
    ~SessionArchiveController() override; // waits for a write or read under way

    // Writes every run of the history into `folder` (made when missing; it must be empty);
    // false (and failed) when nothing was started.
    bool exportSession(const QString& folder);
    // Reads the session in `folder` into the history; false (and failed) when its index cannot be read.
    bool importSession(const QString& folder);
    void askExport(); // a folder chosen in a dialog: a new octoscope-session-<time> folder inside it
    void askImport();

signals:
    void exported(const QString& folder, int runs, const QStringList& skipped);
    void imported(const QString& folder, int runs, const QStringList& unreadable);
    void failed(const QString& message);

private:
    void fail(const QString& message);
    static QString runs_text(int n); // "1 run", "3 runs"

    QWidget& parent_;
    StatusSink& status_;
    RunStore& store_;
    CaptureController& captures_;
    QThreadPool io_; // one thread
};

} // namespace octo::ui
