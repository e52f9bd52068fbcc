#include "ui/support/status_message.h"

#include <QFontMetrics>
#include <QRegularExpression>
#include <QStatusBar>

#include <algorithm>

#include <spdlog/spdlog.h>

namespace octo::ui {

QString status_line_text(const QString& message, const QFontMetrics& metrics, int width) {
    QString line = message.simplified(); // one line, single spaces
    // A path starts the text or follows a space, quote, parenthesis or '=': a URL's path is kept.
    static const QRegularExpression path(QStringLiteral(R"((?<![^\s'"“(=])(?:~|\.{1,2})?(?:/[^/\s:'"“”(),;]+)+/([^/\s:'"“”(),;]+))"));
    line.replace(path, QStringLiteral("\\1"));
    return metrics.elidedText(line, Qt::ElideRight, std::max(40, width));
}

namespace {
constexpr const char* kShownLine = "octoErrorLine";     // the error line the tooltip belongs to
constexpr const char* kTipWatched = "octoErrorTipWatched";
} // namespace

void show_status_error(QStatusBar& bar, const QString& text, int timeout_ms) {
    // About two thirds of the bar: the permanent widgets (model, speed, memory) keep their place.
    const QString line = status_line_text(text, bar.fontMetrics(), bar.width() * 2 / 3);
    // Nothing is lost to the elision: the whole message is the bar's tooltip while its line is
    // shown, and it goes to the log.
    if (!bar.property(kTipWatched).toBool()) {
        bar.setProperty(kTipWatched, true);
        QObject::connect(&bar, &QStatusBar::messageChanged, &bar, [&bar](const QString& shown) {
            if (shown != bar.property(kShownLine).toString()) bar.setToolTip(QString());
        });
    }
    bar.setProperty(kShownLine, line);
    bar.setToolTip(text.simplified());
    bar.showMessage(line, timeout_ms);
    spdlog::warn("{}", text.toStdString());
}

} // namespace octo::ui
