#include "ui/support/plot.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMenu>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace octo::ui {

double WholeNumberTicker::getTickStep(const QCPRange& range) {
    const double wanted = range.size() / std::max(1, tickCount());
    if (!(wanted > 1.0)) return 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(wanted)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * magnitude >= wanted) return std::max(1.0, m * magnitude);
    }
    return 10.0 * magnitude;
}

int WholeNumberTicker::getSubTickCount(double) { return 0; }

QString WholeNumberTicker::getTickLabel(double tick, const QLocale& locale, QChar, int) {
    return locale.toString(static_cast<qlonglong>(std::llround(tick)));
}

namespace {

QColor text_colour() { return QApplication::palette().color(QPalette::WindowText); }

void style_axis(QCPAxis* axis) {
    const QColor fg = text_colour();
    axis->setBasePen(QPen(fg));
    axis->setTickPen(QPen(fg));
    axis->setSubTickPen(QPen(fg));
    axis->setTickLabelColor(fg);
    axis->setLabelColor(fg);
    axis->grid()->setPen(QPen(QApplication::palette().color(QPalette::Mid), 0, Qt::DotLine));
}

QCPColorGradient thermal_gradient() {
    QCPColorGradient g(QCPColorGradient::gpThermal);
    g.setNanHandling(QCPColorGradient::nhTransparent); // an empty cell shows the background
    return g;
}

QCPColorGradient diverging_gradient() {
    QCPColorGradient g;
    g.clearColorStops();
    g.setColorStopAt(0.0, QColor(0x21, 0x66, 0xAC)); // blue: below 0
    g.setColorStopAt(0.5, QColor(0xE8, 0xE8, 0xE8)); // neutral: 0
    g.setColorStopAt(1.0, QColor(0xB2, 0x18, 0x2B)); // red: above 0
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setNanHandling(QCPColorGradient::nhTransparent);
    return g;
}

} // namespace

Plot::Plot(const QString& object_name, QWidget* parent) : QCustomPlot(parent) {
    setObjectName(object_name);
    setBackground(QApplication::palette().brush(QPalette::Base));
    for (QCPAxis* axis : axisRect()->axes()) style_axis(axis);
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    setFocusPolicy(Qt::ClickFocus);
    setMinimumHeight(kMinimumHeight); // tick labels and axis titles fit; a small dock scrolls instead
    setMouseTracking(true);
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& range) {
        if (token_axis_ && !setting_range_ && no_data_.isEmpty()) {
            shared_x_ = range;
            emit tokenRangeChanged(range);
        }
    });
}

void Plot::setXRange(const QCPRange& range) {
    setting_range_ = true;
    xAxis->setRange(range);
    setting_range_ = false;
}

void Plot::setMarks(const Marks& marks) {
    if (marks == marks_) return;
    marks_ = marks;
    update();
}

void Plot::showTokenRange(const std::optional<QCPRange>& range) {
    if (!token_axis_) return;
    shared_x_ = range;
    if (!no_data_.isEmpty()) return;
    setXRange(range ? *range : home_x_);
    replot(rpQueuedReplot);
}

void Plot::setWholeNumbers(QCPAxis* axis) { axis->setTicker(QSharedPointer<QCPAxisTicker>(new WholeNumberTicker)); }

void Plot::keepLabelsApart(QCPAxis* axis) {
    if (apart_.isEmpty()) connect(this, &QCustomPlot::beforeReplot, this, &Plot::fitLabels);
    if (!apart_.contains(axis)) apart_ << axis;
}

// Each axis's labels flat when every two neighbours have room for half of each of them and a
// gap, else on end.
void Plot::fitLabels() {
    for (const QPointer<QCPAxis>& axis : apart_) {
        if (!axis) continue;
        const auto text = axis->ticker().dynamicCast<QCPAxisTickerText>();
        if (!text) continue;
        const QFontMetrics metrics(axis->tickLabelFont());
        bool crowded = false;
        double previous_px = 0.0, previous_half = 0.0;
        bool first = true;
        for (auto it = text->ticks().constBegin(); it != text->ticks().constEnd(); ++it) {
            if (!axis->range().contains(it.key())) continue;
            const double px = axis->coordToPixel(it.key());
            const double half = metrics.horizontalAdvance(it.value().section(QLatin1Char('\n'), 0, 0)) / 2.0;
            if (!first && std::abs(px - previous_px) < previous_half + half + 4.0) crowded = true;
            previous_px = px;
            previous_half = half;
            first = false;
        }
        axis->setTickLabelRotation(crowded ? 90.0 : 0.0);
    }
}

