// The workbench's menu bar: File, Run, Model, View and Help, one class each (ui/panels/*_menu.h),
// built in the UI's language and built again, whole, when it changes — their state lives in
// QSettings and in the Workbench's controllers they call, so nothing is lost.
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

#include "engine/host/load_choice.h"

class QMainWindow;
class QMenu;

namespace octo::ui {

class ModelMenu;
class Workbench;

class MainMenus : public QObject {
    Q_OBJECT
public:
    MainMenus(QMainWindow& window, Workbench& bench);

    LoadChoice loadChoice() const; // Model → Backend's and KV Cache's choices

private:
    void build();

    QMainWindow& window_;
    Workbench& bench_;
    QList<QPointer<QMenu>> menus_;
    ModelMenu* model_ = nullptr;
};

} // namespace octo::ui
