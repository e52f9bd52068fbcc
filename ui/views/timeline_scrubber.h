// Teaching replay's timeline: a slider over the shown run's tokens (prompt and generated) with
// step buttons; moving it selects the token, so every view follows (RunStore::select_token).
// Alt+Left / Alt+Right (and [ / ]) step back and forward anywhere in the window; Alt+Home /
// Alt+End jump to the first and last token.
#pragma once

#include <QWidget>

class QAction;
class QLabel;
class QSlider;
class QToolButton;

namespace octo::ui {

class RunStore;

class TimelineScrubber : public QWidget {
    Q_OBJECT
public:
    explicit TimelineScrubber(RunStore& store, QWidget* parent = nullptr);

    void stepBack();
    void stepForward();
    QSlider* slider() const { return slider_; }
    // The window-wide shortcuts (the main window adds them so they work wherever focus is).
    QList<QAction*> shortcutActions() const;

private:
    void refresh();
    void seek(int index);

    RunStore& store_;
    QToolButton* back_;
    QToolButton* forward_;
    QSlider* slider_;
    QLabel* position_;
    QAction* back_action_;
    QAction* forward_action_;
    QAction* first_action_;
    QAction* last_action_;
};

} // namespace octo::ui
