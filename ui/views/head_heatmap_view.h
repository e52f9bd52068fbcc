// Layers × heads of one metric's per-head values — for the selected token, or averaged over the
// prompt or the answer — with the head-group (subsystem) boundaries marked and labelled.
// Per-head values: contribution norms for norm_share and relative, DLA for dla, the group's gate
// for gates.
#pragma once

#include <QWidget>

#include <vector>

#include "engine/generation/instrumented_generation.h"
#include "engine/generation/run_trace.h"
#include "ui/views/token_scope.h"

class QComboBox;
class QCPColorMap;

namespace octo::ui {

class InternalsNote;
class Plot;

class RunStore;

class HeadHeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeadHeatmapView(RunStore& store, QWidget* parent = nullptr);

    void setScope(TokenScope scope);
    // The value shown at (layer, head); NaN when the cell is empty.
    double cell(int layer, int head) const;
    Plot* plot() const { return plot_; }
    // The hover readout of a cell: layer, head, its group, the positions, the value.
    QString hoverText(int layer, int head) const;

private:
    void fitGroupLabels(); // group labels turned upright when side by side they would overlap
    InternalsNote* internals_ = nullptr; // the sentence for runs without internals
    void refresh();
    void updateMarks(); // the linked views' focus and hover (RunStore)
    QString metric_label() const;
    std::vector<float> per_head(const TraceToken& token) const; // [n_layer][n_head], empty if absent

    RunStore& store_;
    QComboBox* scope_;
    Plot* plot_;
    QCPColorMap* map_;
    std::vector<double> values_; // [n_layer][n_head] shown
    int n_layer_ = 0, n_head_ = 0;
};

} // namespace octo::ui
