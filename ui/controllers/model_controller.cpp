#include "ui/controllers/model_controller.h"

#include <QDir>
#include <QFileInfo>
#include <QLocale>
#include <QFileDialog>
#include <QMessageBox>
#include <QProgressDialog>

#include "ui/controllers/engine_bridge.h"
#include "ui/session/run_store.h"
#include "ui/support/window_services.h"

namespace octo::ui {

ModelController::ModelController(QWidget& dialogs, StatusSink& status, RunStore& store, EngineBridge& bridge,
                                 std::function<LoadChoice()> load_choice, QObject* parent)
    : QObject(parent), dialogs_(dialogs), status_(status), store_(store), bridge_(bridge), load_choice_(std::move(load_choice)) {
    connect(&store_, &RunStore::modelLoaded, this, [this] {
        if (load_progress_) load_progress_->reset();
    });
    connect(&store_, &RunStore::loadStarted, this, [this](const QString& path, quint64 bytes) {
        if (load_progress_) {
            load_progress_->setLabelText(tr("Loading %1 — needs about %2 of memory (weights, KV pool, activations)…")
                                             .arg(QFileInfo(path).fileName(), QLocale().formattedDataSize(static_cast<qint64>(bytes))));
        }
    });
    connect(&store_, &RunStore::loadProgress, this, [this](double f) {
        if (load_progress_) load_progress_->setValue(static_cast<int>(f * 100));
    });
    connect(&store_, &RunStore::loadFailed, this, [this](const QString& message, bool cancelled) {
        if (load_progress_) load_progress_->reset();
        if (!cancelled) { // not blocking: the engine's events keep flowing while it shows
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open the model"),
                                        tr("%1\n\nThe previous model stays loaded.").arg(message), QMessageBox::Ok, &dialogs_);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        status_.showError(tr("Cannot open the model: %1").arg(message), 15000);
    });
    connect(&store_, &RunStore::calibrationProgress, this, [this](int done, int total) {
        if (!calibration_progress_) return;
        calibration_progress_->setMaximum(total);
        calibration_progress_->setValue(done);
    });
    connect(&store_, &RunStore::calibrationFinished, this, [this](const QString& message, bool ok) {
        if (calibration_progress_) calibration_progress_->reset();
        status_.showError(ok ? message : tr("Calibration failed: %1").arg(message), 20000);
    });
}

void ModelController::open(const QString& path) {
    loading_path_ = path;
    if (!load_progress_) {
        load_progress_ = new QProgressDialog(&dialogs_);
        load_progress_->setWindowTitle(tr("Loading model"));
        load_progress_->setRange(0, 100);
        load_progress_->setMinimumDuration(300);
        load_progress_->setAutoClose(true);
        connect(load_progress_, &QProgressDialog::canceled, this, [this] { bridge_.cancel(); });
    }
    load_progress_->setLabelText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    load_progress_->setValue(0);
    emit loading(path);
    bridge_.loadModel(path, load_choice_());
}

void ModelController::askOpen() {
    const QString path = QFileDialog::getOpenFileName(&dialogs_, tr("Open a GGUF model"), QString(), tr("GGUF models (*.gguf);;All files (*)"));
    if (!path.isEmpty()) open(path);
}

void ModelController::reopen() {
    if (const auto& m = store_.model(); m && !m->engine) open(QString::fromStdString(m->path));
}

void ModelController::calibrate(const QString& resource_dir, CalibrationUnit unit) {
    if (!store_.model() || resource_dir.isEmpty()) {
        status_.showMessage(tr("Load a model first"), 5000);
        return;
    }
    const bool experts = unit == CalibrationUnit::Experts;
    if (experts && store_.model()->n_expert == 0) {
        status_.showMessage(tr("This model has no experts to calibrate (it is not a mixture of experts)"), 8000);
        return;
    }
    if (!calibration_progress_) {
        calibration_progress_ = new QProgressDialog(&dialogs_);
        calibration_progress_->setWindowTitle(tr("Calibrating head map"));
        calibration_progress_->setLabelText(tr("Measuring every head on the labelled probe set…"));
        calibration_progress_->setMinimumDuration(0);
        connect(calibration_progress_, &QProgressDialog::canceled, this, [this] { bridge_.cancel(); });
    }
    calibration_progress_->setWindowTitle(experts ? tr("Calibrating experts") : tr("Calibrating head map"));
    calibration_progress_->setLabelText(experts ? tr("Routing the labelled probe set through every expert…")
                                                : tr("Measuring every head on the labelled probe set…"));
    calibration_progress_->setValue(0);
    bridge_.calibrate(QDir(resource_dir).filePath(QStringLiteral("probes/probes_train.jsonl")),
                      QDir(resource_dir).filePath(QStringLiteral("probes/probes_dev.jsonl")), unit);
}

} // namespace octo::ui
