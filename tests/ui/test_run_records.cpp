// Run records (docs/workbench.md): the run history is a table with each run's prompt, output,
// switches, recorded measurements, stop reason and A/B pair; any two runs of one model can be
// compared from it; the A/B compare dock shows the advisor's verdict of an "Apply & compare"
// pair. Runs of the built-in octet model. With OCTOSCOPE_SCREENSHOT_DIR set, the window with the
// history in front is saved there as run-history.png.
#include <QAction>
#include <QCheckBox>
#include <QApplication>
#include <QDockWidget>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

#include <memory>

#include "ui/controllers/advisor_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/panels/view_menu.h"
#include "ui/main_window.h"
#include "ui/panels/advisor_panel.h"
#include "ui/panels/history_panel.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/switches_panel.h"
#include "ui/support/engine_labels.h"
#include "ui/support/subsystem_palette.h"
#include "ui/views/compare_view.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");

bool load(MainWindow& w) { return test::load_model(w, kOctet); }

// Runs exactly `spec` and waits until it settled.
bool submitAndWait(MainWindow& w, const RunSpec& spec) {
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(spec);
    return settled.wait(60000);
}

RunSpec spec(MainWindow& w, const QString& prompt, int max_tokens) {
    RunSpec s = w.runs().editorSpec();
    s.prompt = prompt.toStdString();
    s.max_tokens = max_tokens;
    return s;
}

QString cell(HistoryPanel* h, int row, int column, int role = Qt::DisplayRole) {
    return h->model()->index(row, column).data(role).toString();
}

// Selects exactly these rows of the history, as Ctrl+click does.
void selectRows(HistoryPanel* h, std::initializer_list<int> rows) {
    QItemSelection selection;
    for (int row : rows) selection.select(h->model()->index(row, 0), h->model()->index(row, RunHistoryModel::ColumnCount - 1));
    h->view()->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

uint64_t rowId(HistoryPanel* h, int row) { return h->model()->index(row, 0).data(RunHistoryModel::IdRole).toULongLong(); }

} // namespace

class TestRunRecords : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void tableDescribesEveryRun();
    void abPairIsLabelled();
    void anyTwoRunsCompare();
    void consistencySamplesAreLabelled();
    void compareDockShowsTheVerdict();
    void compareShowsTheEndOfTextNotItsToken();
};

// A run that ended on the model's end-of-generation token shows that end in A/B compare, not
// the token's text ("<|eos|>" appeared inside the answer); a run stopped by its token limit
// shows its last token as it is.
void TestRunRecords::compareShowsTheEndOfTextNotItsToken() {
    MainWindow w;
    w.show();
    QVERIFY(load(w));
    QVERIFY(submitAndWait(w, spec(w, QStringLiteral("one two three"), 3)));
    const RunRecord a = *w.store().current();
    QVERIFY(a.trace.outcome && a.n_generated() > 0);
    RunRecord b = a;
    TraceToken eos = b.trace.tokens.back();
    eos.bytes = "<|eos|>";
    eos.visible_text.clear();
    b.trace.tokens.push_back(eos);
    b.trace.outcome->stop_reason = StopReason::EndOfGeneration;
    b.trace.outcome->text = a.trace.outcome->text;
    CompareView* view = part<CompareView>(w);
    view->showRuns(a, b, Metric::NormShare, QStringLiteral("test"), *w.store().model());
    const QString side_b = view->sideB()->toPlainText();
    QVERIFY2(!side_b.contains(QStringLiteral("<|eos|>")), qPrintable(side_b));
    QVERIFY2(side_b.endsWith(QStringLiteral("[end of text]")), qPrintable(side_b));
    QVERIFY(!view->sideA()->toPlainText().contains(QStringLiteral("[end of text]")));
    // The same token where the run did not stop on it (the token limit) is shown as it is.
    b.trace.outcome->stop_reason = StopReason::MaxTokens;
    view->showRuns(a, b, Metric::NormShare, QStringLiteral("test"), *w.store().model());
    QVERIFY(view->sideB()->toPlainText().contains(QStringLiteral("<|eos|>")));
}

