// The claims lab's presenter mode: one claim per screen for a lecture — the article's words and
// figure (about GPT-4, unverified), what was measured on the loaded model with its interval and
// verdict, the plot, and what the result is evidence of. Right / Space / Page Down go on, Left /
// Page Up go back, Home / End jump, F11 toggles full screen, Escape closes.
#pragma once

#include <QDialog>

class QLabel;
class QPushButton;

namespace octo::ui {

class ClaimsStore;
class ClaimPlotView;
class ClaimVerdictView;

class ClaimsPresenter : public QDialog {
    Q_OBJECT
public:
    ClaimsPresenter(ClaimsStore& store, QWidget* parent = nullptr);

    void showClaim(int index); // clamped to the claims
    int index() const { return index_; }
    QLabel* headline() const { return headline_; }
    QLabel* measured() const { return measured_; }
    ClaimPlotView* plotView() const { return plot_; }
    ClaimVerdictView* verdictView() const { return verdict_; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    ClaimsStore& store_;
    int index_ = 0;
    QLabel* position_;
    QLabel* headline_;
    QLabel* article_;
    QLabel* measured_;
    QLabel* note_;
    ClaimPlotView* plot_;
    ClaimVerdictView* verdict_;
    QPushButton* previous_;
    QPushButton* next_;
};

} // namespace octo::ui
