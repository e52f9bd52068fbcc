// Latency of the shown run: per-token milliseconds (the first includes prefill: time to first
// token), prefill vs decode, tokens/s, and a histogram of token latencies with band thresholds.
// The default bands (250 ms and 800 ms) are the article's claimed bands for GPT-4, labelled as
// such; a small local model is far faster.
#pragma once

#include <QWidget>

class QLabel;
class QSpinBox;

namespace octo::ui {

class Plot;

class RunStore;

class LatencyView : public QWidget {
    Q_OBJECT
public:
    explicit LatencyView(RunStore& store, QWidget* parent = nullptr);
    Plot* tokenPlot() const { return tokens_; }
    Plot* histogramPlot() const { return histogram_; }
    QString summary() const;
    int lowBand() const;
    int highBand() const;
    void setBands(int low_ms, int high_ms);

signals:
    void bandsChanged(int low_ms, int high_ms);

private:
    void refresh();
    void updateMarks(); // the selected and hovered tokens (RunStore)

    RunStore& store_;
    QLabel* summary_;
    QSpinBox* low_;
    QSpinBox* high_;
    Plot* tokens_;
    Plot* histogram_;
};

} // namespace octo::ui
