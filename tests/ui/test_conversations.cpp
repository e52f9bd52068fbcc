// Conversations in the workbench (docs/workbench.md, "Conversations"): a script of user turns
// answered one after the other on the built-in model; a conversation on a chat model (qwen2-tiny
// from ../shared/refdata, skipped when absent) whose next turn reuses the KV blocks of the turns
// before it while its own attention is recorded, with turn marks in the Attention view; edit and
// regenerate make branches and keep the original; two branches compare in the A/B compare dock;
// the history labels each turn's run and showing one brings its turn back; the advisor flags a
// coherence break and choosing it selects its turn. With OCTOSCOPE_SCREENSHOT_DIR set, the window
// at 1366 × 768 with the conversation in front is saved there in English and Chinese.
#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtTest>

#include "engine/chat/chat_messages_json.h"
#include "ui/controllers/conversation_controller.h"
#include "ui/main_window.h"
#include "ui/panels/coherence_box.h"
#include "ui/panels/conversation_panel.h"
#include "ui/panels/examples_dialog.h"
#include "ui/panels/help_menu.h"
#include "ui/panels/history_panel.h"
#include "ui/session/conversation_store.h"
#include "ui/support/language.h"
#include "ui/views/attention_view.h"
#include "ui/views/compare_view.h"
#include "ui/views/conversation_transcript.h"
#include "ui/views/conversation_turns_plot.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {

const QString kResources = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources");
const QString kOctet = kResources + QStringLiteral("/octet/octet.gguf");
const QString kQwen2 = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/../shared/refdata/qwen2-tiny-f32.gguf");

bool load(MainWindow& w, const QString& path) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(path);
    return loaded.wait(60000);
}

// Waits until the conversation controller has run every step it was given.
bool settle(MainWindow& w) {
    ConversationController& c = w.workbench().conversationController();
    if (!c.busy()) return true;
    QSignalSpy idle(&c, &ConversationController::busyChanged);
    for (int i = 0; i < 40 && c.busy(); ++i) idle.wait(3000);
    return !c.busy();
}

QList<ConversationExample> examples() { return load_conversation_examples(examples_path(kResources)); }

const ConversationExample* example(const QString& lang, bool given) {
    static const QList<ConversationExample> all = examples();
    for (const ConversationExample& e : all) {
        if (e.lang == lang && e.answers.isEmpty() == given) return &e;
    }
    return nullptr;
}

} // namespace

class TestConversations : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void scriptIsAnsweredTurnByTurn();
    void nextTurnReusesTheConversationSoFar();
    void editAndRegenerateMakeBranches();
    void coherenceBreakIsFlaggedAtItsTurn();
    void badInputLeavesTheConversationUsable();
    void examplesOpenAConversation();
    void commandLineRunsAConversation();
    void screenshots();
};

// Help → Examples' English script on octet: each user turn is answered in turn, with the answers
// the examples file states; the history labels each run by its turn; the transcript colours the
// turns octet read; the table has a row per assistant turn.
void TestConversations::scriptIsAnsweredTurnByTurn() {
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QVERIFY(load(w, kOctet));
    const ConversationExample* script = example(QStringLiteral("en"), false);
    QVERIFY(script);
    w.workbench().openConversation(script->messages);
    QVERIFY(settle(w));
    const ConversationRecord* c = w.workbench().conversations().current();
    QVERIFY(c);
    QCOMPARE(c->turns.size(), script->messages.size() * 2);
    for (int k = 0; k < script->answers.size(); ++k) {
        const ChatTurnRecord& answer = c->turns[static_cast<size_t>(2 * k + 1)];
        QCOMPARE(answer.message.role, ChatRole::Assistant);
        QVERIFY(answer.generated && answer.run && !answer.pending);
        QCOMPARE(QString::fromStdString(answer.message.content), script->answers[k]);
        const RunRecord* r = w.store().run(*answer.run);
        QVERIFY(r && r->group && r->group->kind == RunGroup::Kind::Conversation);
        QCOMPARE(r->group->index, 2 * k + 1);
        QCOMPARE(r->trace.spec.messages.size(), static_cast<size_t>(2 * k + 1)); // the conversation before it
        QVERIFY(r->trace.spec.attention_keeps_kv);
    }
    HistoryPanel* history = part<HistoryPanel>(w);
    QCOMPARE(history->model()->index(0, RunHistoryModel::Pair).data().toString(), QStringLiteral("turn 6 of conversation 1"));
    QVERIFY(history->model()->index(0, RunHistoryModel::Prompt).data().toString().startsWith(QStringLiteral("Make a Markdown table")));
    ConversationPanel* panel = part<ConversationPanel>(w);
    QCOMPARE(panel->turnsTable()->rowCount(), 3);
    ConversationTranscript* transcript = panel->transcript();
    QVERIFY(transcript->colouredChips(1) > 0); // octet's answer, coloured by its subsystems
    QVERIFY(transcript->colouredChips(4) > 0); // the last user turn, read by the last run
    QVERIFY(transcript->colouredChips(0) > 0); // the first, read by the first run (octet reads only the last user message)
    QVERIFY(panel->renderingNote()->text().contains(QStringLiteral("only the last user message")));

    // Selecting a turn shows its run in every view; showing a run from the history selects its turn.
    w.workbench().conversations().select_turn(1);
    QCOMPARE(w.store().current()->id, *c->turns[1].run);
    QVERIFY(w.store().selected_token() >= 0);
    w.store().show_run(*c->turns[3].run);
    QCOMPARE(w.workbench().conversations().selected_turn(), 3);
}

