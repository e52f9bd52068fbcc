// The eight subsystems' colours and names as the UI shows them. Colours are the Okabe–Ito
// palette (distinguishable with the common colour-vision deficiencies), one per subsystem,
// rte-a first.
#pragma once

#include <QColor>
#include <QString>

namespace octo::ui {

QColor subsystem_color(int subsystem);
QString subsystem_id(int subsystem);   // "rte-a" …
QString subsystem_name(int subsystem); // "Entity recognition & linking" …, translated

} // namespace octo::ui
