// Where the workbench's panels sit: every panel in a named dock (the names are what QSettings
// restores a user's own layout by), which docks share a tab, the sizes of a first start, and the
// preset layouts (View → Layout). Each panel sits in a scroll area inside its dock, so the window
// can shrink to a small laptop screen (≤ 1024 × 700) while every plot keeps its minimum height
// (Plot: 140 px) and scrolls instead of being crushed.
#pragma once

#include <QString>
#include <QStringList>

#include <optional>

class QAction;
class QObject;
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

// Puts each panel in its dock and tabs them (the log starts hidden: View → Log); the docks' titles
// follow the UI's language.
void lay_out_docks(QMainWindow& window, const DockPanels& panels);
// Shows and raises the dock `name` + "Dock" ("experts", "compare"; --show-panel); false when there is none.
bool show_dock(QMainWindow& window, const QString& name);
QStringList dock_names(const QMainWindow& window); // the names show_dock takes, sorted

// The dock sizes of a first start (no saved layout), once the window has its size.
void size_docks_for_first_start(QMainWindow& window);

// The preset layouts: Inspect (the first start's: layers × heads, tokens × subsystems, KV pool),
// Compare (A/B compare and the run history in front, compare given the height) and Teach
// (the presenter in front and wide, latency below).
enum class LayoutPreset { Inspect, Compare, Teach };
std::optional<LayoutPreset> parse_layout_preset(const QString& name); // "inspect", "compare", "teach"
// Every dock back in its place, tab group and visibility as at first start (View → Reset Layout),
// then the preset's docks raised and sized.
void apply_layout_preset(QMainWindow& window, LayoutPreset preset);

// The View menu's entry for a dock: ticked while the dock is open; choosing it opens a closed
// dock, or one behind another tab, in front, and closes a dock that is in front.
QAction* open_dock_action(QMainWindow& window, QDockWidget* dock, QObject* parent);
// Whether the dock is open and the front tab of its group (or alone in its place).
bool dock_in_front(const QMainWindow& window, const QDockWidget* dock);

} // namespace octo::ui
