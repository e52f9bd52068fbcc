// Nothing lost, and the log (docs/autosave.md, docs/logging.md), on the offscreen platform with
// XDG_DATA_HOME in a temporary folder: a typed prompt is autosaved (directly and by the timer); a
// window torn down without the clean exit is a crash, and the next window offers the autosave
// and restores it as an undoable edit with the switches and sampling settings; a clean exit
// offers nothing; a corrupt autosave is reported and the workbench keeps working. The engine's
// and Qt's messages reach the log panel and the log file; About shows the versions and paths.
// With OCTOSCOPE_DOCS_SCREENSHOT_DIR set, the log panel and About dialog are saved there.
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QSettings>
#include <QDockWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <spdlog/version.h>

#include "engine/model/synthetic_model.h"
#include "engine/model/user_data.h"
#include "ui/panels/about_dialog.h"
#include "ui/panels/examples_file.h"
#include "ui/session/app_log.h"
#include "ui/session/autosave.h"
#include "ui/session/crash_recovery.h"
#include "ui/panels/log_panel.h"
#include "ui/main_window.h"
#include "ui/session/conversation_store.h"
#include "ui/panels/prompt_panel.h"
#include "ui/session/session_state.h"
#include "ui/panels/switches_panel.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;
using octo::ui::test::write_synthetic_model;

