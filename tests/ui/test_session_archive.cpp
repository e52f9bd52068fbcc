// File → Export Session… / Import Session… (docs/workbench.md, "Sessions"): two runs of the
// built-in octet model, one named and one pinned, exported as a folder of captures plus
// index.json, then imported into a fresh window: the same tokens, names and pins. A non-empty
// folder is refused; an unreadable capture is named while the others come in; an index that
// names a file outside its folder, or is not an index, is refused before anything is read.
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/controllers/run_controller.h"
#include "ui/controllers/session_archive_controller.h"
#include "ui/main_window.h"
#include "ui/session/session_archive.h"
#include "ui/workbench.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");

bool run(MainWindow& w, const QString& prompt) {
    RunSpec s = w.runs().editorSpec();
    s.prompt = prompt.toStdString();
    s.max_tokens = 4;
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(s);
    return settled.wait(60000);
}

std::vector<int32_t> ids(const RunRecord& r) {
    std::vector<int32_t> out;
    for (const TraceToken& t : r.tokens()) out.push_back(t.id);
    return out;
}

} // namespace

class TestSessionArchive : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }
    void theIndexReadsBackAndKeepsToItsFolder();
    void exportedRunsComeBackWithNamesAndPins();
};

void TestSessionArchive::theIndexReadsBackAndKeepsToItsFolder() {
    SessionIndex index;
    index.exported_at = QDateTime::fromString(QStringLiteral("2026-12-07T08:00:00.125Z"), Qt::ISODateWithMs);
    index.app_version = QStringLiteral("0.1.0");
    index.runs = {{session_run_file(1), QStringLiteral("baseline"), false}, {session_run_file(2), QString(), true}};
    index.skipped = {QStringLiteral("#3: the run is still going")};
    QCOMPARE(session_run_file(12), QStringLiteral("run-012.octo"));
    auto back = parse_session_index(session_index_bytes(index));
    QVERIFY(back);
    QCOMPARE(back->exported_at, index.exported_at);
    QCOMPARE(back->app_version, index.app_version);
    QVERIFY(back->runs == index.runs);
    QCOMPARE(back->skipped, index.skipped);
    for (const QString& bad : {QStringLiteral("../run.octo"), QStringLiteral("/tmp/run.octo"), QStringLiteral("sub\\run.octo"),
                              QStringLiteral("run.txt"), QStringLiteral(".octo"), QString()}) {
        SessionIndex hostile = index;
        hostile.runs = {{bad, QString(), false}};
        QVERIFY2(!parse_session_index(session_index_bytes(hostile)), qPrintable(bad));
    }
    SessionIndex twice = index;
    twice.runs = {{session_run_file(1), QString(), false}, {session_run_file(1), QString(), false}};
    QVERIFY(!parse_session_index(session_index_bytes(twice)));
    QVERIFY(!parse_session_index("{\"format\": \"octoscope-autosave\", \"version\": 1}"));
    QVERIFY(!parse_session_index("not json"));
}

void TestSessionArchive::exportedRunsComeBackWithNamesAndPins() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("session"));
    std::vector<std::vector<int32_t>> exported_ids;
    {
        MainWindow w;
        w.show();
        QVERIFY(test::load_model(w, kOctet));
        QVERIFY(run(w, QStringLiteral("What is the capital of France?")));
        QVERIFY(run(w, QStringLiteral("Summarise: the cat sat on the mat.")));
        QCOMPARE(w.store().runs().size(), size_t{2});
        QVERIFY(w.store().rename_run(w.store().runs()[0].id, QStringLiteral("baseline")));
        QVERIFY(w.store().pin_run(w.store().runs()[1].id, true));
        for (const RunRecord& r : w.store().runs()) exported_ids.push_back(ids(r));
        SessionArchiveController& sessions = w.workbench().sessions();
        QSignalSpy exported(&sessions, &SessionArchiveController::exported);
        QVERIFY(sessions.exportSession(folder));
        QVERIFY(exported.wait(30000));
        QCOMPARE(exported.first().at(1).toInt(), 2);
        QVERIFY(QFile::exists(QDir(folder).filePath(QStringLiteral("run-001.octo"))));
        QVERIFY(QFile::exists(QDir(folder).filePath(QStringLiteral("run-002.octo"))));
        // Never into a folder with something in it.
        QSignalSpy failed(&sessions, &SessionArchiveController::failed);
        QVERIFY(!sessions.exportSession(folder));
        QCOMPARE(failed.size(), 1);
    }
    QFile index_file(QDir(folder).filePath(QStringLiteral("index.json")));
    QVERIFY(index_file.open(QIODevice::ReadOnly));
    auto index = parse_session_index(index_file.readAll());
    index_file.close();
    QVERIFY(index);
    QCOMPARE(index->runs.size(), size_t{2});
    QCOMPARE(index->runs[0].name, QStringLiteral("baseline"));
    QVERIFY(index->runs[1].pinned);

    MainWindow w; // a fresh workbench: no model needed to look at the runs
    w.show();
    SessionArchiveController& sessions = w.workbench().sessions();
    QSignalSpy imported(&sessions, &SessionArchiveController::imported);
    QVERIFY(sessions.importSession(folder));
    QVERIFY(imported.wait(30000));
    QCOMPARE(imported.first().at(1).toInt(), 2);
    QVERIFY(imported.first().at(2).toStringList().isEmpty());
    const auto& runs = w.store().runs();
    QCOMPARE(runs.size(), size_t{2});
    QCOMPARE(runs[0].name, QStringLiteral("baseline"));
    QVERIFY(!runs[0].pinned);
    QVERIFY(runs[1].pinned);
    for (size_t i = 0; i < 2; ++i) QVERIFY(ids(runs[i]) == exported_ids[i]);

    // A torn capture is named; the other still comes in.
    QFile torn(QDir(folder).filePath(QStringLiteral("run-002.octo")));
    QVERIFY(torn.open(QIODevice::ReadWrite));
    QVERIFY(torn.resize(40));
    torn.close();
    imported.clear();
    QVERIFY(sessions.importSession(folder));
    QVERIFY(imported.wait(30000));
    QCOMPARE(imported.first().at(1).toInt(), 1);
    QCOMPARE(imported.first().at(2).toStringList().size(), 1);
    QVERIFY(imported.first().at(2).toStringList().first().startsWith(QStringLiteral("run-002.octo")));
    QCOMPARE(w.store().runs().size(), size_t{3});

    // An index that reaches outside its folder, or no index at all: refused, nothing read.
    SessionIndex hostile = *index;
    hostile.runs = {{QStringLiteral("../outside.octo"), QString(), false}};
    QFile write(QDir(folder).filePath(QStringLiteral("index.json")));
    QVERIFY(write.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QByteArray bytes = session_index_bytes(hostile);
    bytes.replace("run-001.octo", "../outside.octo"); // session_index_bytes writes what it is given
    write.write(bytes);
    write.close();
    QSignalSpy failed(&sessions, &SessionArchiveController::failed);
    QVERIFY(!sessions.importSession(folder));
    QVERIFY(!sessions.importSession(dir.filePath(QStringLiteral("nothing-here"))));
    QCOMPARE(failed.size(), 2);
    QCOMPARE(w.store().runs().size(), size_t{3});
}

QTEST_MAIN(TestSessionArchive)
#include "test_session_archive.moc"
