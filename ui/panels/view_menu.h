// View: the preset layouts (Inspect, Compare, Teach; Reset Layout is Inspect), Reset Linked
// Views (no focused layer, head or expert, every token axis back to its data), one entry per
// dock, and the language. A dock's entry is ticked while the dock is open; choosing it opens a
// closed dock, or one behind another tab, in front, and closes a dock that is in front.
#pragma once

#include <QMenu>

class QAction;
class QDockWidget;
class QMainWindow;

namespace octo::ui {

class RunStore;

class ViewMenu : public QMenu {
    Q_OBJECT
public:
    ViewMenu(QMainWindow& window, RunStore& store, QWidget* parent); // lists window's docks as they are now
};

// The View menu's entry for `dock`.
QAction* open_dock_action(QMainWindow& window, QDockWidget* dock, QObject* parent);
// Whether the dock is open and the front tab of its group (or alone in its place).
bool dock_in_front(const QMainWindow& window, const QDockWidget* dock);

} // namespace octo::ui
