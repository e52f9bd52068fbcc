// The Claims dock (docs/claims.md): the claims file's claims listed before any run; Run Selected
// and Run All in the engine thread give the values the engine's lab computes on its own; Cancel
// keeps what finished; each kind of plot is drawn; Export Report writes the markdown, PNGs and
// CSVs; the presenter steps through the claims with the keyboard.
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QProgressBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

#include <qcustomplot.h>

#include "engine/claims/claims_report.h"
#include "engine/host/model_setup.h"
#include "tests/ui/window_parts.h"
#include "ui/main_window.h"
#include "ui/panels/claims_panel.h"
#include "ui/panels/claims_presenter.h"
#include "ui/session/claims_store.h"
#include "ui/support/plot.h"
#include "ui/views/claim_plot_view.h"
#include "ui/views/claim_verdict_view.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {
const QString kResources = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources");
const QString kOctet = kResources + QStringLiteral("/octet/octet.gguf");

// Saves a picture of `w` when OCTOSCOPE_SCREENSHOT_DIR is set (looking at the UI as a user does).
void screenshot(QWidget& w, const char* name) {
    const QByteArray dir = qgetenv("OCTOSCOPE_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QTest::qWait(100); // queued replots
    w.grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name)));
}
} // namespace

class TestClaims : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void listsTheClaimsBeforeAnyRun();
    void runSelectedMatchesTheEngine();
    void runAllDrawsEveryKindOfPlotAndExports();
    void cancelKeepsWhatFinished();
    void presenterStepsThroughTheClaims();

private:
    bool openOctet(MainWindow& w);
    bool runAndWait(MainWindow& w, const std::function<void()>& start, bool* complete = nullptr);
};

bool TestClaims::openOctet(MainWindow& w) {
    w.loadResources(kResources);
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(kOctet);
    return loaded.wait(30000);
}

bool TestClaims::runAndWait(MainWindow& w, const std::function<void()>& start, bool* complete) {
    QSignalSpy finished(&w.claimsStore(), &ClaimsStore::finished);
    start();
    if (!finished.wait(240000)) return false;
    if (complete) *complete = finished.first().first().toBool();
    return true;
}

void TestClaims::listsTheClaimsBeforeAnyRun() {
    MainWindow w;
    w.loadResources(kResources);
    auto* panel = part<ClaimsPanel>(w);
    QTreeWidget* list = panel->list();
    QCOMPARE(list->topLevelItemCount(), static_cast<int>(w.claimsStore().claims().size()));
    QVERIFY(list->topLevelItemCount() >= 15);
    // Titles, not the file's slugs (issue 45, item 7).
    QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("Router accuracy"));
    for (int r = 0; r < list->topLevelItemCount(); ++r) {
        const QString title = list->topLevelItem(r)->text(0);
        QVERIFY2(title.contains(QLatin1Char(' ')), qPrintable(title));
        QCOMPARE(title, QString::fromStdString(w.claimsStore().claims()[static_cast<size_t>(r)].title.en));
    }
    QCOMPARE(list->topLevelItem(0)->text(4), QStringLiteral("78.3 %")); // the article's figure
    QCOMPARE(list->topLevelItem(0)->text(1), QStringLiteral("not run")); // the verdict
    QVERIFY(w.showPanel(QStringLiteral("claims")));
    QVERIFY2(panel->plotView()->plotKind().isEmpty(), "nothing measured, nothing drawn");
    // What nothing here can measure says so before any run, with its reason.
    panel->selectClaim(QStringLiteral("annotator-agreement"));
    QCOMPARE(list->currentItem()->text(1), QStringLiteral("not measurable here"));
    QVERIFY(list->currentItem()->toolTip(1).contains(QStringLiteral("No people were asked")));
    QVERIFY(panel->detail()->toPlainText().contains(QStringLiteral("a program cannot run on itself")));
    QVERIFY(!panel->detail()->toPlainText().contains(QStringLiteral("Holds when")));
    w.resize(1366, 768);
    screenshot(*panel, "claims-not-measurable-here.png");
    QVERIFY(panel->plotView()->plotKind().isEmpty());
}

