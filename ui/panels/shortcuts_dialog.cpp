#include "ui/panels/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

namespace octo::ui {

namespace {

// "&Open Model…" → "Open Model" ("&&" is a literal ampersand).
QString plain(QString text) {
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
    if (text.endsWith(QStringLiteral("…"))) text.chop(1);
    if (text.endsWith(QStringLiteral("..."))) text.chop(3);
    return text.trimmed();
}

QString keys_of(const QAction& action) {
    QStringList keys;
    for (const QKeySequence& k : action.shortcuts()) keys << k.toString(QKeySequence::NativeText);
    return keys.join(QStringLiteral(", "));
}

void collect_menu(const QMenu& menu, const QString& where, QList<ShortcutEntry>& out, QSet<const QAction*>& seen) {
    for (QAction* a : menu.actions()) {
        if (a->isSeparator()) continue;
        if (a->menu()) {
            collect_menu(*a->menu(), where + QStringLiteral(" › ") + plain(a->menu()->title()), out, seen);
        } else if (!a->shortcuts().isEmpty() && !seen.contains(a)) {
            seen.insert(a);
            out.append({keys_of(*a), plain(a->text()), where});
        }
    }
}

} // namespace

QList<ShortcutEntry> collect_shortcuts(const QWidget& window) {
    QList<ShortcutEntry> out;
    QSet<const QAction*> seen;
    for (const QMenuBar* bar : window.findChildren<QMenuBar*>(Qt::FindDirectChildrenOnly)) {
        for (QAction* top : bar->actions()) {
            if (top->menu()) collect_menu(*top->menu(), plain(top->menu()->title()), out, seen);
        }
    }
    const QString anywhere = ShortcutsDialog::tr("Anywhere in the window");
    for (QAction* a : window.actions()) {
        if (!a->shortcuts().isEmpty() && !seen.contains(a)) {
            seen.insert(a);
            out.append({keys_of(*a), plain(a->text()), anywhere});
        }
    }
    const auto native = [](const char* keys) { return QKeySequence(QString::fromLatin1(keys)).toString(QKeySequence::NativeText); };
    out.append({native("Ctrl+Tab"), ShortcutsDialog::tr("Type a tab (Tab moves to the next field)"), ShortcutsDialog::tr("Prompt editor")});
    out.append({native("Left") + QStringLiteral(", ") + native("Right"), ShortcutsDialog::tr("Select the previous or next token"),
                ShortcutsDialog::tr("Token stream")});
    out.append({native("Left") + QStringLiteral(", ") + native("Right") + QStringLiteral(", ") + native("Up") + QStringLiteral(", ") +
                    native("Down") + QStringLiteral(", ") + native("Home") + QStringLiteral(", ") + native("End"),
                ShortcutsDialog::tr("Move the cell cursor and show its readout"),
                ShortcutsDialog::tr("Heatmaps (Layers × heads, Tokens × subsystems, Attention)")});
    out.append({QStringLiteral("R"), ShortcutsDialog::tr("Reset the zoom and pan"), ShortcutsDialog::tr("Any plot")});
    const QString conversation = ShortcutsDialog::tr("Conversation");
    out.append({native("Ctrl+Return"), ShortcutsDialog::tr("Send the next turn (or the edited turn, as a branch)"), conversation});
    out.append({native("Esc"), ShortcutsDialog::tr("Leave the edit of a turn"), conversation});
    out.append({native("Up") + QStringLiteral(", ") + native("Down"), ShortcutsDialog::tr("Select the previous or next turn"), conversation});
    out.append({QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText), ShortcutsDialog::tr("Undo the note's last edit"),
                ShortcutsDialog::tr("Presenter")});
    out.append({QKeySequence(QKeySequence::Redo).toString(QKeySequence::NativeText), ShortcutsDialog::tr("Redo the note's edit"),
                ShortcutsDialog::tr("Presenter")});
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QList<ShortcutEntry>& entries, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Keyboard Shortcuts"));
    setObjectName(QStringLiteral("shortcutsDialog"));
    table_ = new QTableWidget(static_cast<int>(entries.size()), 3, this);
    table_->setObjectName(QStringLiteral("shortcutsTable"));
    table_->setAccessibleName(tr("Keyboard shortcuts"));
    table_->setHorizontalHeaderLabels({tr("Keys"), tr("Action"), tr("Where")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    for (int r = 0; r < entries.size(); ++r) {
        table_->setItem(r, 0, new QTableWidgetItem(entries[r].keys));
        table_->setItem(r, 1, new QTableWidgetItem(entries[r].action));
        table_->setItem(r, 2, new QTableWidgetItem(entries[r].where));
    }
    // Keys as wide as they need, the action and the place share the rest and wrap: no sideways
    // scrolling, so every column's header stays in view (a long "Where" once pushed it out).
    QHeaderView* header = table_->horizontalHeader();
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    header->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header->setSectionResizeMode(1, QHeaderView::Stretch);
    header->setSectionResizeMode(2, QHeaderView::Stretch);
    table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table_->setWordWrap(true);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_, 1);
    layout->addWidget(buttons);
    resize(640, 620);
}

void show_shortcuts(QWidget& window) {
    auto* dialog = new ShortcutsDialog(collect_shortcuts(window), &window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

} // namespace octo::ui
