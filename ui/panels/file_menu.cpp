#include "ui/panels/file_menu.h"

#include "ui/controllers/capture_controller.h"
#include "ui/controllers/conversation_controller.h"
#include "ui/controllers/export_controller.h"
#include "ui/controllers/model_controller.h"
#include "ui/controllers/session_archive_controller.h"
#include "ui/panels/recent_models_menu.h"
#include "ui/workbench.h"

namespace octo::ui {

FileMenu::FileMenu(Workbench& bench, QWidget& window, QWidget* parent) : QMenu(tr("&File"), parent) {
    addAction(tr("&Open Model…"), QKeySequence(tr("Ctrl+Shift+O")), &bench.models(), &ModelController::askOpen);
    recent_ = new RecentModelsMenu(bench, this);
    addMenu(recent_);
    addSeparator();
    CaptureController* captures = bench.captureController();
    addAction(tr("Open &Capture…"), QKeySequence::Open, captures, &CaptureController::askOpenCapture);
    addAction(tr("&Save Capture…"), QKeySequence::Save, captures, &CaptureController::askSaveCapture);
    addAction(tr("Export &Bug Report…"), captures, &CaptureController::askBugReport);
    SessionArchiveController* sessions = &bench.sessions();
    addAction(tr("E&xport Session…"), sessions, &SessionArchiveController::askExport);
    addAction(tr("&Import Session…"), sessions, &SessionArchiveController::askImport);
    addSeparator();
    ConversationController* conversations = &bench.conversationController();
    addAction(tr("Open Con&versation…"), conversations, &ConversationController::askOpenFile);
    addAction(tr("Save Conversa&tion…"), conversations, &ConversationController::askSaveFile);
    addSeparator();
    ExportController* exports = &bench.exports();
    addAction(tr("Export Scree&nshot…"), QKeySequence(tr("Ctrl+Shift+S")), exports, &ExportController::askScreenshot);
    addAction(tr("Export &Plots…"), exports, &ExportController::askPlots);
    addAction(tr("Export Run &Data…"), exports, &ExportController::askRunData);
    addSeparator();
    addAction(tr("&Quit"), QKeySequence::Quit, &window, &QWidget::close);
}

} // namespace octo::ui
