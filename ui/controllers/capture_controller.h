// Captures in the workbench (docs/workbench.md, "Captures"): File → Save Capture writes the
// shown run as a `.octo` file, File → Open Capture shows one in every view without the model,
// Run → Re-run Capture repeats it on its model and reports the first divergence, and File →
// Export Bug Report writes a folder with the window, the plots, the capture and report.md.
#pragma once

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <optional>

#include "engine/capture/capture.h"
#include "engine/capture/capture_replay.h"
#include "engine/core/result.h"

class QWidget;

namespace octo::ui {

class AdvisorPanel;
class EngineBridge;
class RouterPanel;
class RunController;
class RunStore;
class ScreenshotProvider;
class StatusSink;
struct RunRecord;

// What captures need from the workbench, and nothing more.
struct CaptureWorkbench {
    QWidget& parent;         // dialogs' parent
    StatusSink& status;      // what is under way, what went wrong, the shown capture's label
    ScreenshotProvider& pictures; // a bug report's window.png and plots
    RunStore& store;         // the shown run, the loaded model and its identity, route and findings
    EngineBridge& bridge;    // Re-run Capture submits through it
    RunController& runs;     // an opened capture's spec goes back into the editor and the switches
    RouterPanel& router;     // its recorded route and findings are shown
    AdvisorPanel& advisor;
    std::function<void(const QString& path)> open_model; // loads a model (with the window's progress)
};

class CaptureController : public QObject {
    Q_OBJECT
public:
    CaptureController(CaptureWorkbench workbench, QObject* parent);
    ~CaptureController() override; // waits for a save or open under way

    // The shown run as a capture: its model's identity (hashed once per file), settings, head
    // map, the router's decision and the advisor's findings when they are for its prompt, notes.
    Result<Capture> captureShown();
    // Any settled run of the history as a capture, the same way (an error for a run still going,
    // one that failed before it finished, or one of another model than the loaded one).
    Result<Capture> captureOf(const RunRecord& run);
    // Writes the shown run to `path`: the capture is taken on the UI thread, encoded and written
    // on a worker; captureSaved, or an error dialog and failed.
    void saveCapture(const QString& path);
    // Reads and decodes the capture at `path` on a worker, then shows it in every view:
    // captureOpened, or an error dialog and failed.
    void openCapture(const QString& path);
    // Re-runs the shown capture on its model (loaded first when needed) and reports.
    void rerunCapture();
    // Writes the bug-report folder `folder` (created); false with an error dialog on failure.
    bool exportBugReport(const QString& folder);
    // The same, asking first with a file dialog (File → Open Capture…, Save Capture…, Export
    // Bug Report… — into a new dated folder in the one chosen).
    void askOpenCapture();
    void askSaveCapture();
    void askBugReport();

    // The last error shown (empty: none yet).
    QString lastError() const { return last_error_; }
    // The last re-run's comparison, and its report in words.
    const std::optional<ReplayComparison>& lastComparison() const { return last_comparison_; }
    QString lastReport() const { return last_report_; }
    // Asked for another model file when the capture's is missing or differs (default: a file
    // dialog); returns the path, or empty to give up. Tests replace it.
    void setModelPicker(std::function<QString(const QString& problem)> picker) { pick_model_ = std::move(picker); }
    // Asked before a message box is shown (tests: false to keep the run unattended).
    void setDialogsEnabled(bool enabled) { dialogs_ = enabled; }

signals:
    void captureSaved(const QString& path, bool ok);
    void captureOpened(const QString& path);
    void rerunReported(const QString& report, bool identical);
    void failed(const QString& message);
    void titleChanged(const QString& title); // the window's: which capture is shown, and whether its model is loaded

private:
    void fail(const QString& title, const QString& message);
    void show(const QString& path, RunRecord record);
    Result<ModelDescription> loadedModelIdentity() const; // the store's, hashed by the engine's host
    bool identityPending() const; // the shown run needs the loaded model's identity, still being hashed
    void rerunOn(const QString& model_path);
    void submitRerun();
    void reportRerun(quint64 run_id);

    QWidget* parent_;
    StatusSink& status_;
    ScreenshotProvider& pictures_;
    RunStore& store_;
    EngineBridge& bridge_;
    RunController& runs_;
    RouterPanel& router_;
    AdvisorPanel& advisor_;
    std::function<void(const QString&)> open_model_;
    std::shared_ptr<const RunRecord> rerun_of_; // the capture being repeated
    quint64 rerun_id_ = 0;
    QMetaObject::Connection rerun_wait_;
    std::optional<ReplayComparison> last_comparison_;
    QString last_report_;
    QString last_error_;
    bool dialogs_ = true;
    std::function<QString(const QString&)> pick_model_;
    QThreadPool io_; // one thread: saves and opens in the order asked (last: waited for first)
};

} // namespace octo::ui
