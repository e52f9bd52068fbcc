#include "ui/support/engine_labels.h"

#include <QCoreApplication>

#include "engine/host/host_events.h"

namespace octo::ui {

QString ablation_mode_label(AblationMode mode) {
    switch (mode) {
    case AblationMode::Zero: return QCoreApplication::translate("Ablation", "zero");
    case AblationMode::Mean: return QCoreApplication::translate("Ablation", "mean");
    }
    return QString::fromUtf8(ablation_mode_name(mode));
}

QString head_map_source_label(HeadMapSource source) {
    switch (source) {
    case HeadMapSource::Default: return QCoreApplication::translate("HeadMapSource", "default");
    case HeadMapSource::File: return QCoreApplication::translate("HeadMapSource", "file");
    case HeadMapSource::Gguf: return QCoreApplication::translate("HeadMapSource", "GGUF");
    case HeadMapSource::Calibrated: return QCoreApplication::translate("HeadMapSource", "calibrated");
    }
    return QString::fromUtf8(head_map_source_name(source));
}

QString precision_label(Precision precision) {
    switch (precision) {
    case Precision::Reference: return QCoreApplication::translate("Precision", "Reference (as llama.cpp)");
    case Precision::Exact: return QCoreApplication::translate("Precision", "Exact (float activations)");
    }
    return precision_id(precision);
}

QString precision_id(Precision precision) {
    const std::string_view name = precision_name(precision);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QString metric_label(Metric metric) {
    switch (metric) {
    case Metric::NormShare: return QCoreApplication::translate("Metric", "norm share");
    case Metric::Relative: return QCoreApplication::translate("Metric", "relative to the prompt");
    case Metric::Dla: return QCoreApplication::translate("Metric", "direct logit attribution");
    case Metric::Gates: return QCoreApplication::translate("Metric", "router gates");
    case Metric::Experts: return QCoreApplication::translate("Metric", "expert routing");
    }
    return QString::fromUtf8(metric_name(metric));
}

QString stop_reason_label(StopReason reason) {
    switch (reason) {
    case StopReason::MaxTokens: return QCoreApplication::translate("EngineLabels", "reached the token limit");
    case StopReason::EndOfGeneration: return QCoreApplication::translate("EngineLabels", "end of generation");
    case StopReason::StopString: return QCoreApplication::translate("EngineLabels", "stop string");
    case StopReason::ContextFull: return QCoreApplication::translate("EngineLabels", "context full");
    case StopReason::Cancelled: return QCoreApplication::translate("EngineLabels", "cancelled");
    }
    return QString::fromUtf8(stop_reason_name(reason));
}

QString run_end_label(const RunTrace& trace) {
    if (trace.spec.max_tokens == 0 && trace.n_generated() == 0) return QCoreApplication::translate("EngineLabels", "measured, nothing generated");
    return trace.outcome ? stop_reason_label(trace.outcome->stop_reason) : QString();
}

QString retry_text(const host_event::RunWaiting& e) {
    return QCoreApplication::translate("octo::ui::RunStore", "retry %1 of %2 in %3 s: %4")
        .arg(e.retry)
        .arg(e.max_retries)
        .arg(e.wait_s, 0, 'g', 2)
        .arg(QString::fromStdString(e.reason));
}

QString calibration_text(const host_event::CalibrationDone& e) {
    if (e.experts) {
        return QCoreApplication::translate("octo::ui::RunStore", "Experts calibrated: separation %1 on dev (null %2, chance 0.125); kept for this model file. %3")
            .arg(e.separation, 0, 'f', 3)
            .arg(e.null_separation, 0, 'f', 3)
            .arg(e.experts->specialises() ? QCoreApplication::translate("octo::ui::RunStore", "The routing tells the probe set's subsystems apart.")
                                          : QCoreApplication::translate("octo::ui::RunStore", "The routing does not tell the probe set's subsystems apart."));
    }
    return QCoreApplication::translate("octo::ui::RunStore", "Head map calibrated: separation %1 on dev (null %2, chance 0.125); kept for this model file. Active map: %3.")
               .arg(e.separation, 0, 'f', 3)
               .arg(e.null_separation, 0, 'f', 3)
               .arg(head_map_source_label(e.active.source())) +
           QLatin1Char(' ') + QCoreApplication::translate("octo::ui::RunStore", "Runs from now on are measured with it; earlier runs keep the map they were measured with.");
}

} // namespace octo::ui
