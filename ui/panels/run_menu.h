// Run: Run Prompt, Rerun with Switches, Cancel (Esc, the one Cancel key anywhere in the
// window), Re-run Capture and A/B Compare with the shown run.
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
