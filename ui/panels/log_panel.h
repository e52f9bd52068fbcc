// The application log in a dock (hidden until View → Log): the recent lines (the feed keeps the
// last 2,000) coloured by level, Clear, and Open Log Folder.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

class QPlainTextEdit;

namespace octo::ui {

class LogFeed;
struct LogLine;

class LogPanel : public QWidget {
    Q_OBJECT
public:
    // `feed` may be null (the log is not set up): the panel then stays empty.
    explicit LogPanel(std::shared_ptr<LogFeed> feed, QWidget* parent = nullptr);

    QPlainTextEdit* view() const { return view_; }
    void clear();

private:
    void append(const std::vector<LogLine>& lines);

    std::shared_ptr<LogFeed> feed_;
    QPlainTextEdit* view_;
};

} // namespace octo::ui