namespace {

QString qpath(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

QByteArray read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestAutosave : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void timerWritesOnlyChanges();
    void crashOffersTheAutosave();
    void discardKeepsTheEditor();
    void cleanExitOffersNothing();
    void crashWithoutNewerAutosaveOffersNothing();
    void crashWithNothingNewOffersNothing();
    void corruptAutosaveIsReported();
    void sessionPrecisionIsOptional();
    void sessionKeepsTheWholeRun();
    void versionOneSessionIsStillRead();
    void sessionKeepsTheConversation();
    void filesReadFromTheirBytes();
    void engineAndQtMessagesReachPanelAndFile();
    void aboutShowsVersionsAndPaths();

private:
    // A window whose session ends like a crash: destroyed without closeEvent's clean exit.
    void crashWith(const QString& prompt);
    bool loadInto(MainWindow& w);

    QTemporaryDir dir_;
    QString model_;
};

void TestAutosave::initTestCase() {
    QVERIFY(dir_.isValid());
    QStandardPaths::setTestModeEnabled(true); // settings go to a test location
    QCoreApplication::setApplicationVersion(QStringLiteral(OCTOSCOPE_VERSION)); // as app/gui/main.cpp does
    qputenv("XDG_DATA_HOME", dir_.filePath("data").toUtf8());
    QCOMPARE(qpath(user_data_dir()), dir_.filePath("data/octoscope"));
    QString error;
    QVERIFY(install_app_log(&error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    model_ = dir_.filePath("small.gguf");
    QVERIFY(write_synthetic_model(model_, spec));
}

void TestAutosave::init() {
    QFile::remove(qpath(Autosave::filePath()));
    QFile::remove(qpath(CrashRecovery::markerPath()));
    QSettings().clear();
    CrashRecovery::setAnswerForTests(CrashRecovery::Answer::Restore);
}

bool TestAutosave::loadInto(MainWindow& w) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(model_);
    return loaded.wait(30000);
}

void TestAutosave::crashWith(const QString& prompt) {
    auto* w = new MainWindow;
    w->show();
    w->startSession();
    QPlainTextEdit* editor = part<PromptPanel>(*w)->editor();
    editor->clear();
    QTest::keyClicks(editor, prompt);
    RunSpec s = part<PromptPanel>(*w)->spec();
    s.sampling.seed = 4242;
    s.max_tokens = 17;
    s.precision = Precision::Exact;
    part<PromptPanel>(*w)->restore(s);
    part<SwitchesPanel>(*w)->toggle(2)->setChecked(false); // rte-c off
    QVERIFY(w->recovery()->autosave().saveIfChanged());
    QVERIFY(QFile::exists(qpath(Autosave::filePath())));
    delete w; // no closeEvent: the marker stays, as after a crash
    QVERIFY(QFile::exists(qpath(CrashRecovery::markerPath())));
}

void TestAutosave::timerWritesOnlyChanges() {
    MainWindow w;
    w.show();
    w.startSession(std::chrono::milliseconds(50));
    QTest::qWait(200);
    QVERIFY2(!QFile::exists(qpath(Autosave::filePath())), "nothing changed, nothing written");
    QTest::keyClicks(part<PromptPanel>(w)->editor(), QStringLiteral("typed for the timer"));
    QTRY_VERIFY_WITH_TIMEOUT(read(qpath(Autosave::filePath())).contains("typed for the timer"), 5000);
    const auto autosaved = read_autosave(Autosave::filePath());
    QVERIFY(autosaved && autosaved->has_value());
    QCOMPARE(QString::fromStdString((*autosaved)->state.spec.prompt), QStringLiteral("typed for the timer"));
    QVERIFY(qAbs((*autosaved)->saved_at.secsTo(QDateTime::currentDateTimeUtc())) < 60);
    w.close();
}

void TestAutosave::crashOffersTheAutosave() {
    crashWith(QStringLiteral("an hour of careful prompt work"));
    QVERIFY(!QTest::currentTestFailed());
    QVERIFY(CrashRecovery::previousSession().crashed);
    MainWindow w;
    w.show();
    QPlainTextEdit* editor = part<PromptPanel>(w)->editor();
    editor->setPlainText(QStringLiteral("what the editor held"));
    w.startSession();
    QCOMPARE(editor->toPlainText(), QStringLiteral("an hour of careful prompt work"));
    QCOMPARE(part<PromptPanel>(w)->spec().sampling.seed, uint64_t{4242});
    QCOMPARE(part<PromptPanel>(w)->spec().max_tokens, int64_t{17});
    QCOMPARE(part<PromptPanel>(w)->spec().precision, std::optional<Precision>(Precision::Exact));
    QVERIFY(!part<SwitchesPanel>(w)->toggle(2)->isChecked());
    QVERIFY(part<SwitchesPanel>(w)->toggle(3)->isChecked());
    QVERIFY(w.statusBar()->currentMessage().contains(QStringLiteral("Restored")));
    editor->undo(); // the restore was one undoable edit
    QCOMPARE(editor->toPlainText(), QStringLiteral("what the editor held"));
    w.close();
    QVERIFY(!QFile::exists(qpath(CrashRecovery::markerPath())));
}

void TestAutosave::discardKeepsTheEditor() {
    crashWith(QStringLiteral("a prompt the user discards"));
    QVERIFY(!QTest::currentTestFailed());
    CrashRecovery::setAnswerForTests(CrashRecovery::Answer::Discard);
    MainWindow w;
    w.show();
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("kept"));
    w.startSession();
    QCOMPARE(part<PromptPanel>(w)->editor()->toPlainText(), QStringLiteral("kept"));
    QVERIFY(part<SwitchesPanel>(w)->toggle(2)->isChecked());
    w.close();
}

void TestAutosave::cleanExitOffersNothing() {
    {
        MainWindow w;
        w.show();
        w.startSession();
        QTest::keyClicks(part<PromptPanel>(w)->editor(), QStringLiteral("closed cleanly"));
        w.close(); // the clean exit: a last autosave, and the marker removed
    }
    QVERIFY(!QFile::exists(qpath(CrashRecovery::markerPath())));
    QVERIFY(read(qpath(Autosave::filePath())).contains("closed cleanly")); // saved on exit
    QVERIFY(!CrashRecovery::previousSession().crashed);
    MainWindow w;
    w.show();
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("fresh"));
    w.startSession();
    QCOMPARE(part<PromptPanel>(w)->editor()->toPlainText(), QStringLiteral("fresh"));
    QVERIFY(w.statusBar()->currentMessage().isEmpty());
    w.close();
}