void TestClaims::runSelectedMatchesTheEngine() {
    MainWindow w;
    w.show();
    QVERIFY(openOctet(w));
    auto* panel = part<ClaimsPanel>(w);
    panel->itemsBox()->setValue(3);
    panel->seedBox()->setValue(4);
    panel->selectClaim(QStringLiteral("compute-beats-analyse"));
    QVERIFY(runAndWait(w, [&] { panel->runSelected(); }));
    const ClaimResult* r = w.claimsStore().result("compute-beats-analyse");
    QVERIFY(r && r->estimate);
    QCOMPARE(w.claimsStore().report().results.size(), size_t(1));

    // The engine's lab on its own, with the same model, seed and items.
    auto opened = open_model(kOctet.toStdString(), {.backend = "cpu", .threads = 1}).value();
    ClaimModel m{opened.model.get(), opened.backend.get(), opened.tokenizer.get(), &opened.map(), nullptr, opened.kv.get(), "octet"};
    ClaimLabOptions o;
    o.seed = 4;
    o.items = 3;
    ClaimLab lab(m, load_claim_data(kResources.toStdString()).value(), o);
    auto want = lab.run(*w.claimsStore().claim("compute-beats-analyse"));
    QVERIFY(want && want->estimate);
    QCOMPARE(r->estimate->value, want->estimate->value);
    QCOMPARE(r->estimate->ci95.lo, want->estimate->ci95.lo);
    QCOMPARE(r->estimate->ci95.hi, want->estimate->ci95.hi);

    // The row shows it, with its badge; the plot is the A/B bars.
    QTreeWidgetItem* row = panel->list()->currentItem();
    QCOMPARE(row->text(0), QStringLiteral("“Compute” beats “analyse”"));
    QVERIFY(!panel->detail()->toPlainText().contains(QStringLiteral("compute-beats-analyse")));
    QVERIFY2(row->text(2).startsWith(QString::fromStdString(format_claim_value(ClaimUnit::Points, r->estimate->value))), qPrintable(row->text(2)));
    QCOMPARE(row->text(3), QStringLiteral("3"));
    QCOMPARE(row->text(1), verdict_label(r->verdict));
    QCOMPARE(panel->plotView()->plotKind(), QStringLiteral("bars"));
    QVERIFY(panel->detail()->toPlainText().contains(QStringLiteral("Method:")));
}

