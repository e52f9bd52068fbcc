// The logit lens per head group (the Logit lens view's "By head group", docs/workbench.md): for
// the selected token, how much each head group of each layer wrote toward it directly — the
// group's heads' direct logit attributions summed (TokenProbe::dla, engine/instrumentation/
// logit_attribution.h), at the position that predicted the token. Layers as rows (the first at
// the bottom, as layers × heads), the eight groups as columns, signed on a diverging scale. It
// needs the run's DLA (the Prompt panel's DLA box); without it, the plot says so.
#pragma once

#include <QWidget>

#include <optional>
#include <vector>

#include "engine/instrumentation/head_map.h"

namespace octo::ui {

class Plot;
class RunStore;
struct RunRecord;

// [n_layer][8] each group's summed DLA toward token `token` of `run` (the probe of the position
// before it, attributed to that very token), or nullopt when the run has none for it.
std::optional<std::vector<double>> lens_group_logits(const RunRecord& run, int token, const HeadMap& map);

class LensGroupsPlot : public QWidget {
    Q_OBJECT
public:
    explicit LensGroupsPlot(RunStore& store, QWidget* parent = nullptr);
    Plot* plot() const { return plot_; }
    void refresh();

private:
    RunStore& store_;
    Plot* plot_;
    std::vector<double> values_; // shown, [n_layer][8]
    int n_layer_ = 0;
};

} // namespace octo::ui
