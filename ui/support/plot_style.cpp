#include "ui/support/plot_style.h"

#include <QApplication>

namespace octo::ui {

void apply_palette(QCustomPlot& plot) {
    const QPalette pal = QApplication::palette();
    const QColor fg = pal.color(QPalette::WindowText);
    plot.setBackground(pal.brush(QPalette::Base));
    for (QCPAxis* axis : plot.axisRect()->axes()) {
        axis->setBasePen(QPen(fg));
        axis->setTickPen(QPen(fg));
        axis->setSubTickPen(QPen(fg));
        axis->setTickLabelColor(fg);
        axis->setLabelColor(fg);
        axis->grid()->setPen(QPen(pal.color(QPalette::Mid), 0, Qt::DotLine));
    }
}

QCPColorMap* add_color_map(QCustomPlot& plot, const QString& scale_label) {
    auto* map = new QCPColorMap(plot.xAxis, plot.yAxis);
    auto* scale = new QCPColorScale(&plot);
    plot.plotLayout()->addElement(0, 1, scale);
    scale->setType(QCPAxis::atRight);
    scale->axis()->setLabel(scale_label);
    map->setColorScale(scale);
    map->setGradient(QCPColorGradient::gpThermal);
    map->setInterpolate(false);
    auto* group = new QCPMarginGroup(&plot);
    plot.axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    const QColor fg = QApplication::palette().color(QPalette::WindowText);
    scale->axis()->setTickLabelColor(fg);
    scale->axis()->setLabelColor(fg);
    return map;
}

} // namespace octo::ui
