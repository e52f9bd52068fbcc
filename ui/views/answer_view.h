// The shown run's answer as a reader wants it: text to read, select and copy, beside or under the
// token stream. Its header says how long the answer is, how it stopped and how fast it came; the
// text is rendered as Markdown (headings, lists, tables, code blocks shown as such) or as plain
// text (the model's characters exactly). Selecting text selects the token it starts in, so every
// view follows (RunStore::select_token); the selected token's text is marked in turn (plain text:
// exactly; Markdown: its first occurrence from the selection's line). Copy gives the rendered text,
// Copy Markdown the answer as the model wrote it.
#pragma once

#include <QString>
#include <QWidget>

#include <vector>

class QLabel;
class QTextBrowser;
class QToolButton;

namespace octo::ui {

class RunStore;

class AnswerView : public QWidget {
    Q_OBJECT
public:
    enum class Rendering { Markdown, Text };

    explicit AnswerView(RunStore& store, QWidget* parent = nullptr);

    Rendering rendering() const { return rendering_; }
    void setRendering(Rendering rendering);
    // Where the pane sits beside the token stream (true) or under it; the window applies it.
    bool beside() const { return beside_; }
    void setBeside(bool beside);

    QString answerText() const { return answer_; } // the generated text, as the model wrote it
    QString headerText() const;
    QTextBrowser* browser() const { return browser_; }
    // The generated token (index into the run's tokens) whose text holds character `at` of
    // answerText(); -1 when none (no run, or past the end).
    int tokenAt(int at) const;
    void copyText() const;     // the rendered text
    void copyMarkdown() const; // answerText()

signals:
    void placementChanged(bool beside);
    void renderingChanged(octo::ui::AnswerView::Rendering rendering);

private:
    void rebuild();
    void refreshHeader();
    void markSelected();
    void selectFromBrowser();
    void retranslate();

    RunStore& store_;
    QLabel* header_;
    QToolButton* rendering_button_;
    QToolButton* placement_button_;
    QToolButton* copy_button_;
    QToolButton* copy_markdown_button_;
    QTextBrowser* browser_;
    Rendering rendering_ = Rendering::Markdown;
    bool beside_ = false;
    QString answer_;
    std::vector<int> starts_; // [generated tokens + 1] each token's first character in answer_
    int first_generated_ = 0; // the run's index of the first generated token
    bool selecting_ = false;  // a selection made here is being passed on (not marked back)
};

} // namespace octo::ui