QCPColorMap* Plot::addColorMap(const QString& scale_label) {
    auto* map = new QCPColorMap(xAxis, yAxis);
    auto* scale = new QCPColorScale(this);
    plotLayout()->addElement(0, 1, scale);
    scale->setType(QCPAxis::atRight);
    scale->axis()->setLabel(scale_label);
    style_axis(scale->axis());
    map->setColorScale(scale);
    map->setInterpolate(false);
    map->setGradient(thermal_gradient());
    auto* group = new QCPMarginGroup(this);
    axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    return map;
}

void Plot::setSequential(QCPColorMap* map, const QCPRange& range) {
    map->setGradient(thermal_gradient());
    map->setDataRange(range.size() > 0 ? range : QCPRange(range.lower, range.lower + 1));
}

void Plot::setDiverging(QCPColorMap* map, double extent) {
    map->setGradient(diverging_gradient());
    const double e = std::isfinite(extent) && extent > 0 ? extent : 1.0;
    map->setDataRange(QCPRange(-e, e));
}

bool Plot::isDiverging(const QCPColorMap* map) {
    const QCPRange r = map->dataRange();
    return map->gradient() == diverging_gradient() && std::fabs(r.lower + r.upper) <= 1e-9 * std::max(1.0, r.upper);
}

// Moves the legend out of the axis rect into a new row under it (below) or a new column beside
// it, unframed; returns that row or column.
int Plot::moveLegendOut(bool below) {
    axisRect()->insetLayout()->take(legend);
    plotLayout()->simplify();
    const int index = below ? plotLayout()->rowCount() : plotLayout()->columnCount();
    plotLayout()->addElement(below ? index : 0, below ? 0 : index, legend);
    legend->setBrush(Qt::NoBrush);
    legend->setBorderPen(Qt::NoPen);
    legend->setTextColor(text_colour());
    legend->setVisible(true);
    return index;
}

void Plot::placeLegendBelow(int columns) {
    if (legend->layout() == plotLayout()) return;
    plotLayout()->setRowStretchFactor(moveLegendOut(true), 0.001);
    legend->setWrap(columns);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setMargins(QMargins(4, 0, 4, 2));
}

void Plot::placeLegendRight() {
    if (legend->layout() == plotLayout()) return;
    plotLayout()->setColumnStretchFactor(moveLegendOut(false), 0.001);
}

void Plot::setDataVisible(bool visible) {
    for (QCPAxis* axis : axisRect()->axes()) {
        axis->setTicks(visible);
        axis->setTickLabels(visible);
        axis->grid()->setVisible(visible);
    }
    // Whole axes (line and title): no bare axes under the message. Only those that were shown
    // come back.
    if (!visible) {
        for (QCPAxis* axis : axisRect()->axes()) {
            if (axis->visible()) hidden_axes_.append(axis);
            axis->setVisible(false);
        }
    } else {
        for (const QPointer<QCPAxis>& axis : std::as_const(hidden_axes_)) {
            if (axis) axis->setVisible(true);
        }
        hidden_axes_.clear();
    }
    for (int i = 0; i < plottableCount(); ++i) plottable(i)->setVisible(visible);
    for (int i = 0; i < itemCount(); ++i) item(i)->setVisible(visible);
    for (QCPLayoutElement* e : plotLayout()->elements(false)) {
        if (qobject_cast<QCPColorScale*>(e)) e->setVisible(visible);
    }
    if (legend->layout() == plotLayout() || legend->visible()) legend->setVisible(visible && legend->itemCount() > 0);
}

void Plot::showNoData(const QString& message) {
    no_data_ = message.isEmpty() ? tr("No data yet") : message;
    setDataVisible(false);
    xAxis->setRange(0, 1);
    yAxis->setRange(0, 1);
    replot(rpQueuedReplot);
    update();
}

void Plot::setHome(const QCPRange& x, const QCPRange& y) {
    if (!no_data_.isEmpty()) {
        no_data_.clear();
        setDataVisible(true);
    }
    home_x_ = x;
    home_y_ = y;
    if (!x.contains(cursor_.x()) || !y.contains(cursor_.y())) cursor_ = {-1, -1}; // another shape of data
    setXRange(token_axis_ && shared_x_ ? *shared_x_ : x); // a shared zoom outlives new data
    yAxis->setRange(y);
}

