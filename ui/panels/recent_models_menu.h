// File → Open Recent: the last 8 model files loaded, newest first; choosing one opens it. The
// list lives in QSettings ("recentModels", and "lastModel", which the next start opens).
#pragma once

#include <QMenu>

namespace octo::ui {

class ModelController;

class RecentModelsMenu : public QMenu {
    Q_OBJECT
public:
    static constexpr int kMost = 8;

    RecentModelsMenu(ModelController& models, QWidget* parent);
    // Puts `path` first (at most kMost) and remembers it as the last model.
    static void remember(const QString& path);
    void refresh(); // the list as QSettings has it now

private:
    ModelController& models_;
};

} // namespace octo::ui
