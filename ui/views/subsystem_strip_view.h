// Tokens × subsystems over the whole run in the chosen metric: a strip that grows as tokens
// stream in (prompt tokens first, a line where the answer begins).
#pragma once

#include <QWidget>

class QCPColorMap;

namespace octo::ui {

class InternalsNote;
class Plot;

class RunStore;

class SubsystemStripView : public QWidget {
    Q_OBJECT
public:
    explicit SubsystemStripView(RunStore& store, QWidget* parent = nullptr);
    Plot* plot() const { return plot_; }
    // The hover readout of a cell: token index and text, group, metric value.
    QString hoverText(int token, int group) const;
    int cursor() const { return cursor_; } // the selected token the strip marks (-1: none)

private:
    InternalsNote* internals_ = nullptr; // the sentence for runs without internals
    void refresh();
    void updateMarks(); // the linked views' hover and turn (RunStore)

    RunStore& store_;
    Plot* plot_;
    QCPColorMap* map_;
    int cursor_ = -1;
};

} // namespace octo::ui
