// Onboarding (issue 25), driven through the real widgets offscreen: the Help menu's access keys are
// unique (English and Chinese); Help → Examples… lists resources/examples/octet_examples.json's
// prompts, puts the chosen one into the prompt editor from the keyboard (undoably) and runs it on
// the built-in model with the answer the file states; Help → Keyboard Shortcuts… lists every menu
// action that has a shortcut, one added by the test included; Help → Documentation opens an index
// that exists in the build tree, and names where it looked when there is none; the first-start
// hint appears on a first start and never after it was dismissed. Expected prompts, answers and
// shortcuts are read here from the file and the menus, never from the dialogs under test.
// With OCTOSCOPE_SCREENSHOT_DIR set, each dialog is saved there as PNG.
#include <QAction>
#include <QComboBox>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

#include "ui/main_window.h"
#include "ui/panels/documentation.h"
#include "ui/panels/examples_dialog.h"
#include "ui/panels/first_start_hint.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/shortcuts_dialog.h"
#include "ui/session/run_store.h"
#include "ui/support/language.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;
using octo::ui::test::screenshot;

namespace {

const QString kResources = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources");

struct Example {
    int subsystem;
    QString lang, prompt, answer;
};

// The examples file as the test reads it.
QList<Example> file_examples() {
    QFile f(kResources + QStringLiteral("/examples/octet_examples.json"));
    if (!f.open(QIODevice::ReadOnly)) return {};
    QList<Example> out;
    for (const QJsonValue v : QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("examples")].toArray()) {
        const QJsonObject o = v.toObject();
        out.append({o[QStringLiteral("subsystem")].toString().back().unicode() - 'a', o[QStringLiteral("lang")].toString(),
                    o[QStringLiteral("prompt")].toString(), o[QStringLiteral("answer")].toString()});
    }
    return out;
}

// The English prompts in the order the dialog lists them: by subsystem, then as in the file.
QList<Example> english_in_order() {
    QList<Example> out;
    for (int s = 0; s < 8; ++s) {
        for (const Example& e : file_examples()) {
            if (e.subsystem == s && e.lang == QStringLiteral("en")) out.append(e);
        }
    }
    return out;
}

QAction* help_action(MainWindow& w, const char* name) { return w.findChild<QAction*>(QString::fromLatin1(name)); }

// "&Open Model…" → "Open Model"; "A&&B" → "A&B".
QString without_access_keys(QString text) {
    text.replace(QStringLiteral("&&"), QStringLiteral("\x01")).remove(QLatin1Char('&')).replace(QStringLiteral("\x01"), QStringLiteral("&"));
    if (text.endsWith(QStringLiteral("…"))) text.chop(1);
    return text;
}

// Collects the menu's actions with a shortcut, submenus included.
void shortcut_actions(const QMenu& menu, QList<QAction*>& out) {
    for (QAction* a : menu.actions()) {
        if (a->menu()) {
            shortcut_actions(*a->menu(), out);
        } else if (!a->shortcut().isEmpty()) {
            out.append(a);
        }
    }
}

// Receives what QDesktopServices::openUrl would open.
class UrlCatcher : public QObject {
    Q_OBJECT
public:
    QList<QUrl> urls;
public slots:
    void open(const QUrl& url) { urls.append(url); }
};

} // namespace

class TestOnboarding : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void helpMenuAccessKeysAreUnique();
    void examplesFromTheKeyboard();
    void exampleRunsOnOctet();
    void shortcutsListEveryMenuAction();
    void documentationOpensTheIndex();
    void firstStartHintUntilDismissed();
};

void TestOnboarding::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // settings go to a test location
    QSettings().clear();
    QVERIFY2(file_examples().size() >= 8, "resources/examples/octet_examples.json");
}

