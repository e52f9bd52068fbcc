// The quantisation report in the workbench (Run → Quantisation Report…, docs/workbench.md): the
// same prompts on the loaded model (A) and on another file of it (B), computed on the engine
// thread (EngineHost::quant_report), B opened beside A for the report and closed after it. The
// report, the run in progress and the last error live here; QuantReportDialog shows them.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

#include "engine/evaluation/quant_report.h"
#include "engine/host/host_events.h"

namespace octo::ui {

class EngineBridge;
class RunStore;

class QuantReportController : public QObject {
    Q_OBJECT
public:
    QuantReportController(RunStore& store, EngineBridge& bridge, QObject* parent = nullptr);

    // Asks for a report of `prompts` (blank ones left out) on the loaded model against `model_b`;
    // false with `error` set when it cannot be asked (no prompts, no file, a server's model, one
    // already running).
    bool start(const QString& model_b, const QStringList& prompts, int max_tokens, QString* error);
    void cancel();

    bool running() const { return running_; }
    // Model B's loading (0..1), then prompts done of total (total 0 while B loads).
    double loadFraction() const { return load_fraction_; }
    int done() const { return done_; }
    int total() const { return total_; }
    const std::optional<QuantReport>& report() const { return report_; } // the last finished one
    const QString& failure() const { return failure_; } // why the last one asked did not finish, or empty
    // The report as `octoscope-cli quant-report --json` writes it; false with `error` set.
    bool saveJson(const QString& path, QString* error) const;

    void apply(const std::vector<HostEvent>& batch);

signals:
    void changed(); // progress, a report, a failure, or a run started or ended

private:
    RunStore& store_;
    EngineBridge& bridge_;
    bool running_ = false;
    double load_fraction_ = 0.0;
    int done_ = 0;
    int total_ = 0;
    std::optional<QuantReport> report_;
    QString failure_;
};

} // namespace octo::ui
