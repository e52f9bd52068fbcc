// The text behind a run's Structured output setting: a JSON Schema or a GBNF grammar, typed or
// loaded from a file, checked before it is accepted (the compiler's error, with the keyword's JSON
// pointer or the grammar's line, stays in the dialog until it is fixed or cancelled).
#pragma once

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace octo::ui {

class StructuredOutputDialog : public QDialog {
    Q_OBJECT
public:
    enum class Kind { JsonSchema, Grammar };
    StructuredOutputDialog(Kind kind, const QString& text, QWidget* parent = nullptr);

    QString text() const;
    // The grammar the text gives (a schema compiled to GBNF), or the error that stops it.
    static QString compile(Kind kind, const QString& text, QString* error);

    void accept() override;

private:
    void loadFile();

    Kind kind_;
    QPlainTextEdit* editor_;
    QLabel* error_;
};

} // namespace octo::ui