void TestOnboarding::helpMenuAccessKeysAreUnique() {
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QVERIFY(install_translations(language));
        MainWindow w;
        auto* help = w.findChild<QMenu*>(QStringLiteral("helpMenu"));
        QVERIFY(help);
        QSet<QChar> keys;
        int entries = 0;
        for (QAction* a : help->actions()) {
            if (a->isSeparator()) continue;
            ++entries;
            static const QRegularExpression key(QStringLiteral("&([^&])"));
            const auto m = key.match(QString(a->text()).remove(QStringLiteral("&&")));
            QVERIFY2(m.hasMatch(), qPrintable(language + QStringLiteral(": no access key in ") + a->text()));
            const QChar k = m.captured(1).at(0).toLower();
            QVERIFY2(!keys.contains(k), qPrintable(language + QStringLiteral(": access key used twice: ") + a->text()));
            keys.insert(k);
        }
        QCOMPARE(entries, 5); // Documentation, Examples, Keyboard Shortcuts, Experts and Subsystems, About
    }
    QVERIFY(install_translations(QStringLiteral("en")));
}

void TestOnboarding::examplesFromTheKeyboard() {
    const QList<Example> english = english_in_order();
    QVERIFY(english.size() >= 8);
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QPlainTextEdit* editor = part<PromptPanel>(w)->editor();
    editor->setPlainText(QStringLiteral("my own prompt"));

    help_action(w, "helpExamples")->trigger();
    auto* dialog = w.findChild<ExamplesDialog*>();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QTreeWidget* list = dialog->list();
    // The prompts, then the English conversations (two scripts octet answers and one with given turns).
    QCOMPARE(list->topLevelItemCount(), static_cast<int>(english.size()) + 2);
    for (int r = static_cast<int>(english.size()); r < list->topLevelItemCount(); ++r) QCOMPARE(list->topLevelItem(r)->text(0), QStringLiteral("Conversation"));
    for (int r = 0; r < english.size(); ++r) {
        QCOMPARE(list->topLevelItem(r)->toolTip(1), english[r].prompt);
        QCOMPARE(list->topLevelItem(r)->text(0), QStringLiteral("rte-%1").arg(QChar('a' + english[r].subsystem)));
    }
    screenshot(*dialog, QStringLiteral("examples-en.png"));

    // The Chinese prompts: every subsystem that has them shows them.
    dialog->findChild<QComboBox*>(QStringLiteral("examplesLanguage"))->setCurrentIndex(1);
    for (int r = 0; r < list->topLevelItemCount(); ++r) {
        if (!list->topLevelItem(r)->text(0).startsWith(QStringLiteral("rte-"))) continue; // a conversation
        const QString shown = list->topLevelItem(r)->toolTip(1);
        bool listed_as_zh = false;
        for (const Example& e : file_examples()) listed_as_zh = listed_as_zh || (e.prompt == shown && e.lang == QStringLiteral("zh"));
        const int s = list->topLevelItem(r)->text(0).back().unicode() - 'a';
        bool subsystem_has_zh = false;
        for (const Example& e : file_examples()) subsystem_has_zh = subsystem_has_zh || (e.subsystem == s && e.lang == QStringLiteral("zh"));
        QCOMPARE(listed_as_zh, subsystem_has_zh);
    }
    screenshot(*dialog, QStringLiteral("examples-zh-prompts.png"));
    dialog->findChild<QComboBox*>(QStringLiteral("examplesLanguage"))->setCurrentIndex(0);

    // Down, then Enter: the second example goes into the editor, as one undoable edit.
    list->setFocus();
    QTest::keyClick(list, Qt::Key_Down);
    QTest::keyClick(list, Qt::Key_Return);
    QCOMPARE(editor->toPlainText(), english[1].prompt);
    QTRY_VERIFY(!w.findChild<ExamplesDialog*>()); // closed and deleted
    editor->undo();
    QCOMPARE(editor->toPlainText(), QStringLiteral("my own prompt"));
    QVERIFY(!w.store().current()); // nothing ran
}

