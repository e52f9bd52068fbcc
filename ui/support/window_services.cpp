#include "ui/support/window_services.h"

#include <QStatusBar>
#include <QWidget>

#include "ui/support/plot.h"
#include "ui/support/status_message.h"

namespace octo::ui {

void StatusBarSink::showMessage(const QString& text, int timeout_ms) { bar_.showMessage(text, timeout_ms); }

void StatusBarSink::showError(const QString& text, int timeout_ms) { show_status_error(bar_, text, timeout_ms); }

void StatusBarSink::addIndicator(QWidget* widget) { bar_.addWidget(widget); }

void StatusBarSink::setIndicatorShown(QWidget* widget, bool shown) {
    if (!shown) return widget->hide();
    if (bar_.currentMessage().isEmpty()) return widget->show();
    // As QStatusBar hides its widgets under a message: hidden, not explicitly, so that it shows
    // again when the message goes.
    widget->hide();
    widget->setAttribute(Qt::WA_WState_ExplicitShowHide, false);
}

QString plot_file_name(const Plot& plot) { return plot.objectName().isEmpty() ? QStringLiteral("plot") : plot.objectName(); }

QPixmap WidgetPictures::windowPicture() const { return widget_.grab(); }

QList<Plot*> WidgetPictures::plots() const { return widget_.findChildren<Plot*>(); }

} // namespace octo::ui