// On a chat model (ChatML) each turn's run extends the one before: its prompt reuses the whole KV
// blocks of the conversation so far, and its new tokens still carry their attention, marked by turn.
void TestConversations::nextTurnReusesTheConversationSoFar() {
    if (!QFile::exists(kQwen2)) QSKIP("../shared/refdata is absent");
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QVERIFY(load(w, kQwen2));
    const std::vector<ChatMessage> messages = {
        {ChatRole::System, "You are a careful assistant who keeps every fact the user gives."},
        {ChatRole::User, "The parcel weighs 12 kg and goes to Oslo on Monday. Please remember all of it."},
        {ChatRole::Assistant, "Noted: the parcel weighs 12 kg and goes to Oslo on Monday."},
        {ChatRole::User, "Where does it go?"}};
    QVERIFY(w.workbench().conversationController().open(messages));
    QVERIFY(settle(w));
    const ConversationRecord* c = w.workbench().conversations().current();
    QCOMPARE(c->turns.size(), size_t{5});
    QVERIFY(c->turns[2].run && !c->turns[2].generated); // evaluated as given
    QVERIFY(c->turns[4].run && c->turns[4].generated);  // generated
    const RunRecord* given = w.store().run(*c->turns[2].run);
    const RunRecord* next = w.store().run(*c->turns[4].run);
    QVERIFY(given && next && next->trace.outcome && given->trace.outcome);
    const int64_t block = next->trace.outcome->kv.block_size;
    QVERIFY(block > 0);
    QVERIFY2(next->trace.outcome->reused_tokens >= block, "the next turn reuses the conversation so far");
    QCOMPARE(next->trace.outcome->reused_tokens % block, int64_t{0});
    const auto reused = static_cast<size_t>(next->trace.outcome->reused_tokens);
    QVERIFY(next->tokens()[0].probe.attention.empty());
    QVERIFY(!next->tokens()[next->n_prompt() - 1].probe.attention.empty());
    QVERIFY(!next->tokens()[reused].probe.attention.empty());
    // The table shows it per turn.
    ConversationPanel* panel = part<ConversationPanel>(w);
    QCOMPARE(panel->turnsTable()->rowCount(), 2);
    QCOMPARE(panel->turnsTable()->item(1, 2)->text(), QString::number(next->trace.outcome->reused_tokens));
    QVERIFY(panel->renderingNote()->text().contains(QStringLiteral("chatml")));
    // ... and the plot: the prompt of each turn, reused under evaluated, and its prefill time.
    const auto& points = panel->turnsPlot()->points();
    QCOMPARE(points.size(), size_t{2});
    QCOMPARE(points[1].turn, 4);
    QCOMPARE(points[1].reused, static_cast<double>(next->trace.outcome->reused_tokens));
    QCOMPARE(points[1].reused + points[1].evaluated, static_cast<double>(next->n_prompt()));
    QVERIFY(points[1].prefill_ms > 0.0);
    QVERIFY(panel->turnsPlot()->hoverText(4).contains(QStringLiteral("reused")));
    // The last turn selected: its run is shown, its last token selected, the turns marked in Attention.
    w.workbench().conversations().select_turn(4);
    QCOMPARE(w.store().current()->id, next->id);
    AttentionView* attention = part<AttentionView>(w);
    QVERIFY(attention->shownToken() >= 0);
    const auto& marks = attention->turnMarks();
    QVERIFY2(marks.size() >= 4, "system, user, assistant and user turns before the answer");
    QCOMPARE(marks[0].second, QStringLiteral("S1"));
    QCOMPARE(marks[1].second, QStringLiteral("U2"));
    QCOMPARE(marks[2].second, QStringLiteral("A3"));
    for (size_t i = 1; i < marks.size(); ++i) QVERIFY(marks[i].first > marks[i - 1].first);
}

