// The look of the notes shown above the prompt (the first-start hint, the calibration banner): a
// framed panel in the tooltip colours with a close button in its corner.
#pragma once

#include <QString>

class QFrame;
class QLabel;
class QToolButton;

namespace octo::ui {

// Styles `frame` as a note (frame, tooltip colours, as tall as its text).
void style_as_note(QFrame& frame);
// The note's word-wrapped text, never clipped by a short dock.
QLabel* new_note_text(QFrame& frame, const QString& object_name);
// The note's close button (an auto-raised title-bar close icon).
QToolButton* new_note_close(QFrame& frame, const QString& object_name);

} // namespace octo::ui
