// The answer pane (docs/workbench.md, "The answer"): the shown run's answer as text, rendered as
// Markdown or as its characters, its header saying how long it is and how it stopped; selecting
// text selects the token it starts in (every view follows), the selected token is marked in the
// text; Copy gives the rendered text, Copy Markdown the source; beside or under the token stream,
// remembered. The built-in octet model writes a known Markdown answer under a GBNF grammar. With
// OCTOSCOPE_SCREENSHOT_DIR set, the window is saved there as answer-pane.png at 1366 × 768.
#include <QApplication>
#include <QClipboard>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTextBrowser>
#include <QTextCursor>
#include <QToolButton>
#include <QtTest>

#include "ui/controllers/run_controller.h"
#include "ui/main_window.h"
#include "ui/panels/prompt_panel.h"
#include "ui/views/answer_view.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");
const char* const kMarkdown = "# Pets\n\n- cat\n- dog\n\nSay `hi`.";

bool load(MainWindow& w) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(kOctet);
    return loaded.wait(30000);
}

// A run of octet whose answer is exactly kMarkdown (a GBNF grammar holds it to the text).
bool runMarkdown(MainWindow& w) {
    PromptPanel* panel = part<PromptPanel>(w);
    panel->editor()->setPlainText(QStringLiteral("List two pets."));
    RunSpec s = w.runs().editorSpec();
    std::string literal;
    for (const char c : std::string(kMarkdown)) literal += c == '\n' ? std::string("\\n") : c == '"' ? std::string("\\\"") : std::string(1, c);
    s.grammar = "root ::= \"" + literal + "\"";
    s.max_tokens = 60;
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(s);
    return settled.wait(60000);
}

} // namespace

class TestAnswerView : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }
    void theAnswerIsReadableSelectableAndCopyable();
    void placementIsRemembered();
};

void TestAnswerView::theAnswerIsReadableSelectableAndCopyable() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w));
    QVERIFY(runMarkdown(w));
    const RunRecord* run = w.store().current();
    QVERIFY(run);
    QCOMPARE(run->generated_text(), QString::fromUtf8(kMarkdown));
    AnswerView* answer = part<AnswerView>(w);
    QCOMPARE(answer->answerText(), QString::fromUtf8(kMarkdown));
    QVERIFY2(answer->headerText().contains(QStringLiteral("stopped: end of generation")), qPrintable(answer->headerText()));
    QVERIFY2(answer->headerText().contains(QStringLiteral("%1 tokens").arg(run->n_generated())), qPrintable(answer->headerText()));
    QVERIFY2(answer->headerText().contains(QStringLiteral("tokens/s")), qPrintable(answer->headerText()));

    // Markdown: the heading and the list are rendered, their markup gone from the shown text.
    QCOMPARE(answer->rendering(), AnswerView::Rendering::Markdown);
    const QString shown = answer->browser()->toPlainText();
    QVERIFY2(shown.contains(QStringLiteral("Pets")) && !shown.contains(QStringLiteral("# Pets")), qPrintable(shown));
    QVERIFY2(!shown.contains(QStringLiteral("- cat")), qPrintable(shown));
    QVERIFY(answer->browser()->document()->toMarkdown().contains(QStringLiteral("- cat")));
    test::screenshot(w, QStringLiteral("answer-pane.png"));
    answer->copyMarkdown();
    QCOMPARE(QApplication::clipboard()->text(), QString::fromUtf8(kMarkdown));
    answer->copyText();
    QCOMPARE(QApplication::clipboard()->text(), shown);

    // Plain text: the characters exactly; a selection selects the token it starts in.
    answer->findChild<QToolButton*>(QStringLiteral("answerMarkdown"))->click();
    QCOMPARE(answer->rendering(), AnswerView::Rendering::Text);
    QCOMPARE(answer->browser()->toPlainText(), QString::fromUtf8(kMarkdown));
    const int dog = static_cast<int>(QString::fromUtf8(kMarkdown).indexOf(QStringLiteral("dog")));
    const int token = answer->tokenAt(dog);
    QVERIFY(token >= static_cast<int>(run->n_prompt()));
    std::string before; // the answer up to that token: it ends at or before 'd', and the token goes past it
    for (int i = static_cast<int>(run->n_prompt()); i < token; ++i) before += run->tokens()[static_cast<size_t>(i)].visible_text;
    QVERIFY(static_cast<int>(before.size()) <= dog);
    QVERIFY(static_cast<int>(before.size() + run->tokens()[static_cast<size_t>(token)].visible_text.size()) > dog);
    QTextCursor cursor(answer->browser()->document());
    cursor.setPosition(dog);
    cursor.setPosition(dog + 3, QTextCursor::KeepAnchor);
    answer->browser()->setTextCursor(cursor);
    QCOMPARE(w.store().selected_token(), token);
    // Selecting a token elsewhere marks its text here.
    const int last = static_cast<int>(run->tokens().size()) - 1;
    int marked = last;
    while (marked > static_cast<int>(run->n_prompt()) && run->tokens()[static_cast<size_t>(marked)].visible_text.empty()) --marked;
    w.store().select_token(marked);
    const auto marks = answer->browser()->extraSelections();
    QCOMPARE(marks.size(), 1);
    QCOMPARE(marks.first().cursor.selectedText(), QString::fromStdString(run->tokens()[static_cast<size_t>(marked)].visible_text));
    QVERIFY(answer->tokenAt(static_cast<int>(QString::fromUtf8(kMarkdown).size())) < 0);
}

void TestAnswerView::placementIsRemembered() {
    {
        MainWindow w;
        w.show();
        auto* split = w.findChild<QSplitter*>(QStringLiteral("answerSplit"));
        QVERIFY(split);
        QCOMPARE(split->orientation(), Qt::Vertical); // under the token stream at first
        part<AnswerView>(w)->findChild<QToolButton*>(QStringLiteral("answerBeside"))->click();
        QCOMPARE(split->orientation(), Qt::Horizontal);
        part<AnswerView>(w)->findChild<QToolButton*>(QStringLiteral("answerMarkdown"))->click();
    }
    MainWindow again;
    again.show();
    QCOMPARE(again.findChild<QSplitter*>(QStringLiteral("answerSplit"))->orientation(), Qt::Horizontal);
    QVERIFY(part<AnswerView>(again)->beside());
    QCOMPARE(part<AnswerView>(again)->rendering(), AnswerView::Rendering::Text);
}

QTEST_MAIN(TestAnswerView)
#include "test_answer_view.moc"
