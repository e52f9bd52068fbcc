// The attention pattern of the selected token: which earlier tokens each head of one layer, or
// each subsystem (its heads averaged over all layers), attended to. Needs attention recording.
#pragma once

#include <QWidget>

class QComboBox;
class QSpinBox;
class QLabel;
class QCustomPlot;
class QCPColorMap;

namespace octo::ui {

class InternalsNote;

class RunStore;

class AttentionView : public QWidget {
    Q_OBJECT
public:
    explicit AttentionView(RunStore& store, QWidget* parent = nullptr);
    QCustomPlot* plot() const { return plot_; }

private:
    InternalsNote* internals_ = nullptr; // the sentence for runs without internals
    void refresh();

    RunStore& store_;
    QComboBox* mode_;
    QSpinBox* layer_;
    QLabel* note_;
    QCustomPlot* plot_;
    QCPColorMap* map_;
};

} // namespace octo::ui
