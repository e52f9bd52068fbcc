// Eight subsystem switches (and "all on") with the ablation mode for the next run, the metric
// the views colour by, and the legend: each switch is drawn in its subsystem's colour.
#pragma once

#include <QWidget>

#include <array>

#include "engine/host/engine_host.h"

class QCheckBox;
class QComboBox;

namespace octo::ui {

class RunStore;

class SwitchesPanel : public QWidget {
    Q_OBJECT
public:
    explicit SwitchesPanel(RunStore& store, QWidget* parent = nullptr);

    // Sets disabled and ablation_mode of `settings`.
    void apply(RunSpec& settings) const;
    void restore(const RunSpec& settings);
    QCheckBox* toggle(int subsystem) const { return toggles_[static_cast<size_t>(subsystem)]; }
    QComboBox* metricBox() const { return metric_; }

signals:
    void rerunRequested();

private:
    void syncMetrics();

    RunStore& store_;
    std::array<QCheckBox*, kSubsystemCount> toggles_{};
    QComboBox* mode_;
    QComboBox* metric_;
};

} // namespace octo::ui