void TestClaims::runAllDrawsEveryKindOfPlotAndExports() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(openOctet(w));
    auto* panel = part<ClaimsPanel>(w);
    panel->itemsBox()->setValue(2);
    bool complete = false;
    QVERIFY(runAndWait(w, [&] { w.workbench().measureClaims(); }, &complete));
    QVERIFY(complete);
    const auto& claims = w.claimsStore().claims();
    int measured = 0;
    for (const Claim& c : claims) {
        const ClaimResult* r = w.claimsStore().result(c.id);
        QVERIFY2(r, c.id.c_str());
        if (r->verdict != Verdict::NotMeasurable) ++measured;
    }
    QVERIFY2(measured >= 12, qPrintable(QString::number(measured)));
    QVERIFY(!w.claimsStore().meta().note.en.empty());
    const std::pair<const char*, const char*> kinds[] = {{"router-accuracy", "bars"}, {"rte-a-at-start", "profile"},
                                                         {"groups-specialise", "matrix"}, {"latency-bimodal", "histogram"}};
    for (const auto& [id, kind] : kinds) {
        panel->selectClaim(QString::fromLatin1(id));
        QCOMPARE(panel->plotView()->plotKind(), QString::fromLatin1(kind));
        QVERIFY(panel->plotView()->plot()->plottableCount() > 0);
    }
    // The 8 × 8 matrix reads each cell's value on hover.
    panel->selectClaim(QStringLiteral("groups-specialise"));
    Plot* matrix = panel->plotView()->plot();
    matrix->replot();
    const QPointF cell(matrix->xAxis->coordToPixel(3.0), matrix->yAxis->coordToPixel(3.0));
    const QString hover = matrix->hoverTextAt(cell);
    QVERIFY2(hover.startsWith(QStringLiteral("rte-c switched off, items of rte-c: accuracy drop ")), qPrintable(hover));
    // The Verdict tab: the interval against the threshold, the shuffled-map control and (where
    // the article gives a number) its figure.
    panel->selectClaim(QStringLiteral("rte-c-after-number"));
    panel->tabs()->setCurrentWidget(panel->verdictView());
    QVERIFY(panel->verdictView()->plot());
    QVERIFY(panel->verdictView()->hasControl());
    QVERIFY(panel->verdictView()->hasArticleFigure());
    QCOMPARE(panel->verdictView()->thresholdShown(), 50.0);
    auto* verdict_dock = w.findChild<QDockWidget*>(QStringLiteral("claimsDock"));
    screenshot(*verdict_dock, "claims-verdict.png");
    panel->selectClaim(QStringLiteral("compute-beats-analyse"));
    QVERIFY(!panel->verdictView()->hasControl());
    QVERIFY(!panel->verdictView()->hasArticleFigure()); // "far better", no number
    panel->tabs()->setCurrentIndex(0);
    // "Why 8" compares octet with its shipped 4- and 16-group variants: grouped bars per model.
    panel->selectClaim(QStringLiteral("why-eight-groups"));
    QCOMPARE(panel->plotView()->plotKind(), QStringLiteral("bars"));
    QCOMPARE(panel->plotView()->plot()->plottableCount() > 0, true);
    QVERIFY(!panel->detail()->toPlainText().contains(QStringLiteral("not measurable on this model")));
    screenshot(w, "claims-why-eight.png");
    // A paired A/B claim names its interval (Newcombe) and McNemar's exact p.
    panel->selectClaim(QStringLiteral("compute-beats-analyse"));
    QVERIFY2(panel->detail()->toPlainText().contains(QStringLiteral("Interval: Newcombe paired")), qPrintable(panel->detail()->toPlainText()));
    QVERIFY(panel->detail()->toPlainText().contains(QStringLiteral("exact McNemar p = ")));
    const ClaimResult* ab = w.claimsStore().result("compute-beats-analyse");
    QVERIFY(ab);
    QVERIFY2(ab->test.family > 1, qPrintable(QString::number(ab->test.family))); // the run's Holm family, not a claim alone
    screenshot(w, "claims-ab.png");
    panel->detail()->resize(520, 420);
    screenshot(*panel->detail(), "claims-ab-detail.png");
    panel->selectClaim(QStringLiteral("rte-a-at-start"));
    screenshot(w, "claims-dock.png");
    auto* dock = w.findChild<QDockWidget*>(QStringLiteral("claimsDock"));
    w.resizeDocks({dock}, {430}, Qt::Vertical); // as a user drags the dock taller to read the plots
    screenshot(*dock, "claims-panel.png");

    QTemporaryDir out;
    QVERIFY(panel->exportReport(out.path()));
    for (const char* f : {"report.md", "claims.csv", "router-accuracy.png", "groups-specialise.png", "latency-bimodal.png",
                          "rte-a-at-start-profile.csv", "rte-c-after-number-verdict.svg"}) {
        QVERIFY2(QFile::exists(QDir(out.path()).filePath(QString::fromLatin1(f))), f);
    }
    QVERIFY(QFile::exists(QDir(out.path()).filePath(QStringLiteral("why-eight-groups.png"))));
    if (const QByteArray shots = qgetenv("OCTOSCOPE_SCREENSHOT_DIR"); !shots.isEmpty()) {
        for (const char* f : {"router-accuracy.png", "groups-specialise.png", "latency-bimodal.png", "rte-a-at-start.png"}) {
            QFile::copy(QDir(out.path()).filePath(QString::fromLatin1(f)), QDir(QString::fromLocal8Bit(shots)).filePath(QString::fromLatin1(f)));
        }
    }
    QFile md(QDir(out.path()).filePath(QStringLiteral("report.md")));
    QVERIFY(md.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(md.readAll());
    QVERIFY(text.contains(QStringLiteral("![router-accuracy](router-accuracy.png)")));
    QVERIFY(text.contains(QStringLiteral("octet")));
}