void TestOnboarding::exampleRunsOnOctet() {
    const QList<Example> english = english_in_order();
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(kResources + QStringLiteral("/octet/octet.gguf"));
    QVERIFY(loaded.wait(60000));

    // The first arithmetic example, chosen with the arrow keys and run with Alt+R ("Use and &Run").
    int row = 0;
    while (english[row].subsystem != 2) ++row;
    help_action(w, "helpExamples")->trigger();
    auto* dialog = w.findChild<ExamplesDialog*>();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    for (int k = 0; k < row; ++k) QTest::keyClick(dialog->list(), Qt::Key_Down);
    QSignalSpy settled(&w, &MainWindow::runSettled);
    QTest::keyClick(dialog, Qt::Key_R, Qt::AltModifier);
    QVERIFY(settled.wait(60000));
    const RunRecord* run = w.store().current();
    QVERIFY(run && run->trace.outcome);
    QCOMPARE(QString::fromStdString(run->trace.spec.prompt), english[row].prompt);
    QCOMPARE(QString::fromStdString(run->trace.outcome->text), english[row].answer);
}

void TestOnboarding::shortcutsListEveryMenuAction() {
    MainWindow w;
    w.show();
    // An action the dialog's code has never seen: it must be listed too.
    QMenu* file = w.menuBar()->actions().first()->menu();
    QAction* added = file->addAction(QStringLiteral("Test &Action Added Late"));
    added->setShortcut(QKeySequence(QStringLiteral("Ctrl+Alt+J")));

    help_action(w, "helpShortcuts")->trigger();
    auto* dialog = w.findChild<ShortcutsDialog*>();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QTableWidget* table = dialog->table();
    const auto listed = [table](const QString& keys, const QString& action) {
        for (int r = 0; r < table->rowCount(); ++r) {
            if (table->item(r, 0)->text().split(QStringLiteral(", ")).contains(keys) && table->item(r, 1)->text() == action) return true;
        }
        return false;
    };
    QList<QAction*> expected;
    for (QAction* top : w.menuBar()->actions()) {
        if (top->menu()) shortcut_actions(*top->menu(), expected);
    }
    QVERIFY(expected.size() >= 10);
    QVERIFY(expected.contains(added));
    for (QAction* a : expected) {
        const QString keys = a->shortcut().toString(QKeySequence::NativeText);
        QVERIFY2(listed(keys, without_access_keys(a->text())), qPrintable(keys + QStringLiteral(" ") + a->text()));
    }
    // The window's own keys (the timeline's steps) and a key that is no action.
    const QString alt_left = QKeySequence(QStringLiteral("Alt+Left")).toString(QKeySequence::NativeText);
    bool timeline = false;
    for (int r = 0; r < table->rowCount(); ++r) timeline = timeline || table->item(r, 0)->text().split(QStringLiteral(", ")).contains(alt_left);
    QVERIFY(timeline);
    QVERIFY(!table->findItems(QKeySequence(QStringLiteral("Esc")).toString(QKeySequence::NativeText), Qt::MatchExactly).isEmpty());
    // Every column, its header included, in view without sideways scrolling (the "Where" column
    // once ran past the right edge with its header).
    QApplication::processEvents();
    QHeaderView* header = table->horizontalHeader();
    QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
    for (int c = 0; c < 3; ++c) {
        QVERIFY2(header->sectionViewportPosition(c) >= 0, qPrintable(QString::number(c)));
        QVERIFY2(header->sectionViewportPosition(c) + header->sectionSize(c) <= table->viewport()->width(),
                 qPrintable(QStringLiteral("column %1 ends at %2 of %3").arg(c).arg(header->sectionViewportPosition(c) + header->sectionSize(c)).arg(table->viewport()->width())));
        const QString label = table->horizontalHeaderItem(c)->text();
        QVERIFY(!label.isEmpty());
        QVERIFY2(header->fontMetrics().horizontalAdvance(label) < header->sectionSize(c), qPrintable(label));
    }
    screenshot(*dialog, QStringLiteral("shortcuts.png"));
}

