#include "ui/main_window.h"

#include <QCloseEvent>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QVBoxLayout>

#include "ui/controllers/capture_controller.h"
#include "ui/controllers/export_controller.h"
#include "ui/controllers/model_controller.h"
#include "ui/dock_layout.h"
#include "ui/main_menus.h"
#include "ui/panels/status_line.h"
#include "ui/support/focus_ring.h"
#include "ui/support/retranslate.h"
#include "ui/views/answer_view.h"
#include "ui/views/timeline_scrubber.h"
#include "ui/views/token_stream_view.h"

namespace octo::ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), status_sink_(*statusBar()) {
    setObjectName(QStringLiteral("mainWindow"));
    setDockNestingEnabled(true);
    FocusRing::install(); // the keyboard's focus is drawn where it can be seen
    bench_ = std::make_unique<Workbench>(WorkbenchWindow{*this, status_sink_, pictures_, [this](const QString& name) { return showPanel(name); },
                                                         [this] { return menus_->loadChoice(); },
                                                         [this](Workbench& bench) { placePanels(bench); },
                                                         [this](QWidget* note) { addCentreNote(note); }});
    connect(&bench_->models(), &ModelController::loading, status_, &StatusLine::showLoading);
    connect(&store(), &RunStore::runFinished, this, &MainWindow::runSettled);
    connect(captureController(), &CaptureController::titleChanged, this, &QWidget::setWindowTitle);
    menus_ = new MainMenus(*this, *bench_);
    on_language_change(this, [this] { setWindowTitle(tr("Octoscope")); });
    resize(1280, 800);
    restoreSettings();
}

MainWindow::~MainWindow() = default;

// The token stream with the answer beside or under it (the user's choice, remembered) and the
// timeline that steps through them in the middle, every panel in its dock, and the status line's
// lasting labels — before the controllers add widgets of their own.
void MainWindow::placePanels(Workbench& bench) {
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(bench.tokens());
    scroll->setWidgetResizable(true);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("answerSplit"));
    split->setChildrenCollapsible(false);
    split->addWidget(scroll);
    split->addWidget(bench.answer());
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    const auto place = [split](bool beside) { split->setOrientation(beside ? Qt::Horizontal : Qt::Vertical); };
    connect(bench.answer(), &AnswerView::placementChanged, this, [place](bool beside) {
        place(beside);
        QSettings().setValue("answer/beside", beside);
    });
    bench.answer()->setBeside(QSettings().value("answer/beside", false).toBool());
    bench.answer()->setRendering(QSettings().value("answer/markdown", true).toBool() ? AnswerView::Rendering::Markdown
                                                                                      : AnswerView::Rendering::Text);
    connect(bench.answer(), &AnswerView::renderingChanged, this, [](AnswerView::Rendering r) {
        QSettings().setValue("answer/markdown", r == AnswerView::Rendering::Markdown);
    });
    place(bench.answer()->beside());
    auto* centre = new QWidget(this);
    auto* centre_layout = new QVBoxLayout(centre);
    centre_layout->setContentsMargins(0, 0, 0, 0);
    centre_layout->setSpacing(2);
    centre_layout->addWidget(split, 1);
    centre_layout->addWidget(bench.timeline());
    setCentralWidget(centre);
    lay_out_docks(*this, bench.dockPanels());
    addActions(bench.timeline()->shortcutActions());
    status_ = new StatusLine(*statusBar(), bench.store(), this);
}

void MainWindow::addCentreNote(QWidget* note) {
    auto* layout = static_cast<QVBoxLayout*>(centralWidget()->layout());
    note->setParent(centralWidget());
    layout->insertWidget(0, note);
    note->show();
}

void MainWindow::openModel(const QString& path) { bench_->models().open(path); }

void MainWindow::fitToScreen() {
    const QScreen* on = screen();
    if (!on) return;
    const FirstWindow first = first_window_geometry(on->availableGeometry());
    setGeometry(first.geometry);
    if (first.maximised) setWindowState(windowState() | Qt::WindowMaximized);
}

void MainWindow::saveSettings() {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    bench_->saveSettings(settings);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    bench_->restoreSettings(settings);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (laid_out_) return;
    laid_out_ = true;
    if (!QSettings().contains("window/state")) size_docks_for_first_start(*this); // else the user's own layout
}

void MainWindow::closeEvent(QCloseEvent* event) {
    bench_->finishSession();
    saveSettings();
    bench_->bridge().cancel();
    event->accept();
}

bool MainWindow::exportScreenshot(const QString& path) { return bench_->exports().exportScreenshot(path); }

} // namespace octo::ui