// Edit makes a branch that keeps the turns before the edited one (and their runs); Regenerate
// too; the original is untouched; two conversations compare in the A/B compare dock; saving and
// opening a conversation file gives the same messages.
void TestConversations::editAndRegenerateMakeBranches() {
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QVERIFY(load(w, kOctet));
    ConversationController& controller = w.workbench().conversationController();
    ConversationStore& store = w.workbench().conversations();
    QVERIFY(controller.send(ChatRole::User, QStringLiteral("What is 20% of 300?")));
    QVERIFY(settle(w));
    QVERIFY(controller.send(ChatRole::User, QStringLiteral("From 400 to 300: percent change?")));
    QVERIFY(settle(w));
    const ConversationRecord original = *store.current();
    QCOMPARE(original.turns.size(), size_t{4});
    QCOMPARE(original.turns[1].message.content, std::string("60"));
    QCOMPARE(original.turns[3].message.content, std::string("-25%"));

    store.select_turn(2);
    ConversationPanel* panel = part<ConversationPanel>(w);
    panel->editSelected();
    QCOMPARE(panel->composer()->toPlainText(), QStringLiteral("From 400 to 300: percent change?"));
    panel->composer()->setPlainText(QStringLiteral("Price list: lamp price 35, stock 12. Its stock?"));
    panel->send();
    QVERIFY(settle(w));
    const ConversationRecord branch_copy = *store.current(); // a copy: the store's list grows below
    const ConversationRecord* branch = &branch_copy;
    QCOMPARE(branch->number, 2);
    QCOMPARE(branch->parent, std::optional<int>(1));
    QCOMPARE(branch->branched_at, size_t{2});
    QCOMPARE(branch->turns.size(), size_t{4});
    QCOMPARE(branch->turns[1].run, original.turns[1].run); // the turns before the edit keep their run
    QCOMPARE(branch->turns[3].message.content, std::string("12"));
    QCOMPARE(store.find(1)->turns[3].message.content, std::string("-25%")); // the original stays
    QCOMPARE(store.find(1)->turns[3].run, original.turns[3].run);
    QVERIFY(panel->conversationName(2).contains(QStringLiteral("branch of 1")));

    // Regenerate the last answer (greedy: the same text, a new run, a third conversation).
    store.select_turn(3);
    QVERIFY(controller.regenerate(3));
    QVERIFY(settle(w));
    QCOMPARE(store.current()->number, 3);
    QCOMPARE(store.current()->turns[3].message.content, std::string("12"));
    QVERIFY(store.current()->turns[3].run != branch->turns[3].run);

    // A/B: the original against the edited branch.
    QVERIFY(controller.compare(1, 2));
    CompareView* compare = part<CompareView>(w);
    QVERIFY(compare->sideA()->toPlainText().contains(QStringLiteral("-25%")));
    QVERIFY(compare->sideB()->toPlainText().contains(QStringLiteral("12")));
    QVERIFY(!controller.compare(1, 1));

    // Save and open: the same messages, as OpenAI's format.
    store.show(2);
    const QString path = QDir::temp().filePath(QStringLiteral("octoscope-conversation-test.json"));
    QVERIFY(controller.saveFile(path));
    auto read = read_conversation_file(path.toStdString());
    QFile::remove(path);
    QVERIFY(read);
    QCOMPARE(read.value(), store.find(2)->messages());
}

