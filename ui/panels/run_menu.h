// Run: Run Prompt, Rerun with Switches, Cancel (Esc, the one Cancel key anywhere in the
// window), Re-run Capture, A/B Compare with the shown run and the Quantisation Report (two files
// of one model on the same prompts).
#pragma once

#include <QMenu>

namespace octo::ui {

class Workbench;

class RunMenu : public QMenu {
    Q_OBJECT
public:
    RunMenu(Workbench& bench, QWidget* parent);
};

} // namespace octo::ui
