#include "ui/support/subsystem_palette.h"

#include <QCoreApplication>

#include <array>

#include "engine/host/model_info.h"

namespace octo::ui {

QColor subsystem_color(int s) {
    static const std::array<QColor, 8> colors = {
        QColor(0xE6, 0x9F, 0x00), // orange
        QColor(0x56, 0xB4, 0xE9), // sky blue
        QColor(0x00, 0x9E, 0x73), // bluish green
        QColor(0xF0, 0xE4, 0x42), // yellow
        QColor(0x00, 0x72, 0xB2), // blue
        QColor(0xD5, 0x5E, 0x00), // vermillion
        QColor(0xCC, 0x79, 0xA7), // reddish purple
        QColor(0x99, 0x99, 0x99), // grey (stands in for Okabe–Ito black, readable on dark themes)
    };
    return colors[static_cast<size_t>(s) % colors.size()];
}

QString subsystem_id(int s) { return QStringLiteral("rte-%1").arg(QChar('a' + s)); }

QString subsystem_name(int s) {
    static const char* const names[] = {
        QT_TRANSLATE_NOOP("Subsystem", "Entity recognition & linking"),
        QT_TRANSLATE_NOOP("Subsystem", "Relation extraction"),
        QT_TRANSLATE_NOOP("Subsystem", "Numerical reasoning"),
        QT_TRANSLATE_NOOP("Subsystem", "Logical structure parsing"),
        QT_TRANSLATE_NOOP("Subsystem", "Code semantics"),
        QT_TRANSLATE_NOOP("Subsystem", "Style transfer & polishing"),
        QT_TRANSLATE_NOOP("Subsystem", "Format generation & validation"),
        QT_TRANSLATE_NOOP("Subsystem", "Safety & compliance filtering"),
    };
    return QCoreApplication::translate("Subsystem", names[s % 8]);
}

bool groups_are_named(const ModelInfo& model) { return model.head_map && model.head_map->source() != HeadMapSource::Default; }

bool group_has_no_heads(const ModelInfo& model, int group) { return model.head_map && model.head_map->is_empty(group); }

QString head_group_short(const ModelInfo& model, int group) {
    return groups_are_named(model) ? subsystem_id(group) : QCoreApplication::translate("HeadGroup", "group %1").arg(group);
}

QString head_group_label(const ModelInfo& model, int group) {
    return groups_are_named(model) ? QStringLiteral("%1 %2").arg(subsystem_id(group), subsystem_name(group))
                                   : QCoreApplication::translate("HeadGroup", "group %1").arg(group);
}

} // namespace octo::ui