// The given English example: turn 6 calls Bob the manager; the advisor's conversation section lists
// it and choosing it selects turn 6, whose run every view then shows. The Chinese one moves a date.
void TestConversations::coherenceBreakIsFlaggedAtItsTurn() {
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QVERIFY(load(w, kOctet));
    for (const QString& lang : {QStringLiteral("en"), QStringLiteral("zh")}) {
        const ConversationExample* given = example(lang, true);
        QVERIFY(given);
        w.workbench().openConversation(given->messages);
        QVERIFY(settle(w));
        CoherenceBox* box = part<CoherenceBox>(w);
        QVERIFY(box->report().has_value());
        QCOMPARE(box->report()->findings.size(), size_t{1});
        QCOMPARE(box->list()->topLevelItemCount(), 1);
        QTreeWidgetItem* item = box->list()->topLevelItem(0);
        QCOMPARE(item->text(0), QString::number(given->messages.size()));
        box->list()->setCurrentItem(item);
        emit box->list()->itemActivated(item, 0);
        const int last = static_cast<int>(given->messages.size()) - 1;
        QCOMPARE(w.workbench().conversations().selected_turn(), last);
        QCOMPARE(w.store().current()->id, *w.workbench().conversations().current()->turns[static_cast<size_t>(last)].run);
        QVERIFY(box->details()->text().contains(QStringLiteral("Suggestion")));
        // Both statements underlined in the transcript, in their turns.
        const QStringList marked = part<ConversationTranscript>(w)->markedWords();
        QCOMPARE(marked.size(), 2);
        QCOMPARE(marked[1], item->text(2).section(QStringLiteral("→ “"), 1).chopped(1));
    }
}

// What the engine cannot run is refused with a message, and the conversation stays usable: a
// system message after the first, an empty message, a file that is not a conversation; a turn
// cancelled while it is generated keeps what came and the next turn runs.
void TestConversations::badInputLeavesTheConversationUsable() {
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QVERIFY(load(w, kOctet));
    ConversationController& controller = w.workbench().conversationController();
    QVERIFY(controller.send(ChatRole::User, QStringLiteral("What is 20% of 300?")));
    QVERIFY(settle(w));
    QVERIFY(!controller.send(ChatRole::System, QStringLiteral("late system message")));
    QVERIFY(!controller.send(ChatRole::User, QStringLiteral("   ")));
    const QString path = QDir::temp().filePath(QStringLiteral("octoscope-not-a-conversation.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"messages\": [{\"role\": \"robot\", \"content\": 3}]}");
    f.close();
    QVERIFY(!controller.openFile(path));
    QFile::remove(path);
    QCOMPARE(w.workbench().conversations().all().size(), size_t{1});
    // Cancel: the turn stops; the conversation takes the next turn.
    QVERIFY(controller.send(ChatRole::User, QStringLiteral("Price list: lamp price 35, stock 12. Its stock?")));
    controller.cancel();
    QVERIFY(settle(w));
    QVERIFY(controller.send(ChatRole::User, QStringLiteral("What is 20% of 300?")));
    QVERIFY(settle(w));
    const ConversationRecord* c = w.workbench().conversations().current();
    QCOMPARE(c->turns.back().message.content, std::string("60"));
    QVERIFY(!c->turns.back().pending);
}

// Help → Examples: the last row (a conversation with given assistant turns), chosen with the
// keyboard, opens in the Conversation panel, in front, and is measured turn by turn.
void TestConversations::examplesOpenAConversation() {
    MainWindow w;
    w.loadResources(kResources);
    w.show();
    QVERIFY(load(w, kOctet));
    HelpMenu::showExamples(w.workbench(), w);
    auto* dialog = w.findChild<ExamplesDialog*>();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QTreeWidget* list = dialog->list();
    list->setFocus();
    QTest::keyClick(list, Qt::Key_End);
    QCOMPARE(list->currentItem()->text(0), QStringLiteral("Conversation"));
    QTest::keyClick(list, Qt::Key_Return);
    QVERIFY(settle(w));
    const ConversationRecord* c = w.workbench().conversations().current();
    QVERIFY(c);
    const ConversationExample* given = example(QStringLiteral("en"), true);
    QCOMPARE(c->messages(), given->messages);
    for (const ChatTurnRecord& t : c->turns) QCOMPARE(t.run.has_value(), t.message.role == ChatRole::Assistant);
    QVERIFY(w.findChild<QDockWidget*>(QStringLiteral("conversationDock"))->isVisible());
}

// octoscope --conversation FILE --screenshot PNG: the built-in model answers the missing turn, the
// window is saved once the last turn has run; a file that is no conversation exits 1 saying why.
void TestConversations::commandLineRunsAConversation() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("talk.json"));
    QFile f(file);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"messages": [{"role": "user", "content": "What is 20% of 300?"}, {"role": "assistant", "content": "60"},
                            {"role": "user", "content": "From 400 to 300: percent change?"}]})");
    f.close();
    const auto run = [&](const QString& conversation, const QString& png, QString* err) {
        QProcess gui;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(OCTOSCOPE_GUI_PATH), {QStringLiteral("--model"), kOctet, QStringLiteral("--conversation"), conversation,
                                                       QStringLiteral("--screenshot"), png, QStringLiteral("--window-size"), QStringLiteral("1366x768")});
        if (!gui.waitForFinished(120000)) return -1;
        *err = QString::fromUtf8(gui.readAllStandardError());
        return gui.exitCode();
    };
    QString err;
    const QString png = dir.filePath(QStringLiteral("talk.png"));
    QCOMPARE(run(file, png, &err), 0);
    QVERIFY2(err.contains(QStringLiteral("conversation of 4 messages run")), qPrintable(err));
    QCOMPARE(QImage(png).size(), QSize(1366, 768));
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile b(bad);
    QVERIFY(b.open(QIODevice::WriteOnly));
    b.write(R"({"messages": []})");
    b.close();
    QCOMPARE(run(bad, dir.filePath(QStringLiteral("bad.png")), &err), 1);
    QVERIFY2(err.contains(QStringLiteral("no messages")), qPrintable(err));
}

