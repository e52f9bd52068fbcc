#include "ui/dock_layout.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>

namespace octo::ui {

namespace {

QDockWidget* add_dock(QMainWindow& window, QWidget* widget, const QString& title, const char* name, Qt::DockWidgetArea area) {
    auto* dock = new QDockWidget(title, &window);
    dock->setObjectName(QString::fromLatin1(name));
    dock->setWidget(widget);
    window.addDockWidget(area, dock);
    return dock;
}

} // namespace

QDockWidget* lay_out_docks(QMainWindow& w, const DockPanels& p) {
    add_dock(w, p.prompt, QCoreApplication::translate("octo::ui::DockLayout", "Prompt"), "promptDock", Qt::LeftDockWidgetArea);
    QDockWidget* switches = add_dock(w, p.switches, QCoreApplication::translate("octo::ui::DockLayout", "Subsystems"), "switchesDock", Qt::LeftDockWidgetArea);
    QDockWidget* history = add_dock(w, p.history, QCoreApplication::translate("octo::ui::DockLayout", "Run history"), "historyDock", Qt::LeftDockWidgetArea);
    QDockWidget* router = add_dock(w, p.router, QCoreApplication::translate("octo::ui::DockLayout", "Router"), "routerDock", Qt::LeftDockWidgetArea);
    QDockWidget* heat = add_dock(w, p.heatmap, QCoreApplication::translate("octo::ui::DockLayout", "Layers × heads"), "heatmapDock", Qt::RightDockWidgetArea);
    QDockWidget* experts = add_dock(w, p.experts, QCoreApplication::translate("octo::ui::DockLayout", "Experts"), "expertsDock", Qt::RightDockWidgetArea);
    QDockWidget* att = add_dock(w, p.attention, QCoreApplication::translate("octo::ui::DockLayout", "Attention"), "attentionDock", Qt::RightDockWidgetArea);
    add_dock(w, p.strip, QCoreApplication::translate("octo::ui::DockLayout", "Tokens × subsystems"), "stripDock", Qt::BottomDockWidgetArea);
    QDockWidget* kv = add_dock(w, p.kv, QCoreApplication::translate("octo::ui::DockLayout", "KV pool"), "kvDock", Qt::BottomDockWidgetArea);
    QDockWidget* lat = add_dock(w, p.latency, QCoreApplication::translate("octo::ui::DockLayout", "Latency"), "latencyDock", Qt::BottomDockWidgetArea);
    QDockWidget* advice = add_dock(w, p.advisor, QCoreApplication::translate("octo::ui::DockLayout", "Advisor"), "advisorDock", Qt::RightDockWidgetArea);
    QDockWidget* ab = add_dock(w, p.compare, QCoreApplication::translate("octo::ui::DockLayout", "A/B compare"), "compareDock", Qt::BottomDockWidgetArea);
    QDockWidget* log = add_dock(w, p.log, QCoreApplication::translate("octo::ui::DockLayout", "Log"), "logDock", Qt::BottomDockWidgetArea);
    QDockWidget* claims = add_dock(w, p.claims, QCoreApplication::translate("octo::ui::DockLayout", "Claims"), "claimsDock", Qt::BottomDockWidgetArea);
    QDockWidget* presenter = add_dock(w, p.presenter, QCoreApplication::translate("octo::ui::DockLayout", "Presenter"), "presenterDock", Qt::RightDockWidgetArea);
    w.tabifyDockWidget(switches, history);
    w.tabifyDockWidget(switches, router);
    switches->raise();
    w.tabifyDockWidget(heat, att);
    w.tabifyDockWidget(heat, experts);
    w.tabifyDockWidget(kv, lat);
    w.tabifyDockWidget(kv, ab);
    w.tabifyDockWidget(kv, log);
    w.tabifyDockWidget(kv, claims);
    log->hide(); // View → Log shows it as one more tab
    kv->raise();
    w.tabifyDockWidget(heat, advice);
    w.tabifyDockWidget(heat, presenter);
    heat->raise();
    return ab;
}

void size_docks_for_first_start(QMainWindow& w) {
    const auto dock = [&w](const char* name) { return w.findChild<QDockWidget*>(QString::fromLatin1(name)); };
    w.resizeDocks({dock("promptDock"), dock("heatmapDock")}, {390, 440}, Qt::Horizontal);
    w.resizeDocks({dock("stripDock"), dock("kvDock")}, {560, 720}, Qt::Horizontal);
    w.resizeDocks({dock("kvDock")}, {270}, Qt::Vertical);
}

} // namespace octo::ui
