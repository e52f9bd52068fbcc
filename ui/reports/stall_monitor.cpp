#include "ui/reports/stall_monitor.h"

#include <algorithm>

namespace octo::ui {

StallMonitor::StallMonitor(QObject* parent) : QObject(parent) {
    timer_.setTimerType(Qt::PreciseTimer);
    timer_.setInterval(kIntervalMs);
    connect(&timer_, &QTimer::timeout, this, [this] {
        const qint64 now = clock_.nsecsElapsed();
        const double late_ms = double(now - last_ns_) / 1e6 - kIntervalMs;
        worst_ms_ = std::max(worst_ms_, late_ms);
        last_ns_ = now;
    });
    clock_.start();
    timer_.start();
}

void StallMonitor::reset() {
    worst_ms_ = 0.0;
    last_ns_ = clock_.nsecsElapsed();
}

} // namespace octo::ui
