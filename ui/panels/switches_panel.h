// Eight subsystem switches (and "all on") with the ablation mode for the next run, the metric
// the views colour by, and the legend: each switch is drawn in its subsystem's colour. On a
// mixture of experts, the experts left out of the routers' choice ("*:3, 1:0", docs/moe.md).
#pragma once

#include <QWidget>

#include <array>

#include "engine/generation/run_spec.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace octo::ui {

class RunStore;

class SwitchesPanel : public QWidget {
    Q_OBJECT
public:
    explicit SwitchesPanel(RunStore& store, QWidget* parent = nullptr);

    // Sets disabled, ablation_mode and disabled_experts of `spec` (entries of the experts
    // field that do not parse are left out; the field shows them in red).
    void apply(RunSpec& spec) const;
    void restore(const RunSpec& spec);
    QCheckBox* toggle(int subsystem) const { return toggles_[static_cast<size_t>(subsystem)]; }
    QComboBox* metricBox() const { return metric_; }
    QLineEdit* expertsField() const { return experts_; }
    QComboBox* targetBox() const { return target_; }
    // Shown while the shown run was made with another head map or model than the next run: the
    // plots name its groups, the switches the next run's (empty text: hidden).
    QString mapNote() const;
    // Adds "L:E" (or "*:E" for layer -1) to the experts left out, unless it is there. The field
    // holds the loaded model's experts: loading another model file empties it.
    void addExpertSwitch(const ExpertSwitch& expert);

signals:
    void rerunRequested();

private:
    void syncMetrics();
    void syncLabels();
    void syncMapNote(); // says when the shown run's groups are not the next run's
    void syncExperts(); // the experts row, shown for models with experts
    void checkExperts();
    QString loadedModelPath() const; // empty without a model

    RunStore& store_;
    std::array<QCheckBox*, kSubsystemCount> toggles_{};
    QComboBox* mode_;
    QComboBox* metric_;
    QLabel* experts_label_;
    QLineEdit* experts_;
    QComboBox* target_; // what the switches turn off: heads, or (with an expert map) experts
    QLabel* map_note_;  // the shown run was measured with another map or model than the next run
    // The model file the experts field was filled for: experts are numbered per model, so another
    // model's load empties the field (empty: a restored run's, taken by the next load).
    QString experts_for_;
};

} // namespace octo::ui
