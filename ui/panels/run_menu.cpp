#include "ui/panels/run_menu.h"

#include "ui/controllers/capture_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/workbench.h"

namespace octo::ui {

RunMenu::RunMenu(Workbench& bench, QWidget* parent) : QMenu(tr("&Run"), parent) {
    RunController* runs = &bench.runs();
    addAction(tr("&Run Prompt"), QKeySequence(tr("Ctrl+Return")), runs, &RunController::runPrompt);
    addAction(tr("R&erun with Switches"), QKeySequence(tr("Ctrl+R")), runs, &RunController::rerun);
    addAction(tr("&Cancel"), QKeySequence(Qt::Key_Escape), runs, &RunController::cancel);
    addAction(tr("Re-run Ca&pture"), QKeySequence(tr("Ctrl+Shift+R")), bench.captureController(), &CaptureController::rerunCapture);
    addSeparator();
    addAction(tr("A/B Compare &with Shown Run"), QKeySequence(tr("Ctrl+B")), runs, &RunController::compareWithShown);
    addAction(tr("&Quantisation Report…"), QKeySequence(tr("Ctrl+Shift+Q")), this, [&bench] { bench.openQuantReport(); });
}

} // namespace octo::ui
