// The workbench's parts and their wiring, without the window around them: the engine bridge and
// the stores, every panel and view, the controllers, and which signal goes where. MainWindow
// docks the panels and builds the menus on these parts; controllers reach the window only
// through the StatusSink and ScreenshotProvider given here, never the window itself.
#pragma once

#include <QObject>
#include <QString>

#include <chrono>
#include <functional>

#include "ui/controllers/engine_bridge.h"
#include "ui/dock_layout.h"
#include "ui/session/autosave.h"
#include "ui/session/claims_store.h"
#include "ui/session/conversation_store.h"
#include "ui/session/run_store.h"

class QSettings;

namespace octo::ui {

class AdvisorController;
class AdvisorPanel;
class CaptureController;
class ClaimsController;
class ClaimsPanel;
class CoherenceBox;
class ConversationController;
class ConversationPanel;
class CrashRecovery;
class ExportController;
class LatencyView;
class ModelController;
class PromptPanel;
class QuantReportController;
class QuantReportDialog;
class RouterController;
class RouterPanel;
class RunController;
class ScreenshotProvider;
class ServerController;
class SessionArchiveController;
class StatusSink;
class TimelineScrubber;
class AnswerView;
class TokenStreamView;
class WorkbenchSession;
struct SessionState;

class Workbench;

// What the window lends the workbench: where dialogs go and panels live, the status line, its
// pictures, a way to bring a panel forward ("compare", "claims") and how the menus say to open a
// model; `place_panels` docks the panels once they exist, before the controllers add their own
// widgets (so the keyboard's focus order and the status line's labels keep their order).
struct WorkbenchWindow {
    QWidget& widget;
    StatusSink& status;
    ScreenshotProvider& pictures;
    std::function<bool(const QString& panel)> show_panel;
    std::function<LoadChoice()> load_choice; // Model → Backend and KV Cache
    std::function<void(Workbench&)> place_panels;
    // Puts a note (the first-start hint) above the token stream, where a first start has room:
    // in the prompt's dock it pushed Run out of a 768-line screen.
    std::function<void(QWidget* note)> add_centre_note;
};

class Workbench : public QObject {
    Q_OBJECT
public:
    explicit Workbench(WorkbenchWindow window);
    ~Workbench() override;

    EngineBridge& bridge() { return bridge_; }
    RunStore& store() { return store_; }
    ClaimsStore& claimsStore() { return claims_store_; }
    ConversationStore& conversations() { return conversations_; }
    ConversationController& conversationController() const { return *conversation_controller_; }
    ConversationPanel* conversationPanel() const { return conversation_; }
    DockPanels dockPanels() const;
    TokenStreamView* tokens() const { return tokens_; }
    TimelineScrubber* timeline() const { return timeline_; }
    AnswerView* answer() const { return answer_; } // the shown run's answer as text (in the centre)
    RunController& runs() const { return *runs_; }
    AdvisorController* advisorController() const { return advisor_controller_; }
    CaptureController* captureController() const { return captures_; }
    ServerController* serverController() const { return server_; }
    SessionArchiveController& sessions() const { return *sessions_; } // File → Export / Import Session
    ModelController& models() const { return *models_; }
    ExportController& exports() const { return *exports_; }
    // The prompt's settings and the latency bands, kept between starts.
    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

    // Autosave and crash recovery (ui/session/workbench_session.h), then the first-start hint
    // above the prompt unless it was dismissed before (ui/panels/first_start_hint.h).
    void startSession(std::chrono::milliseconds autosave_interval = Autosave::kDefaultInterval);
    void offerFirstStartHint();
    CrashRecovery* recovery() const;
    void restoreSession(const SessionState& state); // the prompt as one undoable edit
    void finishSession(); // the window closes: the autosave is final and the crash marker goes

    // The router's probes and rules, the advisor's rules and the claims from the resource folder.
    void loadResources(const QString& resource_dir);
    QString resourceDir() const { return resource_dir_; } // empty until loadResources
    void calibrateHeadMap(); // on the resource folder's probe set, with progress
    void calibrateExperts(); // a mixture of experts' expert → subsystem map the same way (docs/moe.md)
    void measureClaims();
    // The Conversation panel in front with `messages` played there (Help → Examples; ConversationController::play).
    void openConversation(const std::vector<ChatMessage>& messages);    // the Claims panel in front, every claim measured on the loaded model
    // Model → Disconnect from Server: back to the last model file opened here (QSettings
    // "lastModel"), else the built-in model; the server's runs stay in the history.
    void disconnectServer();
    bool connectedToServer() const; // the loaded model is a server's
    // Run → Quantisation Report…: the dialog (made on first use) in front.
    QuantReportDialog* openQuantReport();
    QuantReportController& quantReports() const { return *quant_reports_; }

private:
    WorkbenchWindow window_;
    EngineBridge bridge_;
    RunStore store_;
    ClaimsStore claims_store_;
    ConversationStore conversations_;
    DockPanels docks_{};
    PromptPanel* prompt_;
    TokenStreamView* tokens_;
    LatencyView* latency_;
    RouterController* router_controller_;
    RouterPanel* router_;
    AdvisorPanel* advisor_;
    ClaimsPanel* claims_;
    ConversationPanel* conversation_;
    CoherenceBox* coherence_;
    ConversationController* conversation_controller_;
    TimelineScrubber* timeline_;
    AnswerView* answer_;
    RunController* runs_;
    AdvisorController* advisor_controller_;
    ClaimsController* claims_controller_;
    CaptureController* captures_;
    ServerController* server_;
    SessionArchiveController* sessions_;
    ModelController* models_;
    ExportController* exports_;
    QuantReportController* quant_reports_;
    QuantReportDialog* quant_dialog_ = nullptr;
    WorkbenchSession* session_;
    QString resource_dir_;
};

} // namespace octo::ui
