#include "ui/engine_labels.h"

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

} // namespace octo::ui
