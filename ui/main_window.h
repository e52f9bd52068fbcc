// The workbench window: the token stream and its timeline in the middle, every panel in a dock
// the user can rearrange (dock_layout.h), the menus (main_menus.h), the status line, and the
// remembered layout and settings. What the panels do and how they are wired is the Workbench's
// (workbench.h); controllers reach this window only through a StatusSink and a ScreenshotProvider.
#pragma once

#include <QMainWindow>

#include <chrono>
#include <memory>

#include "ui/dock_layout.h"
#include "ui/session/autosave.h"
#include "ui/session/session_state.h"
#include "ui/support/window_services.h"
#include "ui/workbench.h"

namespace octo::ui {

class CrashRecovery;
class MainMenus;
class StatusLine;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Workbench& workbench() { return *bench_; }
    // The parts tests and the entry point use most, as Workbench has them.
    RunStore& store() { return bench_->store(); }
    ClaimsStore& claimsStore() { return bench_->claimsStore(); }
    RunController& runs() { return bench_->runs(); } // Run Prompt, Rerun, Cancel, A/B
    AdvisorController* advisorController() const { return bench_->advisorController(); }
    CaptureController* captureController() const { return bench_->captureController(); }
    ServerController* serverController() const { return bench_->serverController(); } // Model → Connect to Server…
    void openModel(const QString& path);
    void loadResources(const QString& resource_dir) { bench_->loadResources(resource_dir); }
    void calibrateHeadMap() { bench_->calibrateHeadMap(); }
    void calibrateExperts() { bench_->calibrateExperts(); }
    void measureClaims() { bench_->measureClaims(); }

    // Autosaves the prompt and session and, after a crash, offers to restore them
    // (ui/session/crash_recovery.h). The GUI starts it once shown; headless runs and tests that do not
    // exercise it leave it off, so they never touch the user's autosave.
    void startSession(std::chrono::milliseconds autosave_interval = Autosave::kDefaultInterval);
    // Shows the first-start hint above the prompt unless it was dismissed before
    // (ui/panels/first_start_hint.h); startSession calls it.
    void offerFirstStartHint();
    CrashRecovery* recovery() const;
    void restoreSession(const SessionState& state); // the prompt as one undoable edit

    // View → Layout: a preset layout; Reset Layout is Inspect, the first start's.
    void applyLayout(LayoutPreset preset) { apply_layout_preset(*this, preset); }
    // Shows and raises the panel whose dock is named `name` + "Dock" ("experts", "attention",
    // "kv", …; --show-panel). False when there is none; panelNames() lists them.
    bool showPanel(const QString& name) { return show_dock(*this, name); }
    QStringList panelNames() const { return dock_names(*this); }
    bool exportScreenshot(const QString& path);
    bool exportPlots(const QString& folder);
    bool exportRunData(const QString& json_path, const QString& csv_path);

signals:
    void runSettled(); // the shown run finished, failed or was cancelled

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void placePanels(Workbench& bench);
    void saveSettings();
    void restoreSettings();

    StatusBarSink status_sink_;
    WidgetPictures pictures_{*this};
    std::unique_ptr<Workbench> bench_;
    StatusLine* status_ = nullptr;
    MainMenus* menus_ = nullptr;
    bool laid_out_ = false;
};

} // namespace octo::ui
