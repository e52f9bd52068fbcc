#include "ui/main_window.h"

#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include "ui/support/retranslate.h"
#include "ui/controllers/advisor_controller.h"
#include "ui/controllers/capture_controller.h"
#include "ui/controllers/server_controller.h"
#include "ui/controllers/model_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/dock_layout.h"
#include "ui/support/focus_ring.h"
#include "ui/main_menus.h"
#include "ui/panels/about_dialog.h"
#include "ui/panels/advisor_panel.h"
#include "ui/panels/backend_menu.h"
#include "ui/panels/calibration_banner.h"
#include "ui/panels/first_start_hint.h"
#include "ui/panels/history_panel.h"
#include "ui/panels/log_panel.h"
#include "ui/panels/presenter_panel.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/router_panel.h"
#include "ui/panels/status_line.h"
#include "ui/panels/switches_panel.h"
#include "ui/session/app_log.h"
#include "ui/session/crash_recovery.h"
#include "ui/session/workbench_session.h"
#include "ui/support/file_save.h"
#include "ui/support/run_export.h"
#include "ui/views/attention_view.h"
#include "ui/views/compare_view.h"
#include "ui/views/experts_view.h"
#include "ui/panels/claims_panel.h"
#include "ui/views/head_heatmap_view.h"
#include "ui/views/kv_view.h"
#include "ui/views/latency_view.h"
#include "ui/views/subsystem_strip_view.h"
#include "ui/views/timeline_scrubber.h"
#include "ui/views/token_stream_view.h"
#include "ui/support/status_message.h"

namespace octo::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("mainWindow"));
    setDockNestingEnabled(true);
    FocusRing::install(); // the keyboard's focus is drawn where it can be seen
    prompt_ = new PromptPanel(this);
    switches_ = new SwitchesPanel(store_, this);
    tokens_ = new TokenStreamView(store_, this);
    heatmap_ = new HeadHeatmapView(store_, this);
    experts_ = new ExpertsView(store_, this);
    strip_ = new SubsystemStripView(store_, this);
    attention_ = new AttentionView(store_, this);
    kv_ = new KvView(store_, this);
    latency_ = new LatencyView(store_, this);
    history_ = new HistoryPanel(store_, this);
    router_ = new RouterPanel(prompt_->editor(), this);
    advisor_ = new AdvisorPanel(prompt_->editor(), this);
    compare_ = new CompareView(this);
    log_ = new LogPanel(app_log_feed(), this);
    timeline_ = new TimelineScrubber(store_, this);
    presenter_ = new PresenterPanel(store_, this);
    claims_ = new ClaimsPanel(claims_store_, bridge_, this);

    auto* scroll = new QScrollArea(this);
    scroll->setWidget(tokens_);
    scroll->setWidgetResizable(true);
    auto* centre = new QWidget(this); // the token stream, and the timeline that steps through it
    auto* centre_layout = new QVBoxLayout(centre);
    centre_layout->setContentsMargins(0, 0, 0, 0);
    centre_layout->setSpacing(2);
    centre_layout->addWidget(scroll, 1);
    centre_layout->addWidget(timeline_);
    setCentralWidget(centre);
    QDockWidget* ab = lay_out_docks(*this, {prompt_, switches_, history_, router_, heatmap_, experts_, attention_, strip_, kv_, latency_,
                                            advisor_, compare_, log_, presenter_, claims_});
    addActions(timeline_->shortcutActions());
    advisor_controller_ = new AdvisorController(
        store_, bridge_, advisor_, compare_,
        [this] { return runs_->editorSpec(); },
        [ab] {
            ab->show();
            ab->raise();
        },
        this);
    runs_ = new RunController(store_, bridge_, *prompt_, *switches_, *advisor_controller_, this);

    status_ = new StatusLine(*statusBar(), store_, this);
    models_ = new ModelController(*this, store_, bridge_, [this] { return menus_->backendMenu()->choice(); }, this);
    auto* banner = new CalibrationBanner(store_, [this] { calibrateHeadMap(); }); // groups without a map's meaning
    prompt_->addNote(banner);
    banner->setVisible(banner->offered());
    connect(models_, &ModelController::loading, status_, &StatusLine::showLoading);
    session_ = new WorkbenchSession(*this, store_, *prompt_, *switches_, *models_);

    connect(&bridge_, &EngineBridge::events, &store_, &RunStore::apply);
    connect(&bridge_, &EngineBridge::events, &claims_store_, &ClaimsStore::apply);
    connect(claims_, &ClaimsPanel::statusMessage, this, [this](const QString& m) { statusBar()->showMessage(m, 10000); });
    connect(&bridge_, &EngineBridge::runSubmitted, &store_, [this](quint64 id) { store_.submitted(id); });
    connect(&store_, &RunStore::runningChanged, prompt_, &PromptPanel::setRunning); // the one place
    connect(router_, &RouterPanel::decided, &store_, &RunStore::set_route);
    connect(advisor_, &AdvisorPanel::findingsFor, &store_,
            [this](const QString& text, const QString& answered, const std::vector<Finding>& f) { store_.set_findings(text, answered, f); });
    connect(prompt_, &PromptPanel::runRequested, runs_, &RunController::runPrompt);
    connect(prompt_, &PromptPanel::cancelRequested, runs_, &RunController::cancel);
    connect(switches_, &SwitchesPanel::rerunRequested, runs_, &RunController::rerun);
    connect(experts_, &ExpertsView::expertSwitchRequested, switches_, &SwitchesPanel::addExpertSwitch);
    connect(history_, &HistoryPanel::runActivated, this, [this](uint64_t id) {
        store_.show_run(id);
        if (const RunRecord* r = store_.current()) runs_->showSpec(r->trace.spec);
    });
    connect(history_, &HistoryPanel::compareRequested, this, [this](quint64 a, quint64 b) {
        if (!advisor_controller_->compareRuns(a, b)) show_status_error(*statusBar(), tr("These two runs cannot be compared."), 10000);
    });
    connect(&store_, &RunStore::modelLoaded, this, [this] {
        claims_store_.clear(); // they described the previous model
        claims_->setModelLoaded(true);
        if (!store_.model()->engine) menus_->rememberRecent(QString::fromStdString(store_.model()->path)); // files only
        prompt_->setModelPrecision(store_.model()->default_precision);
        prompt_->setOnServer(store_.model()->engine.has_value());
    });
    connect(&store_, &RunStore::runFinished, this, [this] {
        if (const RunRecord* r = store_.current(); r && r->state == RunState::Failed) {
            show_status_error(*statusBar(), tr("Run failed: %1").arg(r->error), 10000);
        }
        emit runSettled();
    });
    captures_ = new CaptureController({*this, store_, bridge_, *runs_, *router_, *advisor_,
                                       [this](const QString& path) { openModel(path); }},
                                      this);
    connect(captures_, &CaptureController::rerunReported, presenter_, &PresenterPanel::showReport);
    server_ = new ServerController(*this, bridge_, this);
    menus_ = new MainMenus(*this, *runs_, *captures_);
    on_language_change(this, [this] { setWindowTitle(tr("Octoscope")); });
    resize(1280, 800);
    restoreSettings();
}

