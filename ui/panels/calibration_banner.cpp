#include "ui/panels/calibration_banner.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

#include "ui/session/run_store.h"
#include "ui/support/note_frame.h"
#include "ui/support/retranslate.h"
#include "ui/support/subsystem_palette.h"

namespace octo::ui {

CalibrationBanner::CalibrationBanner(RunStore& store, std::function<void()> calibrate, QWidget* parent)
    : QFrame(parent), store_(store) {
    setObjectName(QStringLiteral("calibrationBanner"));
    style_as_note(*this);
    text_ = new_note_text(*this, QStringLiteral("calibrationBannerText"));
    auto* button = calibrate_ = new QPushButton(this);
    button->setObjectName(QStringLiteral("calibrationBannerCalibrate"));
    connect(button, &QPushButton::clicked, this, [calibrate = std::move(calibrate)] {
        if (calibrate) calibrate();
    });
    auto* close = new_note_close(*this, QStringLiteral("calibrationBannerClose"));
    connect(close, &QToolButton::clicked, this, [this] {
        closed_ = true;
        update_for_model();
    });
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 4, 4, 4);
    layout->addWidget(text_, 1);
    layout->addWidget(button, 0, Qt::AlignBottom);
    layout->addWidget(close, 0, Qt::AlignTop);
    connect(&store_, &RunStore::modelLoaded, this, [this] {
        closed_ = false;
        update_for_model();
    });
    connect(&store_, &RunStore::calibrationFinished, this, &CalibrationBanner::update_for_model);
    on_language_change(this, [this, button, close] {
        button->setText(tr("Cal&ibrate…"));
        button->setToolTip(tr("Model → Calibrate Head Map…: run the probe set and learn which heads serve which subsystem"));
        close->setToolTip(tr("Hide this note until another model is loaded"));
        close->setAccessibleName(tr("Hide"));
        update_for_model();
    });
}

void CalibrationBanner::update_for_model() {
    const auto& model = store_.model();
    offered_ = model && !groups_are_named(*model) && !closed_;
    if (offered_ && model->engine) {
        // A server's model: its map is the server's (served with it); calibrating needs the file.
        text_->setText(tr("The server's model <b>%1</b> has no head map: its heads show as <b>group 0 … 7</b>, split evenly, "
                          "and carry no subsystem's meaning. Calibration needs the model file: run <tt>octoscope-cli calibrate</tt> "
                          "where the server runs, then restart the server.")
                           .arg(QString::fromStdString(model->engine->model).toHtmlEscaped()));
    } else if (offered_) {
        text_->setText(tr("<b>%1</b> has no head map: its heads show as <b>group 0 … 7</b>, split evenly, and carry no "
                          "subsystem's meaning. Calibrate to learn which heads serve which subsystem on the probe set.")
                           .arg(QFileInfo(QString::fromStdString(model->path)).fileName().toHtmlEscaped()));
    }
    calibrate_->setVisible(!(model && model->engine));
    setVisible(offered_);
}

} // namespace octo::ui
