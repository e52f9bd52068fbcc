// Run → Quantisation Report…: the same prompts on the loaded model (A) and on another file of it
// (B), and where the two part (engine/evaluation/quant_report.h). Model B, the prompts and the
// answer length are remembered; the report shows a summary, one row per prompt (where the answers
// part, mean and largest KL with B fed A's answer, how often the most probable tokens agree, both
// answers) and how far each subsystem's mean share moved, and saves as the CLI's JSON. The dialog
// keeps no state of its own: it shows QuantReportController's.
#pragma once

#include <QDialog>

#include <functional>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace octo::ui {

class Plot;
class QuantReportController;
class RunStore;

class QuantReportDialog : public QDialog {
    Q_OBJECT
public:
    QuantReportDialog(QuantReportController& controller, const RunStore& store, std::function<QString()> editor_prompt,
                      QWidget* parent = nullptr);

    // What the user set, as the next report runs it.
    QString modelB() const;
    QStringList prompts() const;
    void setModelB(const QString& path);
    void setPrompts(const QStringList& prompts);
    bool runReport(); // Run Report: false when it could not start (the reason is shown)
    // The summary line shown (a screenshot's text, and tests).
    QString summaryText() const;
    QTableWidget* table() const { return table_; }

private:
    void browse();
    void saveJson();
    void refresh();
    void showReport();
    void remember() const;

    QuantReportController& controller_;
    const RunStore& store_;
    QLabel* model_a_;
    QLineEdit* model_b_;
    QPlainTextEdit* prompts_;
    QSpinBox* max_tokens_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* save_;
    QProgressBar* progress_;
    QLabel* status_;
    QLabel* summary_;
    QTableWidget* table_;
    Plot* moved_;
};

} // namespace octo::ui
