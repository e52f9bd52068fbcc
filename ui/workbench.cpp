#include "ui/workbench.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include "ui/controllers/advisor_controller.h"
#include "ui/controllers/capture_controller.h"
#include "ui/controllers/claims_controller.h"
#include "ui/controllers/conversation_controller.h"
#include "ui/controllers/export_controller.h"
#include "ui/controllers/lens_controller.h"
#include "ui/controllers/model_controller.h"
#include "ui/controllers/quant_report_controller.h"
#include "ui/controllers/router_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/controllers/server_controller.h"
#include "ui/controllers/session_archive_controller.h"
#include "ui/panels/advisor_panel.h"
#include "ui/panels/calibration_banner.h"
#include "ui/panels/claims_panel.h"
#include "ui/panels/coherence_box.h"
#include "ui/panels/conversation_panel.h"
#include "ui/panels/first_start_hint.h"
#include "ui/panels/help_menu.h"
#include "ui/panels/history_panel.h"
#include "ui/panels/log_panel.h"
#include "ui/panels/presenter_panel.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/quant_report_dialog.h"
#include "ui/panels/router_panel.h"
#include "ui/panels/switches_panel.h"
#include "ui/session/app_log.h"
#include "ui/session/workbench_session.h"
#include "ui/support/subsystem_palette.h"
#include "ui/support/window_services.h"
#include "ui/views/attention_view.h"
#include "ui/views/logit_lens_view.h"
#include "ui/views/compare_view.h"
#include "ui/views/experts_view.h"
#include "ui/views/head_heatmap_view.h"
#include "ui/views/kv_view.h"
#include "ui/views/latency_view.h"
#include "ui/views/subsystem_strip_view.h"
#include "ui/views/answer_view.h"
#include "ui/views/timeline_scrubber.h"
#include "ui/views/token_stream_view.h"

