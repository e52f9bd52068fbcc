// What a controller may ask of the workbench window, and nothing more: a status line to tell the
// user something (StatusSink), and pictures of the window and its plots for an export or a bug
// report (ScreenshotProvider). Controllers take these, never the window itself; dialogs take a
// plain QWidget parent. The window implements both with the classes below; a test may pass its own.
#pragma once

#include <QList>
#include <QPixmap>
#include <QString>

class QStatusBar;
class QWidget;

namespace octo::ui {

class Plot;

class StatusSink {
public:
    virtual ~StatusSink() = default;
    // A passing message (0: until the next one).
    virtual void showMessage(const QString& text, int timeout_ms = 0) = 0;
    // An error on one line that fits the line (status_message.h: paths shortened, elided).
    virtual void showError(const QString& text, int timeout_ms) = 0;
    // A lasting indicator at the line's left (the shown capture's label); the line takes it over.
    virtual void addIndicator(QWidget* widget) = 0;
    // Shows or hides an indicator. While a message is on the line a shown indicator waits for it
    // to go: never drawn over the message.
    virtual void setIndicatorShown(QWidget* widget, bool shown) = 0;
};

class ScreenshotProvider {
public:
    virtual ~ScreenshotProvider() = default;
    virtual QPixmap windowPicture() const = 0;
    virtual QList<Plot*> plots() const = 0; // every plot in the window, shown or not
};

// The name a plot's exported PNG takes: its object name, "plot" when it has none.
QString plot_file_name(const Plot& plot);

// The window's status bar as a StatusSink.
class StatusBarSink final : public StatusSink {
public:
    explicit StatusBarSink(QStatusBar& bar) : bar_(bar) {}
    void showMessage(const QString& text, int timeout_ms = 0) override;
    void showError(const QString& text, int timeout_ms) override;
    void addIndicator(QWidget* widget) override;
    void setIndicatorShown(QWidget* widget, bool shown) override;

private:
    QStatusBar& bar_;
};

// A widget (the window) and the plots inside it as a ScreenshotProvider.
class WidgetPictures final : public ScreenshotProvider {
public:
    explicit WidgetPictures(QWidget& widget) : widget_(widget) {}
    QPixmap windowPicture() const override;
    QList<Plot*> plots() const override;

private:
    QWidget& widget_;
};

} // namespace octo::ui
