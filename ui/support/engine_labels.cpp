#include "ui/support/engine_labels.h"

#include <QCoreApplication>

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

} // namespace octo::ui
