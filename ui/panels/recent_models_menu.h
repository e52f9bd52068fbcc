// File → Open Recent: the last 8 model files loaded, newest first; choosing one opens it. The
// list lives in QSettings ("recentModels", and "lastModel", which the next start opens). Each
// entry shows the file's name and its folder (home as ~, long folders shortened in the middle),
// the built-in model as "octet (built-in)" rather than its install or build-tree path; the whole
// path is the entry's tooltip.
#pragma once

#include <QMenu>

namespace octo::ui {

class Workbench;

class RecentModelsMenu : public QMenu {
    Q_OBJECT
public:
    static constexpr int kMost = 8;

    RecentModelsMenu(Workbench& bench, QWidget* parent);
    // Puts `path` first (at most kMost) and remembers it as the last model.
    static void remember(const QString& path);
    void refresh(); // the list as QSettings has it now (also each time the menu opens)
    // What the entry of `path` reads: built-in models (files under `resource_dir`) by name.
    QString label(const QString& path, const QString& resource_dir) const;

private:
    Workbench& bench_;
};

} // namespace octo::ui