// The autosave on disk predates the crashed session (written by the clean exit before it): the
// crashed session changed nothing, so there is nothing newer to offer.
void TestAutosave::crashWithoutNewerAutosaveOffersNothing() {
    {
        MainWindow w;
        w.show();
        w.startSession();
        QTest::keyClicks(part<PromptPanel>(w)->editor(), QStringLiteral("from the clean session"));
        w.close();
    }
    QVERIFY(read(qpath(Autosave::filePath())).contains("from the clean session"));
    QTest::qWait(5); // the next session starts strictly later (millisecond times)
    {
        auto* crashed = new MainWindow;
        crashed->startSession();
        delete crashed; // crashed without a change
    }
    QVERIFY(CrashRecovery::previousSession().crashed);
    MainWindow w;
    w.show();
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("fresh"));
    w.startSession();
    QCOMPARE(part<PromptPanel>(w)->editor()->toPlainText(), QStringLiteral("fresh"));
    w.close();
}

// The autosave holds what the window already shows (the model or metric aside): no question.
void TestAutosave::crashWithNothingNewOffersNothing() {
    crashWith(QStringLiteral("already back"));
    QVERIFY(!QTest::currentTestFailed());
    const auto autosaved = read_autosave(Autosave::filePath());
    QVERIFY(autosaved && autosaved->has_value());
    MainWindow w;
    w.show();
    SessionState same = (*autosaved)->state;
    same.metric = Metric::Relative;
    w.restoreSession(same);
    w.startSession();
    QCOMPARE(part<PromptPanel>(w)->editor()->toPlainText(), QStringLiteral("already back"));
    QVERIFY2(w.statusBar()->currentMessage().isEmpty(), qPrintable(w.statusBar()->currentMessage()));
    QCOMPARE(w.store().metric(), Metric::Relative); // not put back to the autosaved one
    w.close();
}

void TestAutosave::corruptAutosaveIsReported() {
    crashWith(QStringLiteral("soon unreadable"));
    QVERIFY(!QTest::currentTestFailed());
    {
        QFile f(qpath(Autosave::filePath()));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{\"format\": \"octoscope-autosave\", \"version\": 1, \"sess"); // cut off mid-way
    }
    MainWindow w;
    w.show();
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("unchanged"));
    w.startSession();
    QCOMPARE(part<PromptPanel>(w)->editor()->toPlainText(), QStringLiteral("unchanged"));
    const QString message = w.statusBar()->currentMessage();
    QVERIFY2(message.contains(QStringLiteral("cannot be read")) && message.contains(qpath(Autosave::filePath())), qPrintable(message));
    QTRY_VERIFY(part<LogPanel>(w)->view()->toPlainText().contains(QStringLiteral("is unreadable")));
    QVERIFY(QFile::exists(qpath(Autosave::filePath()) + QStringLiteral(".corrupt"))); // kept for the user
    // The workbench keeps working: the next autosave writes a valid file.
    part<PromptPanel>(w)->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(part<PromptPanel>(w)->editor(), QStringLiteral(" again"));
    QVERIFY(w.recovery()->autosave().saveIfChanged());
    const auto autosaved = read_autosave(Autosave::filePath());
    QVERIFY(autosaved && autosaved->has_value());
    QCOMPARE(QString::fromStdString((*autosaved)->state.spec.prompt), QStringLiteral("unchanged again"));
    w.close();
}

