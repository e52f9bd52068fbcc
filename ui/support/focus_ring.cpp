#include "ui/support/focus_ring.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QFocusEvent>
#include <QPainter>

namespace octo::ui {

namespace {

// The frame itself: transparent to the mouse, never focused, a highlight-coloured outline.
class RingOverlay : public QWidget {
public:
    explicit RingOverlay(QWidget* parent) : QWidget(parent) {
        setObjectName(QStringLiteral("focusRing"));
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setFocusPolicy(Qt::NoFocus);
    }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        QPen pen(QApplication::palette().color(QPalette::Highlight), FocusRing::kWidth);
        pen.setJoinStyle(Qt::MiterJoin);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        const double half = FocusRing::kWidth / 2.0;
        p.drawRect(QRectF(rect()).adjusted(half, half, -half, -half));
    }
};

} // namespace

FocusRing::FocusRing() : QObject(qApp) { qApp->installEventFilter(this); }

FocusRing* FocusRing::install() {
    static QPointer<FocusRing> ring;
    if (!ring) ring = new FocusRing;
    return ring;
}

bool FocusRing::eventFilter(QObject* watched, QEvent* event) {
    if (!watched->isWidgetType() || watched == overlay_) return false;
    auto* widget = static_cast<QWidget*>(watched);
    switch (event->type()) {
    case QEvent::FocusIn: {
        const Qt::FocusReason reason = static_cast<QFocusEvent*>(event)->reason();
        const bool keyboard = reason == Qt::TabFocusReason || reason == Qt::BacktabFocusReason || reason == Qt::ShortcutFocusReason;
        ring(keyboard ? widget : nullptr);
        break;
    }
    case QEvent::FocusOut:
        if (widget == target_) ring(nullptr);
        break;
    case QEvent::Move:
    case QEvent::Resize:
        if (widget == target_) place();
        break;
    case QEvent::Hide:
        if (widget == target_) ring(nullptr);
        break;
    default: break;
    }
    return false;
}

void FocusRing::ring(QWidget* widget) {
    // A scroll area's viewport takes the focus for its area: ring the whole area.
    if (widget && widget->parentWidget()) {
        if (auto* area = qobject_cast<QAbstractScrollArea*>(widget->parentWidget()); area && area->viewport() == widget) widget = area;
    }
    target_ = widget && widget->parentWidget() ? widget : nullptr; // a window's own focus needs no ring
    if (!target_) {
        if (overlay_) overlay_->hide();
        return;
    }
    if (!overlay_) overlay_ = new RingOverlay(target_->parentWidget());
    else if (overlay_->parentWidget() != target_->parentWidget()) overlay_->setParent(target_->parentWidget());
    place();
    overlay_->show();
}

void FocusRing::place() {
    if (!target_ || !overlay_) return;
    const int m = kWidth + 1;
    overlay_->setGeometry(target_->geometry().adjusted(-m, -m, m, m));
    overlay_->raise();
    overlay_->update();
}

} // namespace octo::ui
