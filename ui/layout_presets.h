// View → Layout: preset arrangements of the workbench's docks for a task. Inspect is the first
// start's (layers × heads, tokens × subsystems, KV pool in front); Compare brings A/B compare
// and the run history forward and gives compare the height; Teach puts the presenter in front
// and wide, latency below. Reset Layout is Inspect. `octoscope --layout NAME` starts in one.
#pragma once

#include <QString>

#include <optional>

class QMainWindow;

namespace octo::ui {

enum class LayoutPreset { Inspect, Compare, Teach };
std::optional<LayoutPreset> parse_layout_preset(const QString& name); // "inspect", "compare", "teach"
// Every dock back in its place, tab group and visibility as at first start, then the preset's
// docks raised and sized.
void apply_layout_preset(QMainWindow& window, LayoutPreset preset);

} // namespace octo::ui
