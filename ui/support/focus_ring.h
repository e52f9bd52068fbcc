// A focus ring that can be seen: when the keyboard moves the focus (Tab, Shift+Tab, an access
// key), a 2-pixel frame in the palette's highlight colour is drawn around the focused widget,
// over its neighbours, and follows it while it moves or resizes. A click that focuses a widget
// shows no ring (the pointer already says where the user is), as browsers do with :focus-visible.
#pragma once

#include <QObject>
#include <QPointer>
#include <QWidget>

namespace octo::ui {

class FocusRing : public QObject {
    Q_OBJECT
public:
    static constexpr int kWidth = 2;

    // The application's one ring (made on the first call; it watches every widget).
    static FocusRing* install();

    QWidget* target() const { return target_; }   // the widget ringed now (null: none)
    QWidget* overlay() const { return overlay_; } // the frame drawn around it (null or hidden: none)

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    FocusRing();
    void ring(QWidget* widget);
    void place();

    QPointer<QWidget> target_;
    QPointer<QWidget> overlay_; // a child of the target's parent, made again if that parent goes
};

} // namespace octo::ui
