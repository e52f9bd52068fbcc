#include "ui/support/window_services.h"

#include <QStatusBar>

#include "ui/support/plot.h"
#include "ui/support/status_message.h"

namespace octo::ui {

void StatusBarSink::showMessage(const QString& text, int timeout_ms) { bar_.showMessage(text, timeout_ms); }

void StatusBarSink::showError(const QString& text, int timeout_ms) { show_status_error(bar_, text, timeout_ms); }

void StatusBarSink::addIndicator(QWidget* widget) { bar_.addWidget(widget); }

QString plot_file_name(const Plot& plot) { return plot.objectName().isEmpty() ? QStringLiteral("plot") : plot.objectName(); }

QPixmap WidgetPictures::windowPicture() const { return widget_.grab(); }

QList<Plot*> WidgetPictures::plots() const { return widget_.findChildren<Plot*>(); }

} // namespace octo::ui