void TestOnboarding::documentationOpensTheIndex() {
    // The build tree: <build>/bin holds this test, <build>/share/octoscope/resources the resources.
    const QString build = QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/.."));
    const QString resources = build + QStringLiteral("/share/octoscope/resources");
    const QUrl url = documentation_url(resources);
    QVERIFY(url.isLocalFile());
    const QString index = url.toLocalFile();
    QVERIFY2(index.startsWith(build + QLatin1Char('/')), qPrintable(index));
    QVERIFY2(QFileInfo(index).isFile(), qPrintable(index));
    QFile f(index);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readLine().trimmed(), QByteArray("# Octoscope documentation"));

    MainWindow w;
    w.loadResources(resources);
    w.show();
    UrlCatcher catcher;
    QDesktopServices::setUrlHandler(QStringLiteral("file"), &catcher, "open");
    help_action(w, "helpDocumentation")->trigger();
    QDesktopServices::unsetUrlHandler(QStringLiteral("file"));
    QCOMPARE(catcher.urls, QList<QUrl>{url});
    QVERIFY(!w.findChild<QMessageBox*>(QStringLiteral("documentationMessage")));

    // No documentation beside these resources: a message that names where it looked.
    QTemporaryDir nowhere;
    QVERIFY(QDir(nowhere.path()).mkpath(QStringLiteral("share/octoscope/resources")));
    const QString bare = nowhere.filePath(QStringLiteral("share/octoscope/resources"));
    QVERIFY(documentation_url(bare).isEmpty());
    MainWindow w2;
    w2.loadResources(bare);
    w2.show();
    help_action(w2, "helpDocumentation")->trigger();
    auto* box = w2.findChild<QMessageBox*>(QStringLiteral("documentationMessage"));
    QVERIFY(box);
    QVERIFY(QTest::qWaitForWindowExposed(box));
    QVERIFY(box->text().contains(nowhere.filePath(QStringLiteral("share/doc/octoscope/README.md"))));
    QVERIFY(box->text().contains(QStringLiteral("/usr/share/doc/octoscope")));
    screenshot(*box, QStringLiteral("documentation-missing.png"));
}

void TestOnboarding::firstStartHintUntilDismissed() {
    QSettings().remove(QStringLiteral("onboarding/hintDismissed"));
    {
        MainWindow w; // a window nobody offers the hint to (tests, --screenshot runs) shows none
        w.show();
        QVERIFY(!w.findChild<FirstStartHint*>());
    }
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    w.offerFirstStartHint();
    auto* hint = w.findChild<FirstStartHint*>();
    QVERIFY(hint);
    QVERIFY(hint->isVisible());
    // Above the token stream, not in the prompt's dock, where it pushed Run off a 768-line screen.
    QVERIFY(w.centralWidget()->isAncestorOf(hint));
    QVERIFY(!part<PromptPanel>(w)->isAncestorOf(hint));
    const QString text = hint->findChild<QLabel*>(QStringLiteral("firstStartHintText"))->text();
    QVERIFY(text.contains(QStringLiteral("What is 20% of 300?")));
    QVERIFY(text.contains(QStringLiteral("not</i> a general chat model")));
    w.offerFirstStartHint(); // offered twice: still one
    QCOMPARE(w.findChildren<FirstStartHint*>().size(), 1);
    screenshot(w, QStringLiteral("first-start-hint.png"));

    // Its Examples… button opens Help → Examples….
    QTest::mouseClick(hint->findChild<QPushButton*>(QStringLiteral("firstStartHintExamples")), Qt::LeftButton);
    auto* dialog = w.findChild<ExamplesDialog*>();
    QVERIFY(dialog);
    dialog->reject();

    QTest::mouseClick(hint->findChild<QToolButton*>(QStringLiteral("firstStartHintClose")), Qt::LeftButton);
    QTRY_VERIFY(!w.findChild<FirstStartHint*>());
    QVERIFY(QSettings().value(QStringLiteral("onboarding/hintDismissed")).toBool());

    MainWindow again; // the next start
    again.show();
    again.offerFirstStartHint();
    QVERIFY(!again.findChild<FirstStartHint*>());
}

QTEST_MAIN(TestOnboarding)
#include "test_onboarding.moc"