void TestClaims::cancelKeepsWhatFinished() {
    MainWindow w;
    QVERIFY(openOctet(w));
    auto* panel = part<ClaimsPanel>(w);
    panel->itemsBox()->setValue(6);
    QSignalSpy finished(&w.claimsStore(), &ClaimsStore::finished);
    QSignalSpy results(&w.claimsStore(), &ClaimsStore::resultsChanged);
    panel->runAll();
    QVERIFY(w.claimsStore().running());
    QVERIFY(results.wait(60000)); // the first claim's result
    panel->cancel();
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY(!w.claimsStore().running());
    const size_t done = w.claimsStore().report().results.size();
    QVERIFY(done >= 1 && done < w.claimsStore().claims().size());
    QVERIFY(panel->progressBar()->format().contains(QStringLiteral("stopped")));
}

void TestClaims::presenterStepsThroughTheClaims() {
    MainWindow w;
    QVERIFY(openOctet(w));
    auto* panel = part<ClaimsPanel>(w);
    panel->itemsBox()->setValue(2);
    panel->selectClaim(QStringLiteral("router-accuracy"));
    QVERIFY(runAndWait(w, [&] { panel->runSelected(); }));
    // Two claims selected: Run Selected measures both.
    panel->list()->topLevelItem(1)->setSelected(true);
    QVERIFY(runAndWait(w, [&] { panel->runSelected(); }));
    QVERIFY(w.claimsStore().result("router-two-stage-gain"));
    QCOMPARE(w.claimsStore().report().results.size(), size_t(2));
    ClaimsPresenter presenter(w.claimsStore());
    presenter.showClaim(0);
    presenter.show();
    QCOMPARE(presenter.headline()->text(), claim_text(w.claimsStore().claims()[0]));
    QVERIFY(presenter.measured()->text().contains(verdict_label(w.claimsStore().result("router-accuracy")->verdict)));
    QCOMPARE(presenter.plotView()->plotKind(), QStringLiteral("bars"));
    screenshot(presenter, "claims-presenter.png");
    QTest::keyClick(&presenter, Qt::Key_Right);
    QCOMPARE(presenter.index(), 1);
    QVERIFY(presenter.measured()->text().contains(verdict_label(w.claimsStore().result("router-two-stage-gain")->verdict)));
    QTest::keyClick(&presenter, Qt::Key_Space);
    QCOMPARE(presenter.index(), 2);
    QVERIFY(presenter.measured()->text().contains(QStringLiteral("Not measured yet")));
    QTest::keyClick(&presenter, Qt::Key_Left);
    QCOMPARE(presenter.index(), 1);
    QTest::keyClick(&presenter, Qt::Key_End);
    QCOMPARE(presenter.index(), static_cast<int>(w.claimsStore().claims().size()) - 1);
    QTest::keyClick(&presenter, Qt::Key_Right);
    QCOMPARE(presenter.index(), static_cast<int>(w.claimsStore().claims().size()) - 1); // no step past the end
    QTest::keyClick(&presenter, Qt::Key_Home);
    QCOMPARE(presenter.index(), 0);
}

QTEST_MAIN(TestClaims)
#include "test_claims.moc"
