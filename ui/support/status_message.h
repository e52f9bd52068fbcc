// Errors in the status bar: one line that fits. The full message goes where there is room (a
// dialog, the log); the status bar gets it on one line, folder paths cut to the file name (an
// error names its file once, not its whole path twice) and elided to the bar's width.
#pragma once

#include <QString>

class QFontMetrics;
class QStatusBar;

namespace octo::ui {

// `message` on one line (line breaks and runs of spaces become one space), every absolute path
// shortened to its last component, elided at the right to at most `width` pixels.
QString status_line_text(const QString& message, const QFontMetrics& metrics, int width);

// Shows status_line_text(text) for `timeout_ms`, fitted to the bar's width; the whole text is
// the bar's tooltip until another message replaces the line, and is logged (spdlog, a warning).
void show_status_error(QStatusBar& bar, const QString& text, int timeout_ms);

} // namespace octo::ui
