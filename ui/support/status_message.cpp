#include "ui/support/status_message.h"

#include <QFontMetrics>
#include <QRegularExpression>
#include <QStatusBar>

#include <algorithm>

namespace octo::ui {

QString status_line_text(const QString& message, const QFontMetrics& metrics, int width) {
    QString line = message.simplified(); // one line, single spaces
    static const QRegularExpression path(QStringLiteral(R"((?:~|\.{1,2})?(?:/[^/\s:'"“”(),;]+)+/([^/\s:'"“”(),;]+))"));
    line.replace(path, QStringLiteral("\\1"));
    return metrics.elidedText(line, Qt::ElideRight, std::max(40, width));
}

void show_status_error(QStatusBar& bar, const QString& text, int timeout_ms) {
    // About two thirds of the bar: the permanent widgets (model, speed, memory) keep their place.
    bar.showMessage(status_line_text(text, bar.fontMetrics(), bar.width() * 2 / 3), timeout_ms);
}

} // namespace octo::ui
