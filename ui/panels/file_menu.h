// File: open a model (and Open Recent), open and save captures, export a bug report, the
// window as a screenshot, the plots and the run's data, Quit. Each action asks its controller.
#pragma once

#include <QMenu>

namespace octo::ui {

class RecentModelsMenu;
class Workbench;

class FileMenu : public QMenu {
    Q_OBJECT
public:
    FileMenu(Workbench& bench, QWidget& window, QWidget* parent); // `window`: what Quit closes
    RecentModelsMenu* recent() const { return recent_; }

private:
    RecentModelsMenu* recent_;
};

} // namespace octo::ui