// The window at 1366 × 768 with a conversation on the chat model in front, in English and Chinese.
void TestConversations::screenshots() {
    if (qgetenv("OCTOSCOPE_SCREENSHOT_DIR").isEmpty()) QSKIP("OCTOSCOPE_SCREENSHOT_DIR is not set");
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        install_translations(language);
        MainWindow w;
        w.loadResources(kResources);
        w.resize(1366, 768);
        w.show();
        QVERIFY(load(w, QFile::exists(kQwen2) ? kQwen2 : kOctet));
        // The given English example without its middle pair (qwen2-tiny holds 256 tokens): its
        // assistant turns measured as written, the second reusing the turns before it.
        const ConversationExample* given = example(QStringLiteral("en"), true);
        const std::vector<ChatMessage>& m = given->messages;
        QVERIFY(w.workbench().conversationController().open({m[0], m[1], m[4], m[5]}));
        QVERIFY(settle(w));
        const std::vector<ChatMessage> all = w.workbench().conversations().current()->messages();
        QVERIFY(w.workbench().conversations().current()->turns.back().run);
        QCOMPARE(w.store().run(*w.workbench().conversations().current()->turns.back().run)->state, RunState::Finished);
        w.showPanel(QStringLiteral("conversation"));
        w.showPanel(QStringLiteral("attention"));
        w.showPanel(QStringLiteral("advisor"));
        QTreeWidget* findings = part<CoherenceBox>(w)->list();
        QVERIFY(findings->topLevelItemCount() > 0);
        findings->setCurrentItem(findings->topLevelItem(0));
        emit findings->itemActivated(findings->topLevelItem(0), 0); // selects the last turn, marks the words
        QTest::qWait(200);
        test::screenshot(w, QStringLiteral("conversation-%1.png").arg(language));
        part<ConversationPanel>(w)->figures()->setCurrentIndex(1); // the per-turn plot
        w.showPanel(QStringLiteral("kv"));
        w.showPanel(QStringLiteral("attention"));
        w.showPanel(QStringLiteral("history"));
        QTest::qWait(200);
        test::screenshot(w, QStringLiteral("conversation-attention-%1.png").arg(language));
        // The panel alone, as a user who enlarges its dock sees it, with the per-turn plot.
        QDockWidget* dock = w.findChild<QDockWidget*>(QStringLiteral("conversationDock"));
        dock->setFloating(true);
        dock->resize(520, 760);
        QTest::qWait(200);
        test::screenshot(*dock, QStringLiteral("conversation-panel-%1.png").arg(language));
    }
    install_translations(QStringLiteral("en"));
}

QTEST_MAIN(TestConversations)
#include "test_conversations.moc"
