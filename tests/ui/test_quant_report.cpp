// Run → Quantisation Report… (docs/workbench.md, "Quantisation report"): the loaded model against
// another file of it on the same prompts, computed on the engine thread. The built-in octet model
// against itself parts nowhere (every answer the same, KL 0); ../shared/refdata's stories260K F32
// against its Q4_0 parts (KL above 0 at every step, the summary the pool of the rows shown);
// model B, the prompts and the length are remembered; what cannot run says why and leaves the
// dialog usable. With OCTOSCOPE_SCREENSHOT_DIR set, the dialog is saved there as quant-report.png.
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include "ui/controllers/quant_report_controller.h"
#include "ui/main_window.h"
#include "ui/panels/quant_report_dialog.h"
#include "ui/workbench.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");
const QString kRefdata = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/../shared/refdata");

// Runs the dialog's report and waits for it to end (120 s at most); false when it did not start or end.
bool run_report(MainWindow& w, QuantReportDialog& d) {
    QuantReportController& c = w.workbench().quantReports();
    if (!d.runReport()) return false;
    QSignalSpy changed(&c, &QuantReportController::changed);
    for (int i = 0; i < 600 && c.running(); ++i) changed.wait(200);
    return !c.running();
}

} // namespace

class TestQuantReport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }
    void aFileAgainstItselfPartsNowhere();
    void twoQuantisationsPart();
    void whatCannotRunSaysWhy();
};

void TestQuantReport::aFileAgainstItselfPartsNowhere() {
    MainWindow w;
    w.show();
    QVERIFY(test::load_model(w, kOctet));
    QuantReportDialog* d = w.workbench().openQuantReport();
    QVERIFY(d && d->isVisible());
    d->setModelB(kOctet);
    d->setPrompts({QStringLiteral("What is the capital of France?"), QString(), QStringLiteral("Summarise: the cat sat on the mat.")});
    QCOMPARE(d->prompts().size(), 2); // the blank line left out
    QVERIFY(run_report(w, *d));
    const auto& report = w.workbench().quantReports().report();
    QVERIFY2(report, qPrintable(w.workbench().quantReports().failure()));
    QCOMPARE(report->items.size(), size_t{2});
    QCOMPARE(report->same_answers, size_t{2});
    QCOMPARE(report->mean_kl, 0.0);
    QCOMPARE(d->table()->rowCount(), 2);
    for (int row = 0; row < 2; ++row) {
        QCOMPARE(d->table()->item(row, 1)->text(), QStringLiteral("same answer"));
        QCOMPARE(d->table()->item(row, 2)->text(), QStringLiteral("0.0000"));
        QCOMPARE(d->table()->item(row, 6)->text(), d->table()->item(row, 7)->text()); // A's answer is B's
    }
    QVERIFY2(d->summaryText().contains(QStringLiteral("2 of 2 prompts answered the same")), qPrintable(d->summaryText()));
    // Remembered for the next start.
    const QSettings settings;
    QCOMPARE(settings.value("quantReport/modelB").toString(), kOctet);
    QCOMPARE(settings.value("quantReport/prompts").toStringList().size(), 2);
}

void TestQuantReport::twoQuantisationsPart() {
    const QString f32 = kRefdata + QStringLiteral("/stories260K.gguf"), q4 = kRefdata + QStringLiteral("/stories260K-q4_0.gguf");
    if (!QFileInfo::exists(q4)) QSKIP("../shared/refdata is absent");
    MainWindow w;
    w.show();
    QVERIFY(test::load_model(w, f32));
    QuantReportDialog* d = w.workbench().openQuantReport();
    d->setModelB(q4);
    d->setPrompts({QStringLiteral("Once upon a time"), QStringLiteral("The little dog"), QStringLiteral("Lily and Tom went to")});
    QVERIFY(run_report(w, *d));
    const auto& report = w.workbench().quantReports().report();
    QVERIFY2(report, qPrintable(w.workbench().quantReports().failure()));
    QCOMPARE(d->table()->rowCount(), 3);
    double sum = 0.0;
    size_t steps = 0;
    for (const QuantReportItem& item : report->items) {
        for (const StepDivergence& s : item.divergence.steps) {
            QVERIFY(s.kl > 0.0); // Q4_0 is not F32
            sum += s.kl;
            ++steps;
        }
    }
    QCOMPARE(report->steps, steps);
    QVERIFY(std::abs(report->mean_kl - sum / static_cast<double>(steps)) < 1e-12);
    QVERIFY2(d->summaryText().contains(QStringLiteral("mean KL %1").arg(report->mean_kl, 0, 'f', 4)), qPrintable(d->summaryText()));
    QVERIFY(report->mean_share_delta.has_value());
    // Saved as the CLI writes it.
    const QString json = QDir::temp().filePath(QStringLiteral("octoscope-quant-report-test.json"));
    QString error;
    QVERIFY2(w.workbench().quantReports().saveJson(json, &error), qPrintable(error));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("\"mean_kl\""));
    file.close();
    QFile::remove(json);
    d->resize(1100, 680);
    test::screenshot(*d, QStringLiteral("quant-report.png"));
}

void TestQuantReport::whatCannotRunSaysWhy() {
    MainWindow w;
    w.show();
    QVERIFY(test::load_model(w, kOctet));
    QuantReportDialog* d = w.workbench().openQuantReport();
    d->setModelB(kOctet);
    d->setPrompts({});
    QVERIFY(!d->runReport()); // no prompts: refused before anything runs
    QVERIFY(!w.workbench().quantReports().running());
    d->setPrompts({QStringLiteral("hello")});
    d->setModelB(QString());
    QVERIFY(!d->runReport());
    d->setModelB(QStringLiteral("/nonexistent/b.gguf"));
    QVERIFY(run_report(w, *d)); // asked, and the engine says why not
    QVERIFY(!w.workbench().quantReports().report());
    QVERIFY2(w.workbench().quantReports().failure().contains(QStringLiteral("/nonexistent/b.gguf")),
             qPrintable(w.workbench().quantReports().failure()));
    // Still usable: the same file on both sides runs.
    d->setModelB(kOctet);
    QVERIFY(run_report(w, *d));
    QVERIFY(w.workbench().quantReports().report());
    QVERIFY(w.workbench().quantReports().failure().isEmpty());
}

QTEST_MAIN(TestQuantReport)
#include "test_quant_report.moc"