void TestRunRecords::tableDescribesEveryRun() {
    MainWindow w;
    w.show();
    QVERIFY(load(w));
    RunSpec first = spec(w, QStringLiteral("What is 20% of 300?"), 4);
    first.record_attention = true;
    first.dla = false;
    QVERIFY(submitAndWait(w, first));
    RunSpec second = spec(w, QStringLiteral("one two\nthree"), 3);
    second.record_attention = false;
    second.dla = true;
    second.disabled[2] = true;
    second.ablation_mode = AblationMode::Mean;
    QVERIFY(submitAndWait(w, second));

    HistoryPanel* h = part<HistoryPanel>(w);
    QCOMPARE(h->view()->objectName(), QStringLiteral("runHistory"));
    QCOMPARE(h->model()->rowCount(), 2); // one row per run, the newest first
    const auto& runs = w.store().runs();
    const RunRecord& older = runs[0];
    const RunRecord& newer = runs[1];
    QCOMPARE(rowId(h, 0), newer.id);
    QCOMPARE(rowId(h, 1), older.id);

    QCOMPARE(cell(h, 1, RunHistoryModel::Run), QStringLiteral("#%1").arg(older.id));
    QCOMPARE(cell(h, 1, RunHistoryModel::Prompt), QStringLiteral("What is 20% of 300?"));
    QCOMPARE(cell(h, 0, RunHistoryModel::Prompt), QStringLiteral("one two three")); // one line in its cell
    QCOMPARE(cell(h, 0, RunHistoryModel::Prompt, Qt::ToolTipRole), QStringLiteral("one two\nthree")); // the full text
    QVERIFY(older.n_generated() > 0);
    QCOMPARE(cell(h, 1, RunHistoryModel::Output), older.generated_text().simplified());
    QCOMPARE(cell(h, 1, RunHistoryModel::Output, Qt::ToolTipRole), older.generated_text());
    QVERIFY(older.trace.outcome && newer.trace.outcome);
    QCOMPARE(cell(h, 1, RunHistoryModel::Stop), stop_reason_label(older.trace.outcome->stop_reason));
    QCOMPARE(cell(h, 0, RunHistoryModel::Stop), stop_reason_label(newer.trace.outcome->stop_reason));

    // What each recorded: attention in the first, DLA (and no attention) in the second.
    const QString measured_older = cell(h, 1, RunHistoryModel::Measured);
    const QString measured_newer = cell(h, 0, RunHistoryModel::Measured);
    QVERIFY2(measured_older.contains(QStringLiteral("norms")) && measured_older.contains(QStringLiteral("attention")) &&
                 !measured_older.contains(QStringLiteral("DLA")),
             qPrintable(measured_older));
    QVERIFY2(measured_newer.contains(QStringLiteral("DLA")) && !measured_newer.contains(QStringLiteral("attention")),
             qPrintable(measured_newer));

    // Switches: none, then rte-c off by mean ablation.
    QCOMPARE(cell(h, 1, RunHistoryModel::Switches), QStringLiteral("—"));
    QCOMPARE(cell(h, 0, RunHistoryModel::Switches),
             QStringLiteral("%1 off (%2)").arg(octo::ui::subsystem_id(2), ablation_mode_label(AblationMode::Mean)));
    QVERIFY(cell(h, 0, RunHistoryModel::Pair).isEmpty()); // not part of a pair

    // Activating a row shows that run.
    QCOMPARE(w.store().current()->id, newer.id);
    emit h->view()->activated(h->model()->index(1, RunHistoryModel::Prompt));
    QCOMPARE(w.store().current()->id, older.id);
}

void TestRunRecords::abPairIsLabelled() {
    MainWindow w;
    w.show();
    QVERIFY(load(w));
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("hello there"));
    RunSpec s = part<PromptPanel>(w)->spec();
    s.max_tokens = 3;
    part<PromptPanel>(w)->restore(s);
    QVERIFY(submitAndWait(w, w.runs().editorSpec()));
    QTest::mouseClick(part<SwitchesPanel>(w)->toggle(2), Qt::LeftButton); // rte-c off for B
    QSignalSpy compared(w.advisorController(), &AdvisorController::compared);
    w.runs().compareWithShown();
    QVERIFY(compared.wait(60000));

    HistoryPanel* h = part<HistoryPanel>(w);
    QCOMPARE(h->model()->rowCount(), 3); // the run, then A and B
    const RunRecord* b = w.store().run(rowId(h, 0));
    const RunRecord* a = w.store().run(rowId(h, 1));
    QVERIFY(a && b && a->group && b->group);
    QCOMPARE(a->group->number, b->group->number);
    QCOMPARE(cell(h, 1, RunHistoryModel::Pair), QStringLiteral("A of pair %1").arg(a->group->number));
    QCOMPARE(cell(h, 0, RunHistoryModel::Pair), QStringLiteral("B of pair %1").arg(a->group->number));
    QVERIFY(cell(h, 0, RunHistoryModel::Pair, Qt::ToolTipRole).contains(QStringLiteral("rte-c disabled in B")));
    QVERIFY(cell(h, 2, RunHistoryModel::Pair).isEmpty());
    QVERIFY(part<CompareView>(w)->involves(a->id) && part<CompareView>(w)->involves(b->id));
    QVERIFY(part<CompareView>(w)->verdict().isEmpty()); // no rewrite, no verdict

    // A second pair gets the next number.
    QSignalSpy again(w.advisorController(), &AdvisorController::compared);
    w.runs().compareWithShown();
    QVERIFY(again.wait(60000));
    QCOMPARE(h->model()->rowCount(), 5);
    QCOMPARE(cell(h, 1, RunHistoryModel::Pair), QStringLiteral("A of pair %1").arg(a->group->number + 1));
}

