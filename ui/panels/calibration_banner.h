// The note above the prompt for a model whose heads have no meaning yet: without a head map from a
// file, the GGUF or a calibration, its eight groups show as "group 0 … 7" everywhere, and this
// banner says why and offers Model → Calibrate Head Map (a Calibrate… button). It shows for every
// such model loaded and hides once a calibration (or a model with a map) gives the groups names;
// closing it hides it until another model is loaded.
#pragma once

#include <QFrame>

#include <functional>

class QLabel;
class QPushButton;

namespace octo::ui {

class RunStore;

class CalibrationBanner : public QFrame {
    Q_OBJECT
public:
    // `calibrate`: what the Calibrate… button does (Model → Calibrate Head Map…).
    CalibrationBanner(RunStore& store, std::function<void()> calibrate, QWidget* parent = nullptr);

    bool offered() const { return offered_; } // the loaded model's groups are unnamed and the banner was not closed

private:
    void update_for_model();

    RunStore& store_;
    QLabel* text_;
    QPushButton* calibrate_ = nullptr; // hidden for a server's model: calibration needs the file
    bool offered_ = false;
    bool closed_ = false; // for the model loaded now
};

} // namespace octo::ui
