#include "ui/panels/view_menu.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QTabBar>

#include "ui/layout_presets.h"
#include "ui/panels/language_menu.h"
#include "ui/session/run_store.h"

namespace octo::ui {

ViewMenu::ViewMenu(QMainWindow& window, RunStore& store, QWidget* parent) : QMenu(tr("&View"), parent) {
    QMenu* layouts = addMenu(tr("La&yout"));
    const auto layout = [&window](LayoutPreset preset) { return [&window, preset] { apply_layout_preset(window, preset); }; };
    layouts->addAction(tr("&Inspect"), QKeySequence(tr("Ctrl+Alt+1")), this, layout(LayoutPreset::Inspect));
    layouts->addAction(tr("&Compare"), QKeySequence(tr("Ctrl+Alt+2")), this, layout(LayoutPreset::Compare));
    layouts->addAction(tr("&Teach"), QKeySequence(tr("Ctrl+Alt+3")), this, layout(LayoutPreset::Teach));
    addAction(tr("&Reset Layout"), this, layout(LayoutPreset::Inspect));
    addAction(tr("Reset Lin&ked Views"), QKeySequence(tr("Ctrl+Alt+0")), &store, &RunStore::reset_links);
    addSeparator();
    for (QDockWidget* dock : window.findChildren<QDockWidget*>()) addAction(open_dock_action(window, dock, this));
    addSeparator();
    addMenu(new LanguageMenu(this));
}

bool dock_in_front(const QMainWindow& w, const QDockWidget* dock) {
    if (dock->isHidden()) return false;
    if (w.tabifiedDockWidgets(const_cast<QDockWidget*>(dock)).isEmpty()) return true;
    for (const QTabBar* bar : w.findChildren<QTabBar*>()) { // the group's tab bar: its current tab
        if (bar->isVisible() && bar->currentIndex() >= 0 && bar->tabText(bar->currentIndex()) == dock->windowTitle()) return true;
    }
    return false;
}

QAction* open_dock_action(QMainWindow& window, QDockWidget* dock, QObject* parent) {
    auto* action = new QAction(dock->windowTitle(), parent);
    action->setCheckable(true);
    action->setChecked(dock->toggleViewAction()->isChecked());
    QObject::connect(dock->toggleViewAction(), &QAction::toggled, action, &QAction::setChecked);
    QObject::connect(dock, &QDockWidget::windowTitleChanged, action, &QAction::setText);
    QObject::connect(action, &QAction::triggered, dock, [&window, dock, action] {
        if (dock_in_front(window, dock)) { // in front: the menu closes it
            dock->hide();
        } else { // closed, or behind another tab: open it in front
            dock->show();
            dock->raise();
        }
        action->setChecked(!dock->isHidden());
    });
    return action;
}

} // namespace octo::ui