void TestRunRecords::anyTwoRunsCompare() {
    MainWindow w;
    w.show();
    QVERIFY(load(w));
    QVERIFY(submitAndWait(w, spec(w, QStringLiteral("one two three"), 3)));
    QVERIFY(submitAndWait(w, spec(w, QStringLiteral("four five six"), 3)));
    RunSpec third = spec(w, QStringLiteral("seven eight"), 3);
    third.disabled[1] = true;
    QVERIFY(submitAndWait(w, third));
    HistoryPanel* h = part<HistoryPanel>(w);
    QCOMPARE(h->model()->rowCount(), 3);
    QAction* compare = h->compareAction();

    selectRows(h, {0});
    QVERIFY(!compare->isEnabled()); // one run: nothing to compare
    QVERIFY(compare->toolTip().contains(QStringLiteral("two runs")));

    selectRows(h, {0, 2});
    QVERIFY2(compare->isEnabled(), qPrintable(compare->toolTip()));
    const uint64_t newest = rowId(h, 0), oldest = rowId(h, 2), middle = rowId(h, 1);
    const auto ids = h->selectedRuns();
    QCOMPARE(ids.size(), size_t{2});
    QCOMPARE(ids[0], oldest); // A is the older run
    QSignalSpy compared(w.advisorController(), &AdvisorController::compared);
    compare->trigger();
    QCOMPARE(compared.size(), 1);
    CompareView* view = part<CompareView>(w);
    QVERIFY(view->comparison().has_value());
    QVERIFY(view->involves(oldest) && view->involves(newest));
    QVERIFY(!view->involves(middle));
    QVERIFY(view->sideA()->toPlainText().contains(QStringLiteral("one two three")));
    QVERIFY(view->sideB()->toPlainText().contains(QStringLiteral("seven eight")));
    QVERIFY2(view->summary().contains(QStringLiteral("prompt edited")) && view->summary().contains(QStringLiteral("rte-b disabled in B")),
             qPrintable(view->summary()));
    QTRY_VERIFY(dock_in_front(w, w.findChild<QDockWidget*>(QStringLiteral("compareDock"))));

    // The selection survives a new run; a run of another model (a capture's) compares too, aligned
    // by token text, the summary naming both files.
    RunRecord other;
    auto origin = std::make_shared<CaptureOrigin>();
    origin->path = QStringLiteral("/tmp/elsewhere.octo");
    origin->model.path = "/models/other.gguf";
    other.capture = origin;
    other.state = RunState::Finished;
    other.trace = w.store().runs().back().trace;
    ModelInfo m = *w.store().model();
    m.path = "/models/other.gguf";
    other.model = m;
    const uint64_t capture = w.store().add_run(std::move(other));
    QCOMPARE(h->model()->rowCount(), 4);
    QVERIFY(h->selectedRuns() == (std::vector<uint64_t>{oldest, newest}));
    QCOMPARE(cell(h, 0, RunHistoryModel::Run), QStringLiteral("capture elsewhere.octo"));
    QCOMPARE(rowId(h, 0), capture);
    selectRows(h, {0, 1});
    QVERIFY2(compare->isEnabled(), qPrintable(compare->toolTip()));
    compare->trigger();
    QCOMPARE(compared.size(), 2);
    QVERIFY(view->involves(capture) && view->involves(newest));
    QVERIFY2(view->summary().contains(QStringLiteral("Two models")) && view->summary().contains(QStringLiteral("other.gguf")),
             qPrintable(view->summary()));
    QVERIFY(!view->comparison()->first_divergence); // the capture holds the newest run's very tokens
    // A run made with no model (it failed before it started) is refused, with the reason shown.
    RunRecord failed;
    failed.state = RunState::Failed;
    failed.error = QStringLiteral("no model is loaded");
    const uint64_t nothing = w.store().add_run(std::move(failed));
    selectRows(h, {0, 1});
    QVERIFY(h->selectedRuns() == (std::vector<uint64_t>{capture, nothing}));
    QVERIFY(!compare->isEnabled());
    const auto* note = h->findChild<QLabel*>(QStringLiteral("historyCompareNote"));
    QVERIFY(note && note->isVisibleTo(h));
    QVERIFY2(note->text().contains(QStringLiteral("failed")) || note->text().contains(QStringLiteral("no model")), qPrintable(note->text()));
    QVERIFY(!w.advisorController()->compareRuns(capture, nothing));

    // The model, precision and engine columns; the filter keeps the runs whose text or model holds it.
    const int capture_row = h->model()->rowOf(capture), newest_row = h->model()->rowOf(newest);
    QCOMPARE(cell(h, capture_row, RunHistoryModel::ModelFile), QStringLiteral("other.gguf"));
    QCOMPARE(cell(h, newest_row, RunHistoryModel::ModelFile), QStringLiteral("octet.gguf"));
    QVERIFY2(cell(h, newest_row, RunHistoryModel::PrecisionKv).contains(QStringLiteral("KV")), qPrintable(cell(h, newest_row, RunHistoryModel::PrecisionKv)));
    // The engine: the backend the model was opened on (the status line's words), filterable.
    QCOMPARE(cell(h, newest_row, RunHistoryModel::Engine), QString::fromStdString(w.store().model()->backend));
    QVERIFY(cell(h, newest_row, RunHistoryModel::Engine).startsWith(QStringLiteral("cpu")));
    h->setFilter(QStringLiteral("CPU ("));
    QVERIFY(h->rowShown(newest_row));
    h->setFilter(QStringLiteral("OTHER.gguf"));
    for (int row = 0; row < h->model()->rowCount(); ++row) QCOMPARE(h->rowShown(row), row == capture_row);
    h->setFilter(QStringLiteral("seven"));
    QVERIFY(h->rowShown(newest_row) && !h->rowShown(h->model()->rowOf(oldest)));
    h->setFilter(QString());
    for (int row = 0; row < h->model()->rowCount(); ++row) QVERIFY(h->rowShown(row));

    // A name shows in the Run column (and filters); a pinned run outlives a full history; Remove
    // forgets the selected runs, the shown one giving way to the newest left.
    QVERIFY(w.store().rename_run(newest, QStringLiteral("baseline")));
    QCOMPARE(cell(h, h->model()->rowOf(newest), RunHistoryModel::Run), QStringLiteral("baseline (#%1)").arg(newest));
    h->setFilter(QStringLiteral("baseline"));
    QVERIFY(h->rowShown(h->model()->rowOf(newest)) && !h->rowShown(h->model()->rowOf(oldest)));
    h->setFilter(QString());
    h->view()->setCurrentIndex(h->model()->index(h->model()->rowOf(oldest), 0));
    QVERIFY(h->pinAction()->isEnabled() && !h->pinAction()->isChecked());
    h->pinAction()->trigger();
    QVERIFY(w.store().run(oldest)->pinned);
    QVERIFY(cell(h, h->model()->rowOf(oldest), RunHistoryModel::Run).startsWith(QStringLiteral("★ ")));
    const RunTrace trace = w.store().run(newest)->trace; // the fillers' (newest itself goes)
    for (size_t i = 0; i < RunStore::kMaxRuns; ++i) {
        RunRecord filler;
        filler.state = RunState::Finished;
        filler.trace = trace;
        filler.model = *w.store().model();
        w.store().add_run(std::move(filler));
    }
    QCOMPARE(w.store().runs().size(), RunStore::kMaxRuns);
    QVERIFY(w.store().run(oldest) != nullptr); // pinned: kept
    QVERIFY(w.store().run(newest) == nullptr); // not pinned: the history let it go
    const uint64_t shown = w.store().current()->id;
    selectRows(h, {0});
    QCOMPARE(h->selectedRuns(), std::vector<uint64_t>{shown});
    h->removeAction()->trigger();
    QVERIFY(w.store().run(shown) == nullptr);
    QCOMPARE(w.store().runs().size(), RunStore::kMaxRuns - 1);
    QVERIFY(w.store().current() && w.store().current()->id == w.store().runs().back().id);
}

