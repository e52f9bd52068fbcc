// The workbench's menu bar — File, Run, Model, View, Help — and the recent-models list. Each
// action calls the part of the Workbench that owns the work (RunController for runs,
// CaptureController for captures, ModelController for models, ExportController for exports);
// the menus hold no state of their own beyond the recent list, which lives in QSettings
// ("recentModels", "lastModel").
#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QMainWindow;
class QMenu;

namespace octo::ui {

class BackendMenu;
class Workbench;

class MainMenus : public QObject {
    Q_OBJECT
public:
    // Builds the menus into window's menu bar, and again in the new language when the UI's
    // language changes; the View menu lists the window's docks as they are now.
    MainMenus(QMainWindow& window, Workbench& bench);

    BackendMenu* backendMenu() const { return backend_; } // the current build's
    // Puts `path` first in Open Recent (at most 8) and remembers it as the last model (every
    // model file loaded, not a server's).
    void rememberRecent(const QString& path);
    void showExamples(); // Help → Examples… (also the first-start hint's button)

private:
    void build();
    QMenu* addMenu(const QString& title); // a menu of the menu bar, deleted by the next build
    void buildFile();
    void buildRun();
    void buildModel();
    void buildView();
    void buildHelp();
    void showRecent();

    QMainWindow& window_;
    Workbench& bench_;
    QList<QPointer<QMenu>> menus_;
    QMenu* recent_ = nullptr;
    BackendMenu* backend_ = nullptr;
};

} // namespace octo::ui
