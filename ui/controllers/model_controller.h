// Opening models and calibrating their head maps in the workbench: the engine does the work;
// this shows it — a progress dialog that can cancel (the load's memory estimate in its label),
// and a non-blocking warning when a load fails (the previous model stays loaded).
#pragma once

#include <QObject>
#include <QString>

#include <functional>

#include "engine/host/load_choice.h"
#include "engine/router/head_calibration.h"

class QProgressDialog;
class QWidget;

namespace octo::ui {

class EngineBridge;
class RunStore;
class StatusSink;

class ModelController : public QObject {
    Q_OBJECT
public:
    // `load_choice` says how a load opens the model (Model → Backend and KV Cache); `dialogs`
    // parents the progress and error dialogs.
    ModelController(QWidget& dialogs, StatusSink& status, RunStore& store, EngineBridge& bridge,
                    std::function<LoadChoice()> load_choice, QObject* parent = nullptr);

    void open(const QString& path);
    void askOpen(); // File → Open Model…: a file dialog, then open
    // Opens the loaded model's file again (Model → Backend changed: the choice applies on load);
    // a server's model stays where it runs.
    void reopen();
    // Calibrates the loaded model's head map — or a mixture of experts' expert map — on the
    // resource folder's probe set.
    void calibrate(const QString& resource_dir, CalibrationUnit unit = CalibrationUnit::Heads);
    // The model being loaded, or the last one asked for (what the autosave records before it loads).
    const QString& loadingPath() const { return loading_path_; }

signals:
    void loading(const QString& path); // a load was asked for

private:
    QWidget& dialogs_;
    StatusSink& status_;
    RunStore& store_;
    EngineBridge& bridge_;
    std::function<LoadChoice()> load_choice_;
    QProgressDialog* load_progress_ = nullptr;
    QProgressDialog* calibration_progress_ = nullptr;
    QString loading_path_;
};

} // namespace octo::ui
