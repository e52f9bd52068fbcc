// The eight subsystems' colours and names as the UI shows them. Colours are the Okabe–Ito
// palette (distinguishable with the common colour-vision deficiencies), one per subsystem,
// rte-a first.
#pragma once

#include <QColor>
#include <QString>

namespace octo {
struct ModelInfo;
}

namespace octo::ui {

QColor subsystem_color(int subsystem);
QString subsystem_id(int subsystem);   // "rte-a" …
QString subsystem_name(int subsystem); // "Entity recognition & linking" …, translated

// Whether the model's head groups carry the subsystem meanings: its map came from a file, from
// the model's own GGUF or from a calibration. The default split of heads into eight groups has
// earned no meaning, so its groups are shown as "group 0 … 7" and never with subsystem names.
bool groups_are_named(const ModelInfo& model);
QString head_group_short(const ModelInfo& model, int group); // "rte-a", or "group 0" without a map's meaning
QString head_group_label(const ModelInfo& model, int group); // "rte-a Entity recognition & linking", or "group 0"
// The model's head map gives `group` no head (8 groups over fewer heads a layer: a 4-head
// model's groups 4–7): nothing of it is measured or can be switched off.
bool group_has_no_heads(const ModelInfo& model, int group);

} // namespace octo::ui