MainWindow::~MainWindow() = default;


void MainWindow::loadResources(const QString& resource_dir) {
    resource_dir_ = resource_dir;
    router_->load(resource_dir);
    advisor_->load(resource_dir);
    claims_->setResourceDir(resource_dir);
    if (QString error; !claims_store_.load(resource_dir, &error)) show_status_error(*statusBar(), tr("Claims unavailable: %1").arg(error), 10000);
}

void MainWindow::calibrateHeadMap() { models_->calibrate(resource_dir_); }

void MainWindow::measureClaims() {
    showPanel(QStringLiteral("claims"));
    claims_->runAll();
}

void MainWindow::calibrateExperts() { models_->calibrate(resource_dir_, CalibrationUnit::Experts); }

void MainWindow::openModel(const QString& path) { models_->open(path); }

void MainWindow::saveSettings() {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("latency/bands", QList<QVariant>{latency_->lowBand(), latency_->highBand()});
    prompt_->save(settings);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    const QList<QVariant> bands = settings.value("latency/bands").toList();
    if (bands.size() == 2) latency_->setBands(bands[0].toInt(), bands[1].toInt());
    prompt_->load(settings);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (laid_out_) return;
    laid_out_ = true;
    if (!QSettings().contains("window/state")) size_docks_for_first_start(*this); // else the user's own layout
}

void MainWindow::startSession(std::chrono::milliseconds autosave_interval) {
    session_->start(autosave_interval);
    offerFirstStartHint();
}

void MainWindow::offerFirstStartHint() {
    if (FirstStartHint::wanted() && !findChild<FirstStartHint*>()) prompt_->addNote(new FirstStartHint([this] { menus_->showExamples(); }));
}
CrashRecovery* MainWindow::recovery() const { return session_->recovery(); }
SessionState MainWindow::sessionState() const { return session_->state(); }
void MainWindow::restoreSession(const SessionState& state) { session_->restore(state); }

void MainWindow::closeEvent(QCloseEvent* event) {
    session_->finish();
    saveSettings();
    bridge_.cancel();
    event->accept();
}

void MainWindow::applyLayout(LayoutPreset preset) { apply_layout_preset(*this, preset); }

void MainWindow::about() { show_about(*this, store_); }

bool MainWindow::exportScreenshot(const QString& path) { return save_png(grab(), path); }

bool MainWindow::showPanel(const QString& name) {
    auto* dock = findChild<QDockWidget*>(name + QStringLiteral("Dock"));
    if (!dock) return false;
    dock->show();
    dock->raise();
    return true;
}

QStringList MainWindow::panelNames() const {
    QStringList names;
    for (const QDockWidget* dock : findChildren<QDockWidget*>()) {
        QString name = dock->objectName();
        if (name.endsWith(QStringLiteral("Dock"))) names.push_back(name.chopped(4));
    }
    names.sort();
    return names;
}

bool MainWindow::exportPlots(const QString& folder) {
    bool ok = true;
    for (QCustomPlot* plot : findChildren<QCustomPlot*>()) {
        const QString name = plot->objectName().isEmpty() ? QStringLiteral("plot") : plot->objectName();
        ok = save_png(plot->toPixmap(800, 500), QDir(folder).filePath(name + QStringLiteral(".png"))) && ok;
    }
    return ok;
}

bool MainWindow::exportRunData(const QString& json_path, const QString& csv_path) {
    const RunRecord* r = store_.current();
    if (!r) return false;
    return save_file(json_path, run_to_json(*r)) && save_file(csv_path, run_to_csv(*r));
}

} // namespace octo::ui
