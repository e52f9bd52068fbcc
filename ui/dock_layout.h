// Where the workbench's panels sit: every panel in a named dock (the names are what QSettings
// restores a user's own layout by), which docks share a tab, and the sizes of a first start.
#pragma once

class QDockWidget;
class QMainWindow;
class QWidget;

namespace octo::ui {

struct DockPanels {
    QWidget* prompt;
    QWidget* switches;
    QWidget* history;
    QWidget* router;
    QWidget* heatmap;
    QWidget* experts;
    QWidget* attention;
    QWidget* strip;
    QWidget* kv;
    QWidget* latency;
    QWidget* advisor;
    QWidget* compare;
    QWidget* log;
    QWidget* presenter;
    QWidget* claims;
};

// Puts each panel in its dock and tabs them (the log starts hidden: View → Log). Returns the
// A/B compare dock, which a comparison brings forward.
QDockWidget* lay_out_docks(QMainWindow& window, const DockPanels& panels);

// The dock sizes of a first start (no saved layout), once the window has its size.
void size_docks_for_first_start(QMainWindow& window);

} // namespace octo::ui