void Plot::resetView() {
    if (!no_data_.isEmpty()) return;
    setXRange(home_x_);
    yAxis->setRange(home_y_);
    replot(rpQueuedReplot);
    if (token_axis_ && shared_x_) {
        shared_x_.reset();
        emit tokenRangeChanged(std::nullopt);
    }
}

void Plot::setHoverText(std::function<QString(double, double)> text) { hover_ = std::move(text); }

QString Plot::hoverTextAt(const QPointF& pixel) const {
    if (!hover_ || !no_data_.isEmpty() || !axisRect()->rect().contains(pixel.toPoint())) return {};
    return hover_(xAxis->pixelToCoord(pixel.x()), yAxis->pixelToCoord(pixel.y()));
}

void Plot::paintEvent(QPaintEvent* event) {
    QCustomPlot::paintEvent(event);
    if (no_data_.isEmpty() && keyboard_cells_ && hasFocus() && cursor_.x() >= 0) { // the keyboard's cell
        const QRectF cell(QPointF(xAxis->coordToPixel(cursor_.x() - 0.5), yAxis->coordToPixel(cursor_.y() + 0.5)),
                          QPointF(xAxis->coordToPixel(cursor_.x() + 0.5), yAxis->coordToPixel(cursor_.y() - 0.5)));
        QPainter p(this);
        p.setClipRect(axisRect()->rect());
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(Qt::black, 4));
        p.drawRect(cell.normalized());
        p.setPen(QPen(Qt::white, 2));
        p.drawRect(cell.normalized());
    }
    if (no_data_.isEmpty()) {
        QPainter p(this);
        paintMarks(p);
        return;
    }
    QPainter p(this);
    p.setPen(QApplication::palette().color(QPalette::PlaceholderText));
    p.drawText(axisRect()->rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap, no_data_);
}

bool Plot::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) { // the readout under the mouse, else how to move the view
        auto* help = static_cast<QHelpEvent*>(event);
        QString text = hoverTextAt(help->pos());
        if (text.isEmpty() && no_data_.isEmpty()) text = tr("Click, then wheel: zoom (or Ctrl+wheel) · drag: pan · double-click or R: reset view");
        if (text.isEmpty()) QToolTip::hideText();
        else QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QCustomPlot::event(event);
}

void Plot::paintMarks(QPainter& p) {
    const auto rect = [this](Span s) { // a band's open ends drawn on the axis rect's edge
        const QCPRange xr = xAxis->range(), yr = yAxis->range();
        s.x0 = std::clamp(s.x0, xr.lower, xr.upper);
        s.x1 = std::clamp(s.x1, xr.lower, xr.upper);
        s.y0 = std::clamp(s.y0, yr.lower, yr.upper);
        s.y1 = std::clamp(s.y1, yr.lower, yr.upper);
        return QRectF(QPointF(xAxis->coordToPixel(s.x0), yAxis->coordToPixel(s.y0)), QPointF(xAxis->coordToPixel(s.x1), yAxis->coordToPixel(s.y1)))
            .normalized();
    };
    p.setClipRect(axisRect()->rect());
    if (marks_.band) { // a stretch of positions: tinted, its edges drawn
        QColor tint = QApplication::palette().color(QPalette::Highlight);
        tint.setAlpha(60);
        p.setBrush(tint);
        p.setPen(QPen(QApplication::palette().color(QPalette::Highlight), 2));
        p.drawRect(rect(*marks_.band));
    }
    p.setBrush(Qt::NoBrush);
    if (marks_.hovered && marks_.hovered != marks_.selected) { // dashed: where the pointer is, here or in another view
        const QRectF r = rect(*marks_.hovered);
        p.setPen(QPen(Qt::black, 3, Qt::SolidLine));
        p.drawRect(r);
        p.setPen(QPen(Qt::white, 1.5, Qt::DashLine));
        p.drawRect(r);
    }
    if (marks_.selected) { // solid: what is selected, here or in another view
        const QRectF r = rect(*marks_.selected);
        p.setPen(QPen(Qt::black, 4));
        p.drawRect(r);
        p.setPen(QPen(QColor(0xFF, 0xD7, 0x00), 2)); // gold: apart from the keyboard's white cell
        p.drawRect(r);
    }
}

void Plot::mousePressEvent(QMouseEvent* event) {
    pressed_at_ = event->position();
    QCustomPlot::mousePressEvent(event);
}