void TestRunRecords::consistencySamplesAreLabelled() {
    MainWindow w;
    w.show();
    QVERIFY(load(w));
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("one two three"));
    RunSpec s = part<PromptPanel>(w)->spec();
    s.max_tokens = 3;
    part<PromptPanel>(w)->restore(s);
    QSignalSpy reported(w.advisorController(), &AdvisorController::consistencyReported);
    w.advisorController()->runConsistency(3);
    QVERIFY(reported.wait(60000));
    HistoryPanel* h = part<HistoryPanel>(w);
    QCOMPARE(h->model()->rowCount(), 3);
    for (int k = 1; k <= 3; ++k) QCOMPARE(cell(h, 3 - k, RunHistoryModel::Pair), QStringLiteral("sample %1 of 3 (consistency 1)").arg(k));
}

void TestRunRecords::compareDockShowsTheVerdict() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(load(w));
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    AdvisorPanel* advisor = part<AdvisorPanel>(w);
    QSignalSpy changed(advisor, &AdvisorPanel::findingsChanged);
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("周杰最近提到了苹果公司。规范英文名？"));
    RunSpec s = part<PromptPanel>(w)->spec();
    s.max_tokens = 8;
    part<PromptPanel>(w)->restore(s);
    QTRY_VERIFY_WITH_TIMEOUT(!advisor->findings().empty(), 10000);
    QSignalSpy compared(w.advisorController(), &AdvisorController::compared);
    advisor->list()->setCurrentItem(advisor->list()->topLevelItem(0));
    advisor->findChild<QPushButton*>(QStringLiteral("advisorApplyCompare"))->click();
    QVERIFY(compared.wait(60000));

    CompareView* view = part<CompareView>(w);
    QVERIFY(advisor->rewriteVerdict().has_value());
    QVERIFY(!view->verdict().isEmpty());
    QCOMPARE(view->verdict(), advisor->rewriteVerdictHtml()); // the advisor's very text
    QCOMPARE(view->verdict(), advisor->verdictLabel()->text());
    QVERIFY(view->findChild<QLabel*>(QStringLiteral("compareVerdict"))->isVisibleTo(view));
    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        w.applyLayout(LayoutPreset::Compare);
        QTRY_VERIFY(dock_in_front(w, w.findChild<QDockWidget*>(QStringLiteral("compareDock"))));
        QApplication::processEvents();
        QVERIFY(w.exportScreenshot(dir + QStringLiteral("/compare-verdict.png")));
    }

    HistoryPanel* h = part<HistoryPanel>(w);
    QCOMPARE(h->model()->rowCount(), 2);
    QVERIFY(cell(h, 1, RunHistoryModel::Pair).startsWith(QStringLiteral("A of pair")));
    QVERIFY(cell(h, 0, RunHistoryModel::Pair).startsWith(QStringLiteral("B of pair")));
    const QString pair_tip = cell(h, 0, RunHistoryModel::Pair, Qt::ToolTipRole);
    QVERIFY2(pair_tip.contains(QStringLiteral("Vague time words")) && !pair_tip.contains(QStringLiteral("rte-a.vague_time")), qPrintable(pair_tip));

    // Two more runs, one with a switch off; then they are compared from the history: no verdict.
    QVERIFY(submitAndWait(w, spec(w, QStringLiteral("What is 20% of 300?"), 8)));
    RunSpec off = spec(w, QStringLiteral("What is 20% of 300?"), 8);
    off.disabled[3] = true;
    off.dla = true;
    QVERIFY(submitAndWait(w, off));
    selectRows(h, {0, 1});
    QVERIFY(h->compareAction()->isEnabled());
    h->compareAction()->trigger();
    QVERIFY(view->involves(rowId(h, 0)) && view->involves(rowId(h, 1)));
    QVERIFY(view->verdict().isEmpty()); // the verdict was about the rewrite pair, not these runs
    QVERIFY(!view->findChild<QLabel*>(QStringLiteral("compareVerdict"))->isVisibleTo(view));

    if (const QString dir = qEnvironmentVariable("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
        w.applyLayout(LayoutPreset::Compare); // the history and the compare dock in front
        QTRY_VERIFY(dock_in_front(w, w.findChild<QDockWidget*>(QStringLiteral("historyDock"))));
        QApplication::processEvents();
        QVERIFY(w.exportScreenshot(dir + QStringLiteral("/run-history.png")));
        QVERIFY(h->grab().save(dir + QStringLiteral("/run-history-panel.png")));
        h->view()->horizontalScrollBar()->setValue(h->view()->horizontalScrollBar()->maximum()); // switches, measured
        QVERIFY(h->grab().save(dir + QStringLiteral("/run-history-panel-right.png")));
    }
}

QTEST_MAIN(TestRunRecords)
#include "test_run_records.moc"
