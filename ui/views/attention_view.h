// The attention pattern of the selected token: which earlier tokens each head of one layer, or
// each subsystem (its heads averaged over all layers), attended to. Needs attention recording.
// A conversation's run marks where each turn's text begins (a line and "U2", "A3": the role's
// letter and the turn's number), so attention across turns reads at a glance.
#pragma once

#include <QSharedPointer>
#include <QWidget>

#include <utility>
#include <vector>

class QComboBox;
class QSpinBox;
class QLabel;
class QCPColorMap;
class QCPAxisTickerText;
class QCPAbstractItem;

namespace octo::ui {

class Plot;

class InternalsNote;

class RunStore;
struct RunRecord;

class AttentionView : public QWidget {
    Q_OBJECT
public:
    explicit AttentionView(RunStore& store, QWidget* parent = nullptr);
    Plot* plot() const { return plot_; }
    int shownToken() const { return shown_token_; } // the position whose weights are shown, -1 for none
    // The hover readout of a cell: the head or group, both positions with their token text, the weight.
    QString hoverText(int position, int row) const;
    // The turn marks drawn now: each turn's first position and its label ("U1", "A2").
    const std::vector<std::pair<int, QString>>& turnMarks() const { return turn_marks_; }

private:
    QSharedPointer<QCPAxisTickerText> position_ticks(const RunRecord& run, int seen) const;
    InternalsNote* internals_ = nullptr; // the sentence for runs without internals
    void refresh();
    void updateMarks(); // the linked views' focus and hover (RunStore)
    void markTurns(const RunRecord& run, int seen);

    RunStore& store_;
    QComboBox* mode_;
    QSpinBox* layer_;
    QLabel* note_;
    Plot* plot_;
    QCPColorMap* map_;
    int shown_token_ = -1; // the position whose weights are shown
    int seen_ = 0;         // positions it attends to (a sink column follows them for models with sinks)
    std::vector<std::pair<int, QString>> turn_marks_;
    std::vector<QCPAbstractItem*> turn_items_;
};

} // namespace octo::ui
