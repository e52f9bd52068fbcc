// The router's view of the prompt being typed (docs/router.md): the chosen route, the top 3
// with both stages' scores, the composition, the features that fired — highlighted in the
// editor — and "this route is wrong", which records the right label in the user's probe file
// and refits the centroids (the article's rule 3). RouterController routes, debounced here.
#pragma once

#include <QTimer>
#include <QWidget>

#include <optional>

#include "engine/router/router.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace octo::ui {

class RouterController;

class RouterPanel : public QWidget {
    Q_OBJECT
public:
    static constexpr int kDebounceMs = 150;

    RouterPanel(QPlainTextEdit* editor, RouterController& router, QWidget* parent = nullptr);

    // Loads the router from the resources (and the user's corrections); false with a message
    // shown in the panel when that fails.
    bool load(const QString& resource_dir);
    const std::optional<RouteDecision>& decision() const { return decision_; }
    QString decidedText() const { return decided_text_; } // the prompt decision() is for
    // Shows a recorded decision for `text` (an opened capture) instead of routing it again.
    void showDecision(const QString& text, const RouteDecision& d);
    // Records that the current prompt belongs to `subsystem`, refits, and routes again.
    void correct(int subsystem);
    static QString userProbePath();
    // Whether the loaded model's head groups carry the subsystems' meaning (a map from its GGUF,
    // a file or a calibration). Without it the route is said to be the article's subsystem,
    // which this model's "group N" does not stand for.
    void setModelGroupsNamed(bool named);

signals:
    void routed(); // a new decision is shown
    void decided(const QString& text, const octo::RouteDecision& decision); // the same, with what it is

private:
    void schedule();
    void show(const QString& text, const RouteDecision& d);
    void highlight(const QString& text, const RouteDecision& d);
    void showRoute(); // the decided route in the UI's language

    QPlainTextEdit* editor_;
    RouterController& router_;
    QLabel* route_;
    QTableWidget* table_;
    QLabel* features_;
    QPushButton* wrong_;
    QTimer debounce_;
    std::optional<RouteDecision> decision_;
    QString decided_text_;
    QString load_error_; // why the router did not load
    bool groups_named_ = true;
};

} // namespace octo::ui
