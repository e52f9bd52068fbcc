// The prompt editor and the run's settings: plain text with undo/redo, chat mode (system + user
// through the model's template), sampling, precision (the model's default, reference or exact),
// DLA and attention recording; Ctrl+Enter runs, Esc cancels.
#pragma once

#include <QWidget>

#include <optional>

#include "engine/generation/run_spec.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QCheckBox;
class QLineEdit;
class QSpinBox;
class QDoubleSpinBox;
class QPushButton;
class QSettings;

namespace octo::ui {

class PromptPanel : public QWidget {
    Q_OBJECT
public:
    explicit PromptPanel(QWidget* parent = nullptr);

    QPlainTextEdit* editor() const { return editor_; }
    // The run spec the panel describes (subsystem switches are added by the caller).
    RunSpec spec() const;
    // Puts a run's prompt and the rest of its spec back (history).
    void restore(const RunSpec& spec);
    void setRunning(bool running);
    void save(QSettings& settings) const;
    void load(const QSettings& settings);
    // The loaded model's default precision (nullopt: no model), shown in the Precision choice.
    void setModelPrecision(std::optional<Precision> model_default);
    // Runs go to a server (true) or a local model: "Record attention" is unticked and disabled
    // on a server (it sends no attention weights) and the user's own choice comes back after.
    void setOnServer(bool on_server);
    // Shows the reasoning level beside the system message (a model whose chat template is
    // harmony, gpt-oss); hidden otherwise, where no template reads it.
    void setReasoningShown(bool shown);
    QComboBox* reasoningBox() const { return reasoning_; }
    QComboBox* precisionBox() const { return precision_; }
    QComboBox* outputBox() const { return output_; }
    // Shows `note` above the editor (the first-start hint); the panel owns it from now on.
    void addNote(QWidget* note);

signals:
    void runRequested();
    void cancelRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The form's captions, kept for retranslate().
    struct Captions {
        QLabel* max_tokens;
        QLabel* temperature;
        QLabel* seed;
        QLabel* top_p;
        QLabel* top_k;
        QLabel* precision;
        QLabel* output;
    };
    void createTextFields(); // the editor, Chat, the system message, the reasoning level
    void createSettings();   // max tokens, sampling, precision, output
    void createActions();    // DLA, Record attention, Run, Cancel
    Captions layOut();       // rows and tab order
    void retranslate(const Captions& c);
    QString attentionTip() const; // what "Record attention" does, or why it is off on a server
    // The Structured output choice (Output row): free text, any JSON object, a JSON Schema or a
    // GBNF grammar; the last two keep their text here and are edited in StructuredOutputDialog.
    enum OutputKind { FreeText = 0, JsonObject = 1, JsonSchema = 2, Grammar = 3 };
    void editOutput();          // the dialog for the current kind; back to the last kind when cancelled empty
    void showOutputSummary();   // the Edit button's tooltip: the text in use

    bool attention_local_ = true; // the choice for local models while a server is connected
    std::optional<Precision> model_precision_; // the loaded model's default precision
    QPlainTextEdit* editor_;
    QCheckBox* chat_;
    QLineEdit* system_;
    QComboBox* reasoning_;
    QSpinBox* max_tokens_;
    QDoubleSpinBox* temperature_;
    QSpinBox* seed_;
    QDoubleSpinBox* top_p_;
    QSpinBox* top_k_;
    QComboBox* precision_; // data: -1 the model's default, else a Precision
    QComboBox* output_;
    QPushButton* output_edit_;
    QString schema_text_;  // OutputKind::JsonSchema's schema
    QString grammar_text_; // OutputKind::Grammar's GBNF
    int last_output_ = FreeText;
    QCheckBox* dla_;
    QCheckBox* attention_;
    QPushButton* run_;
    QPushButton* cancel_;
};

} // namespace octo::ui
