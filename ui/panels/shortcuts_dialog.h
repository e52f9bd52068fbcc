// Help → Keyboard Shortcuts…: every key the workbench answers to, in a table. It is read from the
// window's QActions when the dialog opens — each menu's actions with a shortcut (submenus
// included), then the window's own actions (the timeline's steps) — so it cannot go stale; the
// few keys that are no action (Esc in the prompt editor, ←/→ in the token stream, a note's
// undo/redo in the presenter) are listed after them.
#pragma once

#include <QDialog>
#include <QList>
#include <QString>

class QTableWidget;
class QWidget;

namespace octo::ui {

struct ShortcutEntry {
    QString keys;   // "Ctrl+Shift+O", several joined by ", " (NativeText)
    QString action; // the action's text without access keys or a trailing "…"
    QString where;  // the menu path ("File", "Model › Backend"), or where the key works
};

// The menus of `window`'s menu bar, then `window`'s own actions.
QList<ShortcutEntry> collect_shortcuts(const QWidget& window);

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent = nullptr);
    QTableWidget* table() const { return table_; }

private:
    QTableWidget* table_;
};

// Opens the dialog for `window` (non-blocking; deletes itself when closed).
void show_shortcuts(QWidget& window);

} // namespace octo::ui
