// The first-start hint: a note above the token stream (where a first start has room; above the
// prompt editor it pushed Run off a 768-line screen) saying what the built-in model octet is
// and is not — a small teaching model trained on a synthetic task set, with eight head groups,
// that answers the kinds of prompts in Help → Examples and is no general chat model — with an
// Examples… button and a close button. It is not modal. Closing it sets the QSettings flag
// "onboarding/hintDismissed", and it is not offered again. MainWindow offers it when an
// interactive session starts (MainWindow::startSession), so headless runs and tests never see it
// unless they ask (MainWindow::offerFirstStartHint).
#pragma once

#include <QFrame>

#include <functional>

namespace octo::ui {

class FirstStartHint : public QFrame {
    Q_OBJECT
public:
    // `show_examples`: what the Examples… button does (Help → Examples…).
    explicit FirstStartHint(std::function<void()> show_examples, QWidget* parent = nullptr);

    // True until the hint has been dismissed once (the QSettings flag).
    static bool wanted();
    // Dismisses it for good: sets the flag and removes the note.
    void dismiss();

signals:
    void dismissed();
};

} // namespace octo::ui
