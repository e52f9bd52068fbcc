#include "ui/dock_layout.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>

#include <algorithm>
#include <string_view>
#include <vector>

#include "ui/support/retranslate.h"

namespace octo::ui {

namespace {

struct DockRow {
    const char* name;
    const char* title; // translated when shown
    Qt::DockWidgetArea area;
    QWidget* DockPanels::*panel;
};

constexpr Qt::DockWidgetArea kLeft = Qt::LeftDockWidgetArea, kRight = Qt::RightDockWidgetArea, kBottom = Qt::BottomDockWidgetArea;

// The docks in the order they are made (the View menu lists them so).
const DockRow kDocks[] = {
    {"promptDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Prompt"), kLeft, &DockPanels::prompt},
    {"conversationDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Conversation"), kLeft, &DockPanels::conversation},
    {"switchesDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Subsystems"), kLeft, &DockPanels::switches},
    {"historyDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Run history"), kLeft, &DockPanels::history},
    {"routerDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Router"), kLeft, &DockPanels::router},
    {"heatmapDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Layers × heads"), kRight, &DockPanels::heatmap},
    {"expertsDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Experts"), kRight, &DockPanels::experts},
    {"attentionDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Attention"), kRight, &DockPanels::attention},
    {"lensDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Logit lens"), kRight, &DockPanels::lens},
    {"stripDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Tokens × subsystems"), kBottom, &DockPanels::strip},
    {"kvDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "KV pool"), kBottom, &DockPanels::kv},
    {"latencyDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Latency"), kBottom, &DockPanels::latency},
    {"advisorDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Advisor"), kRight, &DockPanels::advisor},
    {"compareDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "A/B compare"), kBottom, &DockPanels::compare},
    {"logDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Log"), kBottom, &DockPanels::log},
    {"claimsDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Claims"), kBottom, &DockPanels::claims},
    {"presenterDock", QT_TRANSLATE_NOOP("octo::ui::DockLayout", "Presenter"), kRight, &DockPanels::presenter},
};

// The tab groups at first start: the first dock in front, the others behind it in this order.
const std::pair<const char*, std::vector<std::string_view>> kGroups[] = {
    {"promptDock", {"conversationDock"}},
    {"switchesDock", {"historyDock", "routerDock"}},
    {"heatmapDock", {"attentionDock", "lensDock", "expertsDock", "advisorDock", "presenterDock"}},
    {"kvDock", {"latencyDock", "compareDock", "logDock", "claimsDock"}},
};

} // namespace

QDockWidget* dock_named(const QMainWindow& w, const char* name) { return w.findChild<QDockWidget*>(QString::fromLatin1(name)); }

void arrange_docks(QMainWindow& w) {
    for (QDockWidget* dock : w.findChildren<QDockWidget*>()) dock->setFloating(false);
    for (const DockRow& row : kDocks) { // the docks not tabbed behind another
        const auto behind = [&row](const auto& group) { return std::ranges::find(group.second, row.name) != group.second.end(); };
        if (std::any_of(std::begin(kGroups), std::end(kGroups), behind)) continue;
        QDockWidget* d = dock_named(w, row.name);
        w.addDockWidget(row.area, d);
        d->show();
    }
    for (const auto& [first, others] : kGroups) {
        QDockWidget* f = dock_named(w, first);
        for (const std::string_view other : others) {
            QDockWidget* o = dock_named(w, other.data());
            w.tabifyDockWidget(f, o);
            o->setVisible(other != "logDock"); // View → Log shows it as one more tab
        }
        f->raise();
    }
}

void lay_out_docks(QMainWindow& w, const DockPanels& p) {
    // The left column (prompt, switches) runs the window's full height: its Run button and every
    // switch stay in view on a 768-pixel screen; the bottom plots sit right of it.
    w.setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);
    for (const DockRow& row : kDocks) {
        auto* dock = new QDockWidget(&w);
        dock->setObjectName(QString::fromLatin1(row.name));
        auto* scroll = new QScrollArea(dock); // the panel keeps its minimum size and scrolls in a small dock
        scroll->setObjectName(QString::fromLatin1(row.name) + QStringLiteral("Scroll"));
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidgetResizable(true);
        scroll->setWidget(p.*row.panel);
        dock->setWidget(scroll);
        w.addDockWidget(row.area, dock);
    }
    on_language_change(&w, [&w] {
        for (const DockRow& row : kDocks) dock_named(w, row.name)->setWindowTitle(QCoreApplication::translate("octo::ui::DockLayout", row.title));
    });
    arrange_docks(w);
}

FirstWindow first_window_geometry(const QRect& available, QSize preferred, int frame) {
    const QSize room(available.width(), std::max(0, available.height() - frame));
    const QSize size = preferred.boundedTo(room);
    const QPoint corner(available.x() + (available.width() - size.width()) / 2,
                        available.y() + frame + (room.height() - size.height()) / 2);
    return FirstWindow{QRect(corner, size), size != preferred};
}

void size_docks_for_first_start(QMainWindow& w) {
    const auto dock = [&w](const char* name) { return dock_named(w, name); };
    const int width = w.width();
    w.resizeDocks({dock("promptDock"), dock("heatmapDock")}, {std::min(400, width * 3 / 10), std::min(460, width * 3 / 10)}, Qt::Horizontal);
    w.resizeDocks({dock("stripDock"), dock("kvDock")}, {width * 4 / 10, width * 6 / 10}, Qt::Horizontal);
    w.resizeDocks({dock("kvDock")}, {std::max(250, w.height() * 36 / 100)}, Qt::Vertical);
    w.resizeDocks({dock("promptDock")}, {std::max(340, w.height() / 2)}, Qt::Vertical);
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
} // namespace octo::ui
