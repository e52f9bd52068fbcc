#include "ui/panels/recent_models_menu.h"

#include <QSettings>

#include "ui/controllers/model_controller.h"

namespace octo::ui {

RecentModelsMenu::RecentModelsMenu(ModelController& models, QWidget* parent) : QMenu(tr("Open &Recent"), parent), models_(models) {
    refresh();
}

void RecentModelsMenu::remember(const QString& path) {
    QSettings settings;
    QStringList recent = settings.value("recentModels").toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMost) recent.removeLast();
    settings.setValue("recentModels", recent);
    settings.setValue("lastModel", path);
}

void RecentModelsMenu::refresh() {
    clear();
    for (const QString& p : QSettings().value("recentModels").toStringList()) addAction(p, this, [this, p] { models_.open(p); });
}

} // namespace octo::ui
