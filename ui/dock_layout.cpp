#include "ui/dock_layout.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QAction>
#include <QtGlobal>

#include <algorithm>
#include <string_view>
#include <vector>
#include <QMainWindow>
#include <QScrollArea>
#include <QTabBar>

#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {

QDockWidget* add_dock(QMainWindow& window, QWidget* widget, const char* name, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(&window);
    dock->setObjectName(QString::fromLatin1(name));
    auto* scroll = new QScrollArea(dock); // the panel keeps its minimum size and scrolls in a small dock
    scroll->setObjectName(QString::fromLatin1(name) + QStringLiteral("Scroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(widget);
    dock->setWidget(scroll);
    window.addDockWidget(area, dock);
    return dock;
}

QDockWidget* dock_named(QMainWindow& w, const char* name) { return w.findChild<QDockWidget*>(QString::fromLatin1(name)); }

// Each dock's title, set again when the UI's language changes.
const std::pair<const char*, const char*> kDockTitles[] = {
    {"promptDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Prompt")},
    {"switchesDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Subsystems")},
    {"historyDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Run history")},
    {"routerDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Router")},
    {"heatmapDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Layers × heads")},
    {"expertsDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Experts")},
    {"attentionDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Attention")},
    {"stripDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Tokens × subsystems")},
    {"kvDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "KV pool")},
    {"latencyDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Latency")},
    {"advisorDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Advisor")},
    {"compareDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "A/B compare")},
    {"logDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Log")},
    {"claimsDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Claims")},
    {"presenterDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Presenter")},
};

void retranslate_docks(QMainWindow& w) {
    for (const auto& [name, title] : kDockTitles) {
        if (QDockWidget* d = dock_named(w, name)) d->setWindowTitle(QCoreApplication::translate("octo::ui::DockLayout", title));
    }
}

} // namespace

// Every dock in its area and tab group as at first start (the log closed), the groups' first tabs in front.
void arrange_docks(QMainWindow& w) {
    static const std::pair<const char*, Qt::DockWidgetArea> places[] = {
        {"promptDock", Qt::LeftDockWidgetArea},    {"switchesDock", Qt::LeftDockWidgetArea}, {"heatmapDock", Qt::RightDockWidgetArea},
        {"stripDock", Qt::BottomDockWidgetArea},   {"kvDock", Qt::BottomDockWidgetArea},
    };
    static const std::pair<const char*, std::vector<const char*>> groups[] = {
        {"switchesDock", {"historyDock", "routerDock"}},
        {"heatmapDock", {"attentionDock", "expertsDock", "advisorDock", "presenterDock"}},
        {"kvDock", {"latencyDock", "compareDock", "logDock", "claimsDock"}},
    };
    for (QDockWidget* dock : w.findChildren<QDockWidget*>()) dock->setFloating(false);
    for (const auto& [name, area] : places) {
        QDockWidget* d = dock_named(w, name);
        w.addDockWidget(area, d);
        d->show();
    }
    for (const auto& [first, others] : groups) {
        QDockWidget* f = dock_named(w, first);
        for (const char* other : others) {
            QDockWidget* o = dock_named(w, other);
            w.tabifyDockWidget(f, o);
            o->setVisible(other != std::string_view("logDock")); // View → Log shows it as one more tab
        }
        f->raise();
    }
}

