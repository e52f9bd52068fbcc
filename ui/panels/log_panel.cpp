#include "ui/panels/log_panel.h"

#include <QDesktopServices>
#include <QDir>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/support/retranslate.h"
#include "ui/session/app_log.h"
#include "ui/session/log_feed.h"

namespace octo::ui {

namespace {

// Readable on the light and the dark palette; info keeps the text colour.
QString level_colour(spdlog::level::level_enum level) {
    switch (level) {
    case spdlog::level::trace:
    case spdlog::level::debug: return QStringLiteral("#808080");
    case spdlog::level::warn: return QStringLiteral("#c77c00");
    case spdlog::level::err: return QStringLiteral("#d03030");
    case spdlog::level::critical: return QStringLiteral("#a00000");
    default: return {};
    }
}

} // namespace

LogPanel::LogPanel(std::shared_ptr<LogFeed> feed, QWidget* parent) : QWidget(parent), feed_(std::move(feed)) {
    view_ = new QPlainTextEdit(this);
    view_->setObjectName(QStringLiteral("logView"));
    view_->setReadOnly(true);
    view_->setLineWrapMode(QPlainTextEdit::NoWrap);
    view_->setMaximumBlockCount(static_cast<int>(LogFeed::kKeptLines));
    view_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* clear_button = new QPushButton(this);
    auto* folder = new QPushButton(this);
    on_language_change(this, [clear_button, folder] {
        // Access keys unique in the window: Alt+C is Chat, Alt+F the File menu.
        clear_button->setText(tr("C&lear"));
        folder->setText(tr("Open Lo&g Folder"));
    });
    folder->setToolTip(QString::fromStdString(log_file_path().parent_path().string()));
    connect(clear_button, &QPushButton::clicked, this, &LogPanel::clear);
    connect(folder, &QPushButton::clicked, this, [] {
        const QString dir = QString::fromStdString(log_file_path().parent_path().string());
        QDir().mkpath(dir);
        QDesktopServices::openUrl(QUrl::fromLocalFile(dir));
    });
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(clear_button);
    buttons->addWidget(folder);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(view_, 1);
    layout->addLayout(buttons);
    if (!feed_) return;
    append(feed_->recent());
    connect(feed_.get(), &LogFeed::linesAdded, this, &LogPanel::append);
}

void LogPanel::clear() {
    view_->clear();
    if (feed_) feed_->clear();
}

void LogPanel::append(const std::vector<LogLine>& lines) {
    for (const LogLine& line : lines) {
        const QString colour = level_colour(line.level);
        const QString text = line.text.toHtmlEscaped();
        view_->appendHtml(colour.isEmpty() ? QStringLiteral("<span style=\"white-space:pre\">%1</span>").arg(text)
                                           : QStringLiteral("<span style=\"white-space:pre; color:%1\">%2</span>").arg(colour, text));
    }
    view_->horizontalScrollBar()->setValue(0); // the lines' beginnings (time, level) stay in view
}

} // namespace octo::ui
