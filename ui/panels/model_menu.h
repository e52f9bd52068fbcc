// Model: Connect to Server…, Calibrate Head Map… and Calibrate Experts…, Measure the Article's
// Claims, and the Backend submenu (backend_menu.h; a new choice reopens the loaded model file).
#pragma once

#include <QMenu>

namespace octo::ui {

class BackendMenu;
class Workbench;

class ModelMenu : public QMenu {
    Q_OBJECT
public:
    ModelMenu(Workbench& bench, QWidget* parent);
    BackendMenu* backend() const { return backend_; }

private:
    BackendMenu* backend_;
};

} // namespace octo::ui
