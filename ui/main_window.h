// The workbench window: the token stream and its timeline in the middle, every panel in a dock
// the user can rearrange (dock_layout.h, layout_presets.h), the menus (main_menus.h), the status
// line, and the remembered layout and settings. What the panels do and how they are wired is the
// Workbench's (workbench.h); controllers reach this window only through a StatusSink and a
// ScreenshotProvider (ui/support/window_services.h).
#pragma once

#include <QMainWindow>

#include <chrono>
#include <memory>

#include "ui/dock_layout.h"
#include "ui/layout_presets.h"
#include "ui/session/autosave.h"
#include "ui/support/window_services.h"
#include "ui/workbench.h"

namespace octo::ui {

class MainMenus;
class StatusLine;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Workbench& workbench() { return *bench_; }
    // What the entry point and most tests use, as the Workbench has it.
    RunStore& store() { return bench_->store(); }
    ClaimsStore& claimsStore() { return bench_->claimsStore(); }
    RunController& runs() { return bench_->runs(); }
    AdvisorController* advisorController() const { return bench_->advisorController(); }
    CaptureController* captureController() const { return bench_->captureController(); }
    ServerController* serverController() const { return bench_->serverController(); }
    void openModel(const QString& path);
    // A first start without a saved window: sized and placed on its screen (first_window_geometry),
    // maximised where 1280 × 800 does not fit (a 1366 × 768 laptop).
    void fitToScreen();
    void addCentreNote(QWidget* note); // above the token stream (the first-start hint)
    void loadResources(const QString& resource_dir) { bench_->loadResources(resource_dir); }

    // Autosave, crash recovery and the first-start hint (Workbench::startSession). The GUI starts
    // them once shown; headless runs and tests that do not exercise them leave them off, so they
    // never touch the user's autosave.
    void startSession(std::chrono::milliseconds interval = Autosave::kDefaultInterval) { bench_->startSession(interval); }
    void offerFirstStartHint() { bench_->offerFirstStartHint(); }
    CrashRecovery* recovery() const { return bench_->recovery(); }
    void restoreSession(const SessionState& state) { bench_->restoreSession(state); }

    void applyLayout(LayoutPreset preset) { apply_layout_preset(*this, preset); }
    bool showPanel(const QString& name) { return show_dock(*this, name); } // --show-panel
    QStringList panelNames() const { return dock_names(*this); }
    bool exportScreenshot(const QString& path);

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
