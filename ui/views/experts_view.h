// A mixture of experts' routing (docs/moe.md), read from the run's trace: which experts each
// position chose in each layer and with what weight. Three tabs:
//   Layers × experts  the weight of every expert in every layer — for the selected token, or
//                     averaged over the prompt (without BOS) or the answer (0 where not chosen);
//                     qwen2moe's shared expert is the last column, its sigmoid gate;
//   Tokens × experts  for one layer, every position of the run against every expert;
//   Load              for one layer, how many positions chose each expert (prompt and answer).
// With a calibrated expert map each expert is marked in its subsystem's colour: a strip on the
// left of its map cell, its name beside the strip's expert, its load bar.
// Hovering a cell says layer, expert, weight and rank. A dense model says it has no experts.
#pragma once

#include <QWidget>

#include <vector>

#include "engine/generation/run_trace.h"
#include "ui/views/token_scope.h"

class QComboBox;
class QCPColorMap;
class QCPBars;
class QLabel;
class QSpinBox;
class QStackedWidget;
class QTabWidget;

namespace octo::ui {

class Plot;

class InternalsNote;

class RunStore;
struct RunRecord;

class ExpertsView : public QWidget {
    Q_OBJECT
public:
    explicit ExpertsView(RunStore& store, QWidget* parent = nullptr);

    void setScope(TokenScope scope);
    void setLayer(int layer); // the layer of the tokens × experts strip and of the load
    // What the layers × experts map shows at (layer, expert): the weight, NaN outside.
    double cell(int layer, int expert) const;
    // Positions of the run that chose `expert` in the shown layer.
    int load(int expert) const;
    // The hover text of a layers × experts cell (empty outside).
    QString cellText(int layer, int expert) const;
    QTabWidget* tabs() const { return tabs_; }
    // What the panel says about the calibrated expert → subsystem map (empty: none).
    QString verdict() const;
    // The subsystem the expert map gives (layer, expert), or -1 without a map.
    int subsystemOf(int layer, int expert) const;
    bool showsExperts() const; // false: the "no experts" note of a dense model

signals:
    // The user asked to leave an expert out of the next run (layer -1: every layer).
    void expertSwitchRequested(const octo::ExpertSwitch& expert);

private:
    InternalsNote* internals_ = nullptr; // the sentence for runs without internals
    void refresh();
    void refreshMap(const RunRecord& run);
    void refreshStrip(const RunRecord& run);
    void refreshLoad(const RunRecord& run);
    void updateMarks(); // the linked views' focus and hover (RunStore)
    void linkViews();   // clicks, the pointer and the shared token axis wired to RunStore
    bool eventFilter(QObject* watched, QEvent* event) override; // the map's hover text

    RunStore& store_;
    QStackedWidget* stack_;   // the plots, or the "no experts" note
    QLabel* none_;
    QLabel* verdict_;
    QTabWidget* tabs_;
    QComboBox* scope_;
    QSpinBox* layer_;
    Plot* map_plot_;
    QCPColorMap* map_;
    Plot* strip_plot_;
    QCPColorMap* strip_;
    Plot* load_plot_;
    QCPBars* bars_;                      // without an expert map
    std::vector<QCPBars*> subsystem_bars_; // [8] with one: each expert's bar in its subsystem's colour
    int n_layer_ = 0, n_expert_ = 0, n_cols_ = 0; // n_cols_: experts, plus the shared one
    std::vector<double> weights_;                  // [n_layer][n_cols] shown
    std::vector<int> ranks_;                       // [n_layer][n_cols] rank at the selected token (-1: not chosen)
    std::vector<int> load_;                        // [n_expert] of the shown layer
};

} // namespace octo::ui