namespace octo::ui {

Workbench::Workbench(WorkbenchWindow window) : window_(std::move(window)) {
    QWidget* w = &window_.widget;
    StatusSink& status = window_.status;
    // The panels, in the order they join the window (its focus order).
    prompt_ = new PromptPanel(w);
    conversation_ = new ConversationPanel(conversations_, store_, w);
    auto* switches = new SwitchesPanel(store_, w);
    tokens_ = new TokenStreamView(store_, w);
    auto* heatmap = new HeadHeatmapView(store_, w);
    auto* experts = new ExpertsView(store_, w);
    auto* strip = new SubsystemStripView(store_, w);
    auto* attention = new AttentionView(store_, w);
    auto* lens = new LogitLensView(store_, w);
    auto* kv = new KvView(store_, w);
    latency_ = new LatencyView(store_, w);
    auto* history = new HistoryPanel(store_, w);
    router_controller_ = new RouterController(w);
    router_ = new RouterPanel(prompt_->editor(), *router_controller_, w);
    const auto name_route = [this] { router_->setModelGroupsNamed(!store_.model() || groups_are_named(*store_.model())); };
    connect(&store_, &RunStore::modelLoaded, router_, name_route);
    connect(&store_, &RunStore::calibrationFinished, router_, name_route);
    advisor_ = new AdvisorPanel(prompt_->editor(), w);
    coherence_ = new CoherenceBox(conversations_);
    advisor_->addSection(coherence_);
    auto* compare = new CompareView(w);
    auto* log = new LogPanel(app_log_feed(), w);
    timeline_ = new TimelineScrubber(store_, w);
    answer_ = new AnswerView(store_, w);
    auto* presenter = new PresenterPanel(store_, w);
    claims_ = new ClaimsPanel(claims_store_, w);
    docks_ = {.prompt = prompt_, .conversation = conversation_, .switches = switches, .history = history, .router = router_, .heatmap = heatmap, .experts = experts,
              .attention = attention, .lens = lens, .advisor = advisor_, .presenter = presenter, .strip = strip, .kv = kv, .latency = latency_,
              .compare = compare, .log = log, .claims = claims_};
    if (window_.place_panels) window_.place_panels(*this);

    // The controllers: what runs, captures, models, servers, claims and exports do.
    advisor_controller_ = new AdvisorController(
        store_, bridge_, advisor_, compare, [this] { return runs_->editorSpec(); },
        [show = window_.show_panel] { show(QStringLiteral("compare")); }, w);
    runs_ = new RunController(store_, bridge_, *prompt_, *switches, *advisor_controller_, w);
    conversation_controller_ = new ConversationController(
        {*w, conversations_, store_, bridge_, status, [this] { return runs_->editorSpec(); },
         [this](quint64 a, quint64 b) { return advisor_controller_->compareRuns(a, b); }},
        w);
    conversation_->setController(conversation_controller_);
    models_ = new ModelController(*w, status, store_, bridge_, window_.load_choice, w);
    auto* banner = new CalibrationBanner(store_, [this] { calibrateHeadMap(); }); // groups without a map's meaning
    prompt_->addNote(banner);
    banner->setVisible(banner->offered());
    session_ = new WorkbenchSession(*w, status, store_, *prompt_, *switches, *models_, conversations_);
    claims_controller_ = new ClaimsController(claims_store_, bridge_, w);
    captures_ = new CaptureController({*w, status, window_.pictures, store_, bridge_, *runs_, *router_, *advisor_,
                                       [this](const QString& path) { models_->open(path); }},
                                      w);
    sessions_ = new SessionArchiveController(*w, status, store_, *captures_, w);
    server_ = new ServerController(*w, status, bridge_, w);
    exports_ = new ExportController(*w, window_.pictures, store_, w);
    new LensController(store_, bridge_, *lens, w);
    quant_reports_ = new QuantReportController(store_, bridge_, w);

    // Which signal goes where.
    connect(&bridge_, &EngineBridge::events, &store_, &RunStore::apply);
    connect(&bridge_, &EngineBridge::events, &claims_store_, &ClaimsStore::apply);
    connect(&bridge_, &EngineBridge::runSubmitted, &store_, [this](quint64 id) { store_.submitted(id); });
    connect(&store_, &RunStore::runningChanged, prompt_, &PromptPanel::setRunning); // the one place
    connect(router_, &RouterPanel::decided, &store_, &RunStore::set_route);
    connect(advisor_, &AdvisorPanel::findingsFor, &store_,
            [this](const QString& text, const QString& answered, const std::vector<Finding>& f) { store_.set_findings(text, answered, f); });
    connect(prompt_, &PromptPanel::runRequested, runs_, &RunController::runPrompt);
    connect(prompt_, &PromptPanel::cancelRequested, runs_, &RunController::cancel);
    connect(switches, &SwitchesPanel::rerunRequested, runs_, &RunController::rerun);
    connect(experts, &ExpertsView::expertSwitchRequested, switches, &SwitchesPanel::addExpertSwitch);
    connect(history, &HistoryPanel::runActivated, this, [this](uint64_t id) {
        store_.show_run(id);
        const RunRecord* r = store_.current();
        if (r && r->group && r->group->kind == RunGroup::Kind::Conversation) {
            window_.show_panel(QStringLiteral("conversation")); // the conversation follows (ConversationController)
        } else if (r) {
            runs_->showSpec(r->trace.spec);
        }
    });
    connect(history, &HistoryPanel::compareRequested, this, [this, &status](quint64 a, quint64 b) {
        if (!advisor_controller_->compareRuns(a, b)) status.showError(tr("These two runs cannot be compared."), 10000);
    });
    connect(claims_, &ClaimsPanel::statusMessage, this, [&status](const QString& m) { status.showMessage(m, 10000); });
    connect(claims_, &ClaimsPanel::runRequested, claims_controller_, &ClaimsController::run);
    connect(claims_, &ClaimsPanel::cancelRequested, claims_controller_, &ClaimsController::cancel);
    connect(&store_, &RunStore::modelLoaded, this, [this] {
        claims_store_.clear(); // they described the previous model
        claims_->setModelLoaded(true);
        prompt_->setModelPrecision(store_.model()->default_precision);
        prompt_->setOnServer(store_.model()->engine.has_value());
        prompt_->setReasoningShown(store_.model()->chat_family == "harmony");
    });
    connect(&store_, &RunStore::runFinished, this, [this, &status] {
        if (const RunRecord* r = store_.current(); r && r->state == RunState::Failed) status.showError(tr("Run failed: %1").arg(r->error), 10000);
    });
    connect(captures_, &CaptureController::rerunReported, presenter, &PresenterPanel::showReport);
}

Workbench::~Workbench() = default;

DockPanels Workbench::dockPanels() const { return docks_; }

void Workbench::loadResources(const QString& resource_dir) {
    resource_dir_ = resource_dir;
    router_->load(resource_dir);
    advisor_->load(resource_dir);
    coherence_->load(resource_dir);
    claims_controller_->setResourceDir(resource_dir);
    if (QString error; !claims_store_.load(resource_dir, &error)) window_.status.showError(tr("Claims unavailable: %1").arg(error), 10000);
}

void Workbench::calibrateHeadMap() { models_->calibrate(resource_dir_); }

bool Workbench::connectedToServer() const { return store_.model() && store_.model()->engine.has_value(); }

void Workbench::disconnectServer() {
    if (!connectedToServer()) return;
    // Replaces "Connected to …", which would otherwise stay on the line for its 15 seconds.
    window_.status.showMessage(tr("Disconnected from the server %1").arg(QString::fromStdString(store_.model()->engine->url)), 8000);
    QString path = QSettings().value("lastModel").toString();
    if (path.isEmpty() || !QFileInfo::exists(path)) path = QDir(resource_dir_).filePath(QStringLiteral("octet/octet.gguf"));
    models_->open(path);
}

void Workbench::calibrateExperts() { models_->calibrate(resource_dir_, CalibrationUnit::Experts); }

void Workbench::saveSettings(QSettings& settings) const {
    settings.setValue("latency/bands", QList<QVariant>{latency_->lowBand(), latency_->highBand()});
    prompt_->save(settings);
}

void Workbench::restoreSettings(const QSettings& settings) {
    const QList<QVariant> bands = settings.value("latency/bands").toList();
    if (bands.size() == 2) latency_->setBands(bands[0].toInt(), bands[1].toInt());
    prompt_->load(settings);
}

void Workbench::startSession(std::chrono::milliseconds autosave_interval) {
    session_->start(autosave_interval);
    offerFirstStartHint();
}

void Workbench::offerFirstStartHint() {
    if (!FirstStartHint::wanted() || window_.widget.findChild<FirstStartHint*>()) return;
    window_.add_centre_note(new FirstStartHint([this] { HelpMenu::showExamples(*this, window_.widget); }));
}

CrashRecovery* Workbench::recovery() const { return session_->recovery(); }

void Workbench::restoreSession(const SessionState& state) { session_->restore(state); }

void Workbench::finishSession() { session_->finish(); }

void Workbench::openConversation(const std::vector<ChatMessage>& messages) {
    window_.show_panel(QStringLiteral("conversation"));
    conversation_controller_->play(messages);
}

void Workbench::measureClaims() {
    window_.show_panel(QStringLiteral("claims"));
    claims_->runAll();
}

QuantReportDialog* Workbench::openQuantReport() {
    if (!quant_dialog_) {
        quant_dialog_ = new QuantReportDialog(*quant_reports_, store_, [this] { return QString::fromStdString(runs_->editorSpec().prompt); },
                                              &window_.widget);
    }
    quant_dialog_->show();
    quant_dialog_->raise();
    quant_dialog_->activateWindow();
    return quant_dialog_;
}

} // namespace octo::ui
