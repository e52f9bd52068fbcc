// Shared QCustomPlot set-up: colours from the widget palette (light and dark themes), a colour
// map with a gradient and a colour scale, and PNG export.
#pragma once

#include <qcustomplot.h>

namespace octo::ui {

// Axis, grid and background colours from the application palette.
void apply_palette(QCustomPlot& plot);

// A colour map over plot's main axes with a colour scale on the right; both owned by the plot.
QCPColorMap* add_color_map(QCustomPlot& plot, const QString& scale_label);

} // namespace octo::ui