void Plot::mouseReleaseEvent(QMouseEvent* event) {
    QCustomPlot::mouseReleaseEvent(event);
    const QPointF at = event->position();
    const bool still = (at - pressed_at_).manhattanLength() <= 3.0;
    pressed_at_ = {-1, -1};
    if (still && event->button() == Qt::LeftButton && no_data_.isEmpty() && axisRect()->rect().contains(at.toPoint())) {
        emit cellClicked(xAxis->pixelToCoord(at.x()), yAxis->pixelToCoord(at.y()));
    }
}

void Plot::leaveEvent(QEvent* event) {
    QCustomPlot::leaveEvent(event);
    if (pointer_in_) {
        pointer_in_ = false;
        emit pointerLeft();
    }
}

void Plot::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    const bool inside = no_data_.isEmpty() && axisRect()->rect().contains(event->position().toPoint());
    if (inside && event->buttons() == Qt::NoButton) {
        pointer_in_ = true;
        emit pointerAt(xAxis->pixelToCoord(event->position().x()), yAxis->pixelToCoord(event->position().y()));
    } else if (!inside && pointer_in_) {
        pointer_in_ = false;
        emit pointerLeft();
    }
    if (event->buttons() == Qt::NoButton && QToolTip::isVisible() && hover_) { // follow the mouse once shown
        const QString text = hoverTextAt(event->position());
        if (!text.isEmpty()) QToolTip::showText(event->globalPosition().toPoint(), text, this);
    }
}

// The wheel zooms a plot that has the focus (a click or Tab gives it) or with Ctrl held; else
// it is left to the scroll area around the plot, so scrolling a dock never zooms a plot that
// happens to pass under the pointer.
void Plot::wheelEvent(QWheelEvent* event) {
    if (!no_data_.isEmpty() || (!hasFocus() && !(event->modifiers() & Qt::ControlModifier))) {
        event->ignore();
        return;
    }
    QCustomPlot::wheelEvent(event);
}

void Plot::mouseDoubleClickEvent(QMouseEvent* event) {
    QCustomPlot::mouseDoubleClickEvent(event);
    resetView();
}

void Plot::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_R && event->modifiers() == Qt::NoModifier) {
        resetView();
        return;
    }
    if (keyboard_cells_ && event->modifiers() == Qt::NoModifier && moveCursor(event->key())) return;
    QCustomPlot::keyPressEvent(event);
}

void Plot::setKeyboardCells(bool on) {
    keyboard_cells_ = on;
    setFocusPolicy(on ? Qt::StrongFocus : Qt::ClickFocus);
    cursor_ = {-1, -1};
}

// The cells of the home view are the whole numbers inside its ranges.
bool Plot::moveCursor(int key) {
    if (!no_data_.isEmpty()) return false;
    const int x0 = static_cast<int>(std::ceil(home_x_.lower)), x1 = static_cast<int>(std::floor(home_x_.upper));
    const int y0 = static_cast<int>(std::ceil(home_y_.lower)), y1 = static_cast<int>(std::floor(home_y_.upper));
    if (x1 < x0 || y1 < y0) return false;
    QPoint c = cursor_.x() < 0 ? QPoint(x0, y0) : cursor_;
    const bool started = cursor_.x() >= 0;
    switch (key) {
    case Qt::Key_Left: c.rx() -= started ? 1 : 0; break;
    case Qt::Key_Right: c.rx() += started ? 1 : 0; break;
    case Qt::Key_Down: c.ry() -= started ? 1 : 0; break;
    case Qt::Key_Up: c.ry() += started ? 1 : 0; break;
    case Qt::Key_Home: c.rx() = x0; break;
    case Qt::Key_End: c.rx() = x1; break;
    default: return false;
    }
    cursor_ = QPoint(std::clamp(c.x(), x0, x1), std::clamp(c.y(), y0, y1));
    showReadout();
    update();
    return true;
}

QString Plot::cellReadout() const {
    if (!hover_ || cursor_.x() < 0 || !no_data_.isEmpty()) return {};
    return hover_(cursor_.x(), cursor_.y());
}

void Plot::showReadout() {
    const QString text = cellReadout();
    setAccessibleDescription(text); // what a screen reader says for the cell
    const QPoint at(static_cast<int>(xAxis->coordToPixel(cursor_.x() + 0.5)), static_cast<int>(yAxis->coordToPixel(cursor_.y() - 0.5)));
    if (text.isEmpty()) QToolTip::hideText();
    else QToolTip::showText(mapToGlobal(at), text, this);
}

void Plot::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    menu.addAction(tr("&Reset View"), this, &Plot::resetView)->setEnabled(no_data_.isEmpty());
    menu.exec(event->globalPos());
}

} // namespace octo::ui
