#include "ui/main_menus.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QMenuBar>
#include <QSettings>

#include "ui/controllers/capture_controller.h"
#include "ui/controllers/export_controller.h"
#include "ui/controllers/model_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/controllers/server_controller.h"
#include "ui/dock_layout.h"
#include "ui/panels/about_dialog.h"
#include "ui/panels/backend_menu.h"
#include "ui/panels/documentation.h"
#include "ui/panels/examples_dialog.h"
#include "ui/panels/experts_help.h"
#include "ui/panels/language_menu.h"
#include "ui/panels/shortcuts_dialog.h"
#include "ui/support/retranslate.h"
#include "ui/workbench.h"

namespace octo::ui {

namespace {
constexpr int kRecentModels = 8;
} // namespace

MainMenus::MainMenus(QMainWindow& window, Workbench& bench) : QObject(&window), window_(window), bench_(bench) {
    on_language_change(&window_, [this] { build(); });
    connect(&bench_.store(), &RunStore::modelLoaded, this, [this] {
        if (!bench_.store().model()->engine) rememberRecent(QString::fromStdString(bench_.store().model()->path)); // files only
    });
}

// The menus in the UI's language: built again, whole, when it changes (their state lives in
// QSettings and in the objects they call, so nothing is lost).
void MainMenus::build() {
    window_.menuBar()->clear();
    for (const QPointer<QMenu>& menu : menus_) delete menu.data();
    menus_.clear();
    buildFile();
    buildRun();
    buildModel();
    buildView();
    buildHelp();
    showRecent();
}

QMenu* MainMenus::addMenu(const QString& title) {
    QMenu* menu = window_.menuBar()->addMenu(title);
    menus_.push_back(menu);
    return menu;
}

void MainMenus::buildHelp() {
    QMenu* help = addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    help->addAction(tr("&Documentation"), QKeySequence::HelpContents, this, [this] { open_documentation(window_, bench_.resourceDir()); })
        ->setObjectName(QStringLiteral("helpDocumentation"));
    help->addAction(tr("E&xamples…"), this, &MainMenus::showExamples)->setObjectName(QStringLiteral("helpExamples"));
    help->addAction(tr("&Keyboard Shortcuts…"), this, [this] { show_shortcuts(window_); })->setObjectName(QStringLiteral("helpShortcuts"));
    help->addAction(tr("&Experts and Subsystems…"), this, [this] { show_experts_help(window_); });
    help->addSeparator();
    help->addAction(tr("&About Octoscope"), this, [this] { show_about(window_, bench_.store()); });
}

void MainMenus::showExamples() {
    show_examples(window_, bench_.resourceDir(), [this](const QString& prompt, bool run) { bench_.runs().usePrompt(prompt, run); });
}

void MainMenus::buildFile() {
    QMenu* file = addMenu(tr("&File"));
    file->addAction(tr("&Open Model…"), QKeySequence(tr("Ctrl+Shift+O")), &bench_.models(), &ModelController::askOpen);
    recent_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    CaptureController* captures = bench_.captureController();
    file->addAction(tr("Open &Capture…"), QKeySequence::Open, captures, &CaptureController::askOpenCapture);
    file->addAction(tr("&Save Capture…"), QKeySequence::Save, captures, &CaptureController::askSaveCapture);
    file->addAction(tr("Export &Bug Report…"), captures, &CaptureController::askBugReport);
    file->addSeparator();
    ExportController* exports = &bench_.exports();
    file->addAction(tr("Export Scree&nshot…"), QKeySequence(tr("Ctrl+Shift+S")), exports, &ExportController::askScreenshot);
    file->addAction(tr("Export &Plots…"), exports, &ExportController::askPlots);
    file->addAction(tr("Export Run &Data…"), exports, &ExportController::askRunData);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, &window_, &QWidget::close);
}

void MainMenus::buildRun() {
    QMenu* run = addMenu(tr("&Run"));
    RunController* runs = &bench_.runs();
    run->addAction(tr("&Run Prompt"), QKeySequence(tr("Ctrl+Return")), runs, &RunController::runPrompt);
    run->addAction(tr("R&erun with Switches"), QKeySequence(tr("Ctrl+R")), runs, &RunController::rerun);
    run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), runs, &RunController::cancel); // the one Cancel key, anywhere in the window
    run->addAction(tr("Re-run Ca&pture"), QKeySequence(tr("Ctrl+Shift+R")), bench_.captureController(), &CaptureController::rerunCapture);
    run->addSeparator();
    run->addAction(tr("A/B Compare &with Shown Run"), QKeySequence(tr("Ctrl+B")), runs, &RunController::compareWithShown);
}

void MainMenus::buildModel() {
    QMenu* model = addMenu(tr("&Model"));
    model->addAction(tr("Connect to &Server…"), QKeySequence(tr("Ctrl+Shift+K")), bench_.serverController(), &ServerController::showDialog);
    model->addSeparator();
    model->addAction(tr("&Calibrate Head Map…"), &bench_, &Workbench::calibrateHeadMap);
    model->addAction(tr("Calibrate &Experts…"), &bench_, &Workbench::calibrateExperts);
    model->addSeparator();
    model->addAction(tr("&Measure the Article's Claims"), QKeySequence(tr("Ctrl+Shift+M")), &bench_, &Workbench::measureClaims);
    backend_ = new BackendMenu(model);
    connect(backend_, &BackendMenu::changed, &bench_.models(), &ModelController::reopen); // applies to the next local model
}

void MainMenus::buildView() {
    QMenu* view = addMenu(tr("&View"));
    QMenu* layouts = view->addMenu(tr("La&yout"));
    const auto layout = [this](LayoutPreset preset) { return [this, preset] { apply_layout_preset(window_, preset); }; };
    layouts->addAction(tr("&Inspect"), QKeySequence(tr("Ctrl+Alt+1")), this, layout(LayoutPreset::Inspect));
    layouts->addAction(tr("&Compare"), QKeySequence(tr("Ctrl+Alt+2")), this, layout(LayoutPreset::Compare));
    layouts->addAction(tr("&Teach"), QKeySequence(tr("Ctrl+Alt+3")), this, layout(LayoutPreset::Teach));
    view->addAction(tr("&Reset Layout"), this, layout(LayoutPreset::Inspect));
    view->addSeparator();
    for (QDockWidget* dock : window_.findChildren<QDockWidget*>()) view->addAction(open_dock_action(window_, dock, view));
    view->addSeparator();
    view->addMenu(new LanguageMenu(view));
}

void MainMenus::rememberRecent(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recentModels").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kRecentModels) recent.removeLast();
    settings.setValue("recentModels", recent);
    settings.setValue("lastModel", path);
    showRecent();
}

void MainMenus::showRecent() {
    recent_->clear();
    for (const QString& p : QSettings().value("recentModels").toStringList()) {
        recent_->addAction(p, &bench_.models(), [this, p] { bench_.models().open(p); });
    }
}

} // namespace octo::ui
