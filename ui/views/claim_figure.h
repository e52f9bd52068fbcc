// What the claims' figures share (ClaimPlotView, ClaimVerdictView): one plot at a time, rebuilt
// for every claim shown, or a sentence in its place saying why there is nothing to draw.
#pragma once

#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace octo::ui {

class Plot;

class ClaimFigure : public QWidget {
    Q_OBJECT
public:
    Plot* plot() const { return plot_; }

protected:
    explicit ClaimFigure(QWidget* parent);
    // Removes the plot shown (if any).
    void clearPlot();
    // The sentence instead of a plot.
    void showMessage(const QString& text);
    // A new, empty plot in the figure's place (after clearPlot).
    Plot* newPlot(const QString& object_name);

    Plot* plot_ = nullptr;

private:
    QVBoxLayout* layout_;
    QLabel* empty_;
};

} // namespace octo::ui
