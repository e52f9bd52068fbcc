// The workbench window: the prompt editor and subsystem switches, the token stream, heatmaps,
// attention, KV-pool and latency views as dock widgets the user can rearrange; menus, status
// bar, remembered layout and settings. All engine work goes through EngineBridge.
#pragma once

#include <QMainWindow>

#include <chrono>

#include "ui/dock_layout.h"
#include "ui/session/autosave.h"
#include "ui/session/claims_store.h"
#include "ui/controllers/engine_bridge.h"
#include "ui/session/run_store.h"
#include "ui/session/session_state.h"

class QLabel;
class QProgressDialog;
class QMenu;

namespace octo::ui {

class PromptPanel;
class SwitchesPanel;
class TokenStreamView;
class HeadHeatmapView;
class ExpertsView;
class SubsystemStripView;
class AttentionView;
class KvView;
class LatencyView;
class HistoryPanel;
class RouterPanel;
class AdvisorPanel;
class CompareView;
class AdvisorController;
class RunController;
class MainMenus;
class ModelController;
class StatusLine;
class WorkbenchSession;
class BackendMenu;
class LogPanel;
class CrashRecovery;
class CaptureController;
class ServerController;
class PresenterPanel;
class TimelineScrubber;
class ClaimsPanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    void openModel(const QString& path);

    RunStore& store() { return store_; }
    ClaimsStore& claimsStore() { return claims_store_; }
    // Shows the Claims panel and measures every claim on the loaded model (Model → Measure Claims).
    void measureClaims();
    RunController& runs() { return *runs_; } // Run Prompt, Rerun, Cancel, A/B
    EngineBridge& bridge() { return bridge_; }
    AdvisorController* advisorController() const { return advisor_controller_; }
    CaptureController* captureController() const { return captures_; }
    // Model → Connect to Server…: runs on an OpenAI-compatible server (server_controller.h).
    ServerController* serverController() const { return server_; }
    // Loads the router's probes and rules and the advisor's rules from the resource folder.
    void loadResources(const QString& resource_dir);
    QString resourceDir() const { return resource_dir_; } // empty until loadResources
    // Calibrates the loaded model's head map on the resource folder's probe set, with progress.
    void calibrateHeadMap();
    // Calibrates a mixture of experts' expert → subsystem map the same way (docs/moe.md).
    void calibrateExperts();

    // Autosaves the prompt and session and, after a crash, offers to restore them
    // (ui/session/crash_recovery.h). The GUI starts it once shown; headless runs and tests that do not
    // exercise it leave it off, so they never touch the user's autosave.
    void startSession(std::chrono::milliseconds autosave_interval = Autosave::kDefaultInterval);
    // Shows the first-start hint above the prompt unless it was dismissed before
    // (ui/panels/first_start_hint.h); startSession calls it.
    void offerFirstStartHint();
    CrashRecovery* recovery() const;
    SessionState sessionState() const;
    void restoreSession(const SessionState& state); // the prompt as one undoable edit

    void about(); // Help → About
    // View → Layout: a preset layout; Reset Layout is Inspect, the first start's.
    void applyLayout(LayoutPreset preset);
    bool exportScreenshot(const QString& path);
    // Shows and raises the panel whose dock is named `name` + "Dock" ("experts", "attention",
    // "kv", …; --show-panel). False when there is none; panelNames() lists them.
    bool showPanel(const QString& name);
    QStringList panelNames() const;
    bool exportPlots(const QString& folder);
    bool exportRunData(const QString& json_path, const QString& csv_path);

signals:
    void runSettled(); // the shown run finished, failed or was cancelled

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void saveSettings();
    void restoreSettings();

    EngineBridge bridge_;
    RunStore store_;
    ClaimsStore claims_store_;
    PromptPanel* prompt_;
    SwitchesPanel* switches_;
    TokenStreamView* tokens_;
    HeadHeatmapView* heatmap_;
    ExpertsView* experts_;
    SubsystemStripView* strip_;
    AttentionView* attention_;
    KvView* kv_;
    LatencyView* latency_;
    HistoryPanel* history_;
    RouterPanel* router_;
    AdvisorPanel* advisor_;
    CompareView* compare_;
    AdvisorController* advisor_controller_;
    RunController* runs_;
    LogPanel* log_;
    WorkbenchSession* session_;
    TimelineScrubber* timeline_;
    PresenterPanel* presenter_;
    ClaimsPanel* claims_;
    CaptureController* captures_;
    MainMenus* menus_ = nullptr;
    StatusLine* status_;
    ModelController* models_;
    ServerController* server_ = nullptr;
    QString resource_dir_;
    bool laid_out_ = false;
};

} // namespace octo::ui
