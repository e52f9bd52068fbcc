// Where the workbench's panels sit: every panel in a named dock (the names are what QSettings
// restores a user's own layout by), which docks share a tab, and the sizes of a first start (the
// preset layouts, View → Layout, are layout_presets.h). Each panel sits in a scroll area inside its dock, so the window
// can shrink to a small laptop screen (≤ 1024 × 700) while every plot keeps its minimum height
// (Plot: 140 px) and scrolls instead of being crushed.
#pragma once

#include <QRect>
#include <QString>
#include <QStringList>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace octo::ui {

struct DockPanels {
    QWidget *prompt, *conversation, *switches, *history, *router; // the left column
    QWidget *heatmap, *experts, *attention, *lens, *advisor, *presenter; // right
    QWidget *strip, *kv, *latency, *compare, *log, *claims;       // bottom
};

// Puts each panel in its dock and tabs them (the log starts hidden: View → Log); the docks' titles
// follow the UI's language.
void lay_out_docks(QMainWindow& window, const DockPanels& panels);
// Every dock back in its area, tab group and visibility as at first start (the log closed), the
// groups' first tabs in front.
void arrange_docks(QMainWindow& window);
// Where a first window goes (no saved geometry) on a screen whose available area, without panels
// and task bars, is `available`: `preferred` centred where it fits with a title bar of `frame`
// pixels; otherwise as much of each side as the screen gives, never more. `maximised` when it
// did not fit: a window manager then keeps the whole window on the screen.
struct FirstWindow {
    QRect geometry; // the window's inside, without the frame
    bool maximised = false;
};
FirstWindow first_window_geometry(const QRect& available, QSize preferred = QSize(1280, 800), int frame = 32);
// The dock sizes of a first start (no saved layout), once the window has its size.
void size_docks_for_first_start(QMainWindow& window);
// Shows and raises the dock `name` + "Dock" ("experts", "compare"; --show-panel); false when there is none.
bool show_dock(QMainWindow& window, const QString& name);
QStringList dock_names(const QMainWindow& window); // the names show_dock takes, sorted
QDockWidget* dock_named(const QMainWindow& window, const char* object_name); // "kvDock"; null: none

} // namespace octo::ui
