#include "ui/panels/recent_models_menu.h"

#include <QDir>
#include <QFileInfo>
#include <QFontMetrics>
#include <QSettings>

#include "ui/controllers/model_controller.h"
#include "ui/workbench.h"

namespace octo::ui {

namespace {

constexpr int kFolderWidthEm = 28; // a folder longer than this is shortened in its middle

QString escaped_ampersands(QString text) { return text.replace(QLatin1Char('&'), QStringLiteral("&&")); }

} // namespace

RecentModelsMenu::RecentModelsMenu(Workbench& bench, QWidget* parent) : QMenu(tr("Open &Recent"), parent), bench_(bench) {
    setToolTipsVisible(true);
    connect(this, &QMenu::aboutToShow, this, &RecentModelsMenu::refresh);
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

QString RecentModelsMenu::label(const QString& path, const QString& resource_dir) const {
    const QFileInfo file(path);
    if (!resource_dir.isEmpty()) {
        const QString inside = QDir(resource_dir).relativeFilePath(file.absoluteFilePath());
        if (!inside.startsWith(QStringLiteral("..")) && !QDir::isAbsolutePath(inside)) {
            return escaped_ampersands(tr("%1 (built-in)").arg(file.completeBaseName()));
        }
    }
    QString folder = QDir::toNativeSeparators(file.absolutePath());
    const QString home = QDir::toNativeSeparators(QDir::homePath());
    if (folder == home || folder.startsWith(home + QDir::separator())) folder = QStringLiteral("~") + folder.mid(home.size());
    const QFontMetrics metrics(font());
    folder = metrics.elidedText(folder, Qt::ElideMiddle, kFolderWidthEm * metrics.averageCharWidth());
    return escaped_ampersands(QStringLiteral("%1 — %2").arg(file.fileName(), folder));
}

void RecentModelsMenu::refresh() {
    clear();
    const QString resource_dir = bench_.resourceDir();
    for (const QString& p : QSettings().value("recentModels").toStringList()) {
        QAction* a = addAction(label(p, resource_dir), this, [this, p] { bench_.models().open(p); });
        a->setToolTip(QDir::toNativeSeparators(p));
    }
}

} // namespace octo::ui
