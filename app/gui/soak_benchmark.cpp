#include "app/gui/soak_benchmark.h"

#include <QApplication>
#include <QDateTime>
#include <QTimer>

#include <algorithm>
#include <cstdio>

#include "app/common/process_memory.h"
#include "ui/controllers/run_controller.h"
#include "ui/main_window.h"
#include "ui/session/run_store.h"

namespace octo::ui {

namespace {

double mib(uint64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

} // namespace

SoakBenchmark::SoakBenchmark(MainWindow& window, int runs, QObject* parent)
    : QObject(parent), window_(window), runs_(runs),
      warmup_runs_(std::min(runs, static_cast<int>(RunStore::kMaxRuns))) {}

void SoakBenchmark::start() {
    connect(&window_, &MainWindow::runSettled, this, &SoakBenchmark::onRunSettled);
    started_ms_ = QDateTime::currentMSecsSinceEpoch();
    window_.runs().runPrompt();
}

void SoakBenchmark::onRunSettled() {
    ++done_;
    const std::optional<ResidentMemory> memory = resident_memory();
    const uint64_t now = memory ? memory->resident_bytes : 0;
    if (done_ == warmup_runs_) warm_bytes_ = now;
    if (done_ % 100 == 0) std::fprintf(stderr, "octoscope: soak: %d/%d runs, resident %.1f MiB\n", done_, runs_, mib(now));
    if (done_ < runs_) {
        QTimer::singleShot(0, &window_, [this] { window_.runs().runPrompt(); });
        return;
    }
    const double seconds = static_cast<double>(QDateTime::currentMSecsSinceEpoch() - started_ms_) / 1000.0;
    const double growth = warm_bytes_ > 0 ? 100.0 * (static_cast<double>(now) - static_cast<double>(warm_bytes_)) /
                                                static_cast<double>(warm_bytes_)
                                          : 0.0;
    std::printf("soak: %d runs in %.0f s; resident memory %.1f MiB after %d runs (history full), %.1f MiB after %d: "
                "%+.2f%% (target < 5%%)\n",
                runs_, seconds, mib(warm_bytes_), warmup_runs_, mib(now), runs_, growth);
    std::fflush(stdout);
    QApplication::exit(0);
}

} // namespace octo::ui
