#include "ui/support/note_frame.h"

#include <QFrame>
#include <QLabel>
#include <QStyle>
#include <QToolButton>

namespace octo::ui {

void style_as_note(QFrame& frame) {
    frame.setFrameShape(QFrame::StyledPanel);
    frame.setAutoFillBackground(true);
    frame.setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    QPalette p = frame.palette();
    p.setColor(QPalette::Window, p.color(QPalette::ToolTipBase));
    p.setColor(QPalette::WindowText, p.color(QPalette::ToolTipText));
    frame.setPalette(p);
}

QLabel* new_note_text(QFrame& frame, const QString& object_name) {
    auto* text = new QLabel(&frame);
    text->setObjectName(object_name);
    text->setWordWrap(true);
    text->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    return text;
}

QToolButton* new_note_close(QFrame& frame, const QString& object_name) {
    auto* close = new QToolButton(&frame);
    close->setObjectName(object_name);
    close->setIcon(frame.style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    close->setAutoRaise(true);
    return close;
}

} // namespace octo::ui
