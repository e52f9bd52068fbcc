#include "ui/main_menus.h"

#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSettings>

#include "ui/controllers/capture_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/controllers/server_controller.h"
#include "ui/dock_layout.h"
#include "ui/main_window.h"
#include "ui/panels/backend_menu.h"
#include "ui/panels/documentation.h"
#include "ui/panels/examples_dialog.h"
#include "ui/panels/experts_help.h"
#include "ui/panels/language_menu.h"
#include "ui/panels/shortcuts_dialog.h"
#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {
constexpr int kRecentModels = 8;
} // namespace

MainMenus::MainMenus(MainWindow& window, RunController& runs, CaptureController& captures)
    : QObject(&window), window_(window), runs_(runs), captures_(captures) {
    on_language_change(&window_, [this] { build(); });
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
    help->addAction(tr("&Documentation"), QKeySequence::HelpContents, this, [this] { open_documentation(window_, window_.resourceDir()); })
        ->setObjectName(QStringLiteral("helpDocumentation"));
    help->addAction(tr("E&xamples…"), this, &MainMenus::showExamples)->setObjectName(QStringLiteral("helpExamples"));
    help->addAction(tr("&Keyboard Shortcuts…"), this, [this] { show_shortcuts(window_); })->setObjectName(QStringLiteral("helpShortcuts"));
    help->addAction(tr("&Experts and Subsystems…"), this, [this] { show_experts_help(window_); });
    help->addSeparator();
    help->addAction(tr("&About Octoscope"), &window_, &MainWindow::about);
}

void MainMenus::showExamples() {
    show_examples(window_, window_.resourceDir(), [this](const QString& prompt, bool run) { runs_.usePrompt(prompt, run); });
}

void MainMenus::buildFile() {
    QMenu* file = addMenu(tr("&File"));
    file->addAction(tr("&Open Model…"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        const QString path = QFileDialog::getOpenFileName(&window_, tr("Open a GGUF model"), QString(),
                                                          tr("GGUF models (*.gguf);;All files (*)"));
        if (!path.isEmpty()) window_.openModel(path);
    });
    recent_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addAction(tr("Open &Capture…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(&window_, tr("Open a capture"), QString(), tr("Octoscope captures (*.octo);;All files (*)"));
        if (!path.isEmpty()) captures_.openCapture(path);
    });
    file->addAction(tr("&Save Capture…"), QKeySequence::Save, this, [this] {
        const QString path = QFileDialog::getSaveFileName(&window_, tr("Save the shown run as a capture"), QStringLiteral("run.octo"),
                                                          tr("Octoscope captures (*.octo)"));
        if (!path.isEmpty()) captures_.saveCapture(path);
    });
    file->addAction(tr("Export &Bug Report…"), this, [this] {
        const QString parent = QFileDialog::getExistingDirectory(&window_, tr("Folder to write the bug report into"));
        if (parent.isEmpty()) return;
        const QString name = QStringLiteral("octoscope-bug-report-%1").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
        captures_.exportBugReport(QDir(parent).filePath(name));
    });
    file->addSeparator();
    file->addAction(tr("Export Scree&nshot…"), QKeySequence(tr("Ctrl+Shift+S")), this, [this] {
        const QString path = QFileDialog::getSaveFileName(&window_, tr("Save the window as PNG"), QStringLiteral("octoscope.png"),
                                                          tr("PNG images (*.png)"));
        if (!path.isEmpty() && !window_.exportScreenshot(path)) QMessageBox::warning(&window_, tr("Export"), tr("Cannot write %1").arg(path));
    });
    file->addAction(tr("Export &Plots…"), this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(&window_, tr("Folder for the plot PNGs"));
        if (!dir.isEmpty() && !window_.exportPlots(dir)) QMessageBox::warning(&window_, tr("Export"), tr("Cannot write into %1").arg(dir));
    });
    file->addAction(tr("Export Run &Data…"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(&window_, tr("Save run data (JSON; a CSV is written beside it)"),
                                                          QStringLiteral("run.json"), tr("JSON (*.json)"));
        if (path.isEmpty()) return;
        QString csv = path;
        csv.replace(QRegularExpression(QStringLiteral("\\.json$")), QString());
        if (!window_.exportRunData(path, csv + QStringLiteral(".csv"))) {
            QMessageBox::warning(&window_, tr("Export"), tr("No run to export, or cannot write %1").arg(path));
        }
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, &window_, &QWidget::close);
}

void MainMenus::buildRun() {
    QMenu* run = addMenu(tr("&Run"));
    run->addAction(tr("&Run Prompt"), QKeySequence(tr("Ctrl+Return")), &runs_, &RunController::runPrompt);
    run->addAction(tr("R&erun with Switches"), QKeySequence(tr("Ctrl+R")), &runs_, &RunController::rerun);
    run->addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), &runs_, &RunController::cancel); // the one Cancel key, anywhere in the window
    run->addAction(tr("Re-run Ca&pture"), QKeySequence(tr("Ctrl+Shift+R")), &captures_, &CaptureController::rerunCapture);
    run->addSeparator();
    run->addAction(tr("A/B Compare &with Shown Run"), QKeySequence(tr("Ctrl+B")), &runs_, &RunController::compareWithShown);
}

void MainMenus::buildModel() {
    QMenu* model = addMenu(tr("&Model"));
    model->addAction(tr("Connect to &Server…"), QKeySequence(tr("Ctrl+Shift+K")), window_.serverController(),
                     &ServerController::showDialog);
    model->addSeparator();
    model->addAction(tr("&Calibrate Head Map…"), &window_, &MainWindow::calibrateHeadMap);
    model->addAction(tr("Calibrate &Experts…"), &window_, &MainWindow::calibrateExperts);
    model->addSeparator();
    model->addAction(tr("&Measure the Article's Claims"), QKeySequence(tr("Ctrl+Shift+M")), &window_, &MainWindow::measureClaims);
    backend_ = new BackendMenu(model);
    connect(backend_, &BackendMenu::changed, this, [this] {
        // a server's model stays where it runs; the backend applies to the next local model
        if (const auto& m = window_.store().model(); m && !m->engine) window_.openModel(QString::fromStdString(m->path));
    });
}

void MainMenus::buildView() {
    QMenu* view = addMenu(tr("&View"));
    QMenu* layouts = view->addMenu(tr("La&yout"));
    layouts->addAction(tr("&Inspect"), QKeySequence(tr("Ctrl+Alt+1")), this, [this] { window_.applyLayout(LayoutPreset::Inspect); });
    layouts->addAction(tr("&Compare"), QKeySequence(tr("Ctrl+Alt+2")), this, [this] { window_.applyLayout(LayoutPreset::Compare); });
    layouts->addAction(tr("&Teach"), QKeySequence(tr("Ctrl+Alt+3")), this, [this] { window_.applyLayout(LayoutPreset::Teach); });
    view->addAction(tr("&Reset Layout"), this, [this] { window_.applyLayout(LayoutPreset::Inspect); });
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
        recent_->addAction(p, this, [this, p] { window_.openModel(p); });
    }
}

} // namespace octo::ui
