// The shown conversation's turns as a plot (the Conversation panel's "Per turn" tab): for each
// assistant turn's run, its prompt as stacked bars — tokens reused from the KV pool (the
// conversation so far) under tokens evaluated — so the KV cache's growth and reuse read turn by
// turn, and its prefill time as a line on the right axis (latency per turn). Hover reads a turn.
#pragma once

#include <QWidget>

#include <vector>

class QCPBars;
class QCPGraph;

namespace octo::ui {

class ConversationStore;
class Plot;
class RunStore;

class ConversationTurnsPlot : public QWidget {
    Q_OBJECT
public:
    ConversationTurnsPlot(ConversationStore& conversations, RunStore& runs, QWidget* parent = nullptr);

    Plot* plot() const { return plot_; }
    struct Point {
        int turn = 0; // the assistant turn's index in the conversation
        double reused = 0.0, evaluated = 0.0, prefill_ms = 0.0; // prompt tokens reused and computed; prefill time
    };
    const std::vector<Point>& points() const { return points_; } // what is drawn, in turn order
    QString hoverText(int turn) const;

private:
    void refresh();

    ConversationStore& conversations_;
    RunStore& runs_;
    Plot* plot_;
    QCPBars* reused_;
    QCPBars* evaluated_;
    QCPGraph* prefill_;
    std::vector<Point> points_;
};

} // namespace octo::ui
