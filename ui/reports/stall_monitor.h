// Measures how long the UI thread fails to run: a timer due every kIntervalMs records how late
// it fires. The longest lateness is the longest stall a user could feel.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace octo::ui {

class StallMonitor : public QObject {
    Q_OBJECT
public:
    static constexpr int kIntervalMs = 5;

    explicit StallMonitor(QObject* parent = nullptr);
    void reset();
    double worstMs() const { return worst_ms_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ns_ = 0;
    double worst_ms_ = 0.0;
};

} // namespace octo::ui