// "precision": the model's default ("default"), reference or exact; a session saved before the
// choice existed has none and restores the default; an unknown name is an error.
void TestAutosave::sessionPrecisionIsOptional() {
    SessionState state;
    state.spec.prompt = "p";
    QString error;
    for (std::optional<Precision> p : {std::optional<Precision>(), std::optional<Precision>(Precision::Reference),
                                       std::optional<Precision>(Precision::Exact)}) {
        state.spec.precision = p;
        const auto back = session_from_json(session_to_json(state), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->spec.precision, p);
    }
    QJsonObject older = session_to_json(state);
    QCOMPARE(older.value(QStringLiteral("precision")).toString(), QStringLiteral("exact"));
    older.remove(QStringLiteral("precision"));
    const auto back = session_from_json(older, &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(!back->spec.precision);
    older.insert(QStringLiteral("precision"), QStringLiteral("fast"));
    QVERIFY(!session_from_json(older, &error));
    QVERIFY2(error.contains(QStringLiteral("precision")), qPrintable(error));
}

// The session holds the whole RunSpec, written by the captures' serialiser: what the first
// autosave dropped (expert switches, what the switches turn off, stop strings …) comes back.
void TestAutosave::sessionKeepsTheWholeRun() {
    SessionState state;
    state.model_path = QStringLiteral("/models/moe.gguf");
    state.metric = Metric::Experts;
    RunSpec& s = state.spec;
    s.prompt = "Tom's \"quoted\" prompt, 转成JSON";
    s.disabled_experts = {{2, 5}, {-1, 1}};
    s.switch_target = SwitchTarget::Experts;
    s.record_router_probs = true;
    s.stop_strings = {"\n\n"};
    s.sampling.temperature = 0.7f;
    s.sampling.seed = 123456789012ull;
    s.sampling.repeat_penalty = 1.1f;
    s.disabled[6] = true;
    s.ablation_mode = AblationMode::Mean;
    s.n_ctx = 512;
    QString error;
    const QJsonObject json = session_to_json(state);
    // Through the file's bytes, as the autosave writes and reads them.
    const QJsonObject reread = QJsonDocument::fromJson(QJsonDocument(json).toJson()).object();
    const auto back = session_from_json(reread, &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(back->spec == s);
    QCOMPARE(back->model_path, state.model_path);
    QCOMPARE(back->metric, Metric::Experts);
    QCOMPARE(json.value(QStringLiteral("switch_target")).toString(), QStringLiteral("experts"));
}

// The shown conversation is autosaved as OpenAI's messages and comes back as a conversation of
// given turns; a session without one has none; a broken one is an error naming the field.
void TestAutosave::sessionKeepsTheConversation() {
    SessionState state;
    state.spec.prompt = "p";
    state.conversation = {{ChatRole::System, "be brief"}, {ChatRole::User, "李娜是经理。"}, {ChatRole::Assistant, "好的。"}};
    QString error;
    const QJsonObject json = session_to_json(state);
    const auto back = session_from_json(QJsonDocument::fromJson(QJsonDocument(json).toJson()).object(), &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(back->conversation == state.conversation);
    QJsonObject without = json;
    without.remove(QStringLiteral("conversation"));
    const auto none = session_from_json(without, &error);
    QVERIFY2(none, qPrintable(error));
    QVERIFY(none->conversation.empty());
    QJsonObject broken = json;
    broken.insert(QStringLiteral("conversation"), QStringLiteral("not messages"));
    QVERIFY(!session_from_json(broken, &error));
    QVERIFY2(error.contains(QStringLiteral("conversation")), qPrintable(error));

    // Put back into a window: a conversation of these turns, shown, nothing run.
    MainWindow w;
    w.restoreSession(*back);
    const ConversationRecord* c = w.workbench().conversations().current();
    QVERIFY(c);
    QVERIFY(c->messages() == state.conversation);
    QVERIFY(!c->last_run());
}

// A version-1 session (written before the whole RunSpec was kept) restores what it held; the
// settings it lacked take their defaults.
// The autosave, the marker and the examples file read from their bytes, as the fuzz target
// (tests/fuzz/fuzz_workbench_files.cpp) reads them: its seeds are accepted whole, so the fuzzer
// starts deep in the readers; a torn marker reads as no process, started at the epoch.
void TestAutosave::filesReadFromTheirBytes() {
    const QString seeds = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/tests/fuzz/seeds/");
    const auto seed = [&](const char* name) { return read(seeds + QLatin1String(name)).mid(1); }; // the first byte picks the file
    auto v2 = parse_autosave(seed("workbench_autosave_v2.bin"), "v2");
    QVERIFY2(v2, v2 ? "" : v2.error().message.c_str());
    QCOMPARE(v2.value().state.model_path, QStringLiteral("/models/octet.gguf"));
    QCOMPARE(v2.value().state.metric, Metric::Dla);
    QCOMPARE(v2.value().state.spec.disabled_experts.size(), size_t{2});
    QCOMPARE(v2.value().state.conversation.size(), size_t{4});
    QCOMPARE(v2.value().saved_at, QDateTime(QDate(2026, 12, 7), QTime(3, 0), Qt::UTC));
    auto v1 = parse_autosave(seed("workbench_autosave_v1.bin"), "v1");
    QVERIFY2(v1, v1 ? "" : v1.error().message.c_str());
    QCOMPARE(v1.value().state.spec.ablation_mode, AblationMode::Mean);
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(1796000000123, Qt::UTC);
    auto again = parse_autosave(autosave_bytes(session_to_json(v2.value().state), at), "again");
    QVERIFY(again);
    QVERIFY(again.value().state.spec == v2.value().state.spec);
    QCOMPARE(again.value().saved_at, at);
    auto other = parse_autosave(R"({"format": "octoscope-autosave", "version": 3, "saved_at": "2026-12-07T03:00:00Z", "session": {}})", "/x/s.json");
    QVERIFY(!other);
    QVERIFY2(QString::fromStdString(other.error().message).contains(QStringLiteral("/x/s.json")), other.error().message.c_str());

    const SessionMarker marker = parse_marker(seed("workbench_marker.bin"));
    QCOMPARE(marker.pid, qint64{4242});
    QCOMPARE(marker.started_at, QDateTime(QDate(2026, 12, 7), QTime(2, 59, 58, 123), Qt::UTC));
    QCOMPARE(parse_marker(marker_bytes(marker)).started_at, marker.started_at);
    const SessionMarker torn = parse_marker("{\"pid\": 77, \"start");
    QCOMPARE(torn.pid, qint64{0});
    QCOMPARE(torn.started_at.toMSecsSinceEpoch(), qint64{0});

    QString error;
    const QList<OctetExample> examples = parse_examples(seed("workbench_examples.bin"), QStringLiteral("e.json"), &error);
    QVERIFY2(!examples.isEmpty(), qPrintable(error));
    QCOMPARE(examples.size(), load_examples(examples_path(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"))).size());
    QVERIFY(parse_examples("{\"examples\": [{\"subsystem\": \"rte-z\"}]}", QStringLiteral("e.json"), &error).isEmpty());
    QVERIFY2(error.startsWith(QStringLiteral("e.json: example 1")), qPrintable(error));
}

void TestAutosave::versionOneSessionIsStillRead() {
    const QByteArray v1 = R"({"model": "/m.gguf", "prompt": "old", "chat": true, "system": "sys", "max_tokens": 17,
        "temperature": 0.5, "seed": 4242, "top_p": 0.9, "top_k": 40, "dla": true, "record_attention": false,
        "disabled": [false, true, false, false, false, false, false, false], "ablation": "mean",
        "metric": "relative", "precision": "default"})";
    QString error;
    const auto back = session_from_json(QJsonDocument::fromJson(v1).object(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->spec.prompt, std::string("old"));
    QVERIFY(back->spec.chat);
    QCOMPARE(back->spec.max_tokens, int64_t{17});
    QCOMPARE(back->spec.sampling.seed, uint64_t{4242});
    QCOMPARE(back->spec.sampling.top_k, 40);
    QVERIFY(back->spec.disabled[1]);
    QCOMPARE(back->spec.ablation_mode, AblationMode::Mean);
    QVERIFY(!back->spec.precision);
    QCOMPARE(back->spec.stop_at_eog, RunSpec{}.stop_at_eog);
    QCOMPARE(back->metric, Metric::Relative);
    QJsonObject no_prompt = QJsonDocument::fromJson(v1).object();
    no_prompt.remove(QStringLiteral("prompt"));
    QVERIFY(!session_from_json(no_prompt, &error));
    QVERIFY2(error.contains(QStringLiteral("prompt")), qPrintable(error));
}

void TestAutosave::engineAndQtMessagesReachPanelAndFile() {
    MainWindow w;
    w.show();
    QVERIFY(part<LogPanel>(w));
    QVERIFY(loadInto(w)); // the engine logs the load from its worker thread
    const QString loaded = QStringLiteral("loaded %1").arg(model_);
    QTRY_VERIFY(part<LogPanel>(w)->view()->toPlainText().contains(loaded));
    qWarning("a Qt warning for the log %d", 8128);
    const QString warning = QStringLiteral("a Qt warning for the log 8128");
    QTRY_VERIFY(part<LogPanel>(w)->view()->toPlainText().contains(warning));
    const QByteArray file = read(qpath(log_file_path()));
    QVERIFY2(file.contains(loaded.toUtf8()), file.right(2000).constData());
    QVERIFY(file.contains(warning.toUtf8()));
    QVERIFY(file.contains("[warning]"));
    if (const QByteArray out = qgetenv("OCTOSCOPE_DOCS_SCREENSHOT_DIR"); !out.isEmpty()) {
        qWarning("shown in the panel: a warning");
        qCritical("shown in the panel: an error");
        w.findChild<QDockWidget*>(QStringLiteral("logDock"))->show();
        w.findChild<QDockWidget*>(QStringLiteral("logDock"))->raise();
        w.resize(1280, 800);
        QTest::qWait(300);
        QVERIFY(w.exportScreenshot(QDir(QString::fromUtf8(out)).filePath(QStringLiteral("log-panel.png"))));
    }
    // Clear empties the panel; the file keeps everything.
    part<LogPanel>(w)->clear();
    QVERIFY(part<LogPanel>(w)->view()->toPlainText().isEmpty());
    QVERIFY(read(qpath(log_file_path())).contains(warning.toUtf8()));
    w.close();
}

void TestAutosave::aboutShowsVersionsAndPaths() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w));
    QAction* about = nullptr;
    for (QAction* a : w.menuBar()->findChildren<QAction*>()) {
        if (a->text() == QStringLiteral("&About Octoscope")) about = a;
    }
    QVERIFY(about);
    about->trigger();
    auto* dialog = w.findChild<AboutDialog*>();
    QVERIFY(dialog);
    const QString text = dialog->factsText();
    QVERIFY2(text.contains(qpath(log_file_path())), qPrintable(text));
    QVERIFY(text.contains(qpath(Autosave::filePath())));
    QVERIFY(text.contains(qpath(user_data_dir())));
    QVERIFY(text.contains(QSettings().fileName()));
    QVERIFY(text.contains(QStringLiteral(OCTOSCOPE_VERSION)));
    QVERIFY(text.contains(QString::fromLatin1(qVersion())));
    QVERIFY(text.contains(QStringLiteral(QT_VERSION_STR)));
    QVERIFY(text.contains(QStringLiteral("%1.%2.%3").arg(SPDLOG_VER_MAJOR).arg(SPDLOG_VER_MINOR).arg(SPDLOG_VER_PATCH)));
    QVERIFY(text.contains(QString::fromStdString(w.store().model()->backend)));
    QVERIFY(text.contains(model_));
    if (const QByteArray out = qgetenv("OCTOSCOPE_DOCS_SCREENSHOT_DIR"); !out.isEmpty()) {
        QTest::qWait(200);
        QVERIFY(dialog->grab().save(QDir(QString::fromUtf8(out)).filePath(QStringLiteral("about.png"))));
    }
    dialog->close();
    w.close();
}

QTEST_MAIN(TestAutosave)
#include "test_autosave.moc"
