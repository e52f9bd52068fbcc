// Help → Experts and Subsystems: how a mixture of experts' real routing differs from the article's
// eight subsystems (docs/moe.md), for a user looking at the Experts panel.
#pragma once

#include <QString>

class QWidget;

namespace octo::ui {

// The explanation, as rich text (translated).
QString experts_help_text();

// Shows it (non-blocking; the dialog deletes itself when closed).
void show_experts_help(QWidget& parent);

} // namespace octo::ui
