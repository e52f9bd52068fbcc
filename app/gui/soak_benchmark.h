// octoscope --prompt T --soak N: a soak benchmark. Runs the prompt N times, one after another,
// in this one app session with every view updating as usual, and prints the resident memory once
// the run history is full (RunStore keeps the last RunStore::kMaxRuns runs) and after the last
// run, with the growth between them (the target is under 5%). Figures only: nothing asserts.
#pragma once

#include <QObject>

#include <cstdint>

namespace octo::ui {

class MainWindow;

class SoakBenchmark : public QObject {
    Q_OBJECT
public:
    SoakBenchmark(MainWindow& window, int runs, QObject* parent = nullptr);
    void start(); // call once the model is loaded

private:
    void onRunSettled();

    MainWindow& window_;
    int runs_;
    int done_ = 0;
    int warmup_runs_;
    uint64_t warm_bytes_ = 0;
    qint64 started_ms_ = 0;
};

} // namespace octo::ui