void lay_out_docks(QMainWindow& w, const DockPanels& p) {
    // The left column (prompt, switches) runs the window's full height: its Run button and every
    // switch stay in view on a 768-pixel screen; the bottom plots sit right of it.
    w.setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    add_dock(w, p.prompt, "promptDock", Qt::LeftDockWidgetArea);
    add_dock(w, p.switches, "switchesDock", Qt::LeftDockWidgetArea);
    add_dock(w, p.history, "historyDock", Qt::LeftDockWidgetArea);
    add_dock(w, p.router, "routerDock", Qt::LeftDockWidgetArea);
    add_dock(w, p.heatmap, "heatmapDock", Qt::RightDockWidgetArea);
    add_dock(w, p.experts, "expertsDock", Qt::RightDockWidgetArea);
    add_dock(w, p.attention, "attentionDock", Qt::RightDockWidgetArea);
    add_dock(w, p.strip, "stripDock", Qt::BottomDockWidgetArea);
    add_dock(w, p.kv, "kvDock", Qt::BottomDockWidgetArea);
    add_dock(w, p.latency, "latencyDock", Qt::BottomDockWidgetArea);
    add_dock(w, p.advisor, "advisorDock", Qt::RightDockWidgetArea);
    add_dock(w, p.compare, "compareDock", Qt::BottomDockWidgetArea);
    add_dock(w, p.log, "logDock", Qt::BottomDockWidgetArea);
    add_dock(w, p.claims, "claimsDock", Qt::BottomDockWidgetArea);
    add_dock(w, p.presenter, "presenterDock", Qt::RightDockWidgetArea);
    on_language_change(&w, [&w] { retranslate_docks(w); });
    arrange_docks(w);
}

bool show_dock(QMainWindow& w, const QString& name) {
    auto* dock = w.findChild<QDockWidget*>(name + QStringLiteral("Dock"));
    if (!dock) return false;
    dock->show();
    dock->raise();
    return true;
}

QStringList dock_names(const QMainWindow& w) {
    QStringList names;
    for (const QDockWidget* dock : w.findChildren<QDockWidget*>()) {
        if (QString name = dock->objectName(); name.endsWith(QStringLiteral("Dock"))) names.push_back(name.chopped(4));
    }
    names.sort();
    return names;
}

void size_docks_for_first_start(QMainWindow& w) {
    const auto dock = [&w](const char* name) { return w.findChild<QDockWidget*>(QString::fromLatin1(name)); };
    const int width = w.width();
    w.resizeDocks({dock("promptDock"), dock("heatmapDock")}, {std::min(400, width * 3 / 10), std::min(460, width * 3 / 10)}, Qt::Horizontal);
    w.resizeDocks({dock("stripDock"), dock("kvDock")}, {width * 4 / 10, width * 6 / 10}, Qt::Horizontal);
    w.resizeDocks({dock("kvDock")}, {std::max(250, w.height() * 36 / 100)}, Qt::Vertical);
    w.resizeDocks({dock("promptDock")}, {std::max(340, w.height() / 2)}, Qt::Vertical);
}

std::optional<LayoutPreset> parse_layout_preset(const QString& name) {
    if (name == QLatin1String("inspect")) return LayoutPreset::Inspect;
    if (name == QLatin1String("compare")) return LayoutPreset::Compare;
    if (name == QLatin1String("teach")) return LayoutPreset::Teach;
    return std::nullopt;
}

void apply_layout_preset(QMainWindow& w, LayoutPreset preset) {
    arrange_docks(w);
    size_docks_for_first_start(w);
    const auto raise = [&w](const char* name) { // through every tab of its group, so each tab switch really happens
        QDockWidget* d = dock_named(w, name);
        if (!d) return;
        for (QDockWidget* other : w.tabifiedDockWidgets(d)) {
            if (!other->isHidden()) other->raise();
        }
        d->raise();
    };
    raise("switchesDock"); // the first start's front tabs, then the preset's
    raise("heatmapDock");
    raise("kvDock");
    switch (preset) {
    case LayoutPreset::Inspect: break;
    case LayoutPreset::Compare:
        raise("historyDock");
        raise("advisorDock");
        raise("compareDock");
        w.resizeDocks({dock_named(w, "compareDock")}, {w.height() / 2}, Qt::Vertical);
        break;
    case LayoutPreset::Teach: // the presenter's notes and readout, the token stream large
        raise("presenterDock");
        raise("latencyDock");
        w.resizeDocks({dock_named(w, "promptDock"), dock_named(w, "presenterDock")}, {w.width() / 4, w.width() / 4}, Qt::Horizontal);
        break;
    }
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
