#include "ui/layout_presets.h"

#include <QDockWidget>
#include <QMainWindow>

#include "ui/dock_layout.h"

namespace octo::ui {

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
        for (QDockWidget* other : w.tabifiedDockWidgets(d)) {
            if (!other->isHidden()) other->raise();
        }
        d->raise();
    };
    raise("promptDock"); // the first start's front tabs, then the preset's
    raise("switchesDock");
    raise("heatmapDock");
    raise("kvDock");
    switch (preset) {
    case LayoutPreset::Inspect: break;
    case LayoutPreset::Compare:
        raise("historyDock");
        raise("advisorDock");
        raise("compareDock");
        // A/B compare takes most of the bottom: three quarters of its width, 55 % of the height.
        w.resizeDocks({dock_named(w, "stripDock"), dock_named(w, "compareDock")}, {w.width() / 4, w.width() * 3 / 4}, Qt::Horizontal);
        w.resizeDocks({dock_named(w, "compareDock")}, {w.height() * 55 / 100}, Qt::Vertical);
        break;
    case LayoutPreset::Teach: // the presenter's notes and readout, the token stream large
        raise("presenterDock");
        raise("latencyDock");
        w.resizeDocks({dock_named(w, "promptDock"), dock_named(w, "presenterDock")}, {w.width() * 26 / 100, w.width() * 2 / 5}, Qt::Horizontal);
        break;
    }
}

} // namespace octo::ui
