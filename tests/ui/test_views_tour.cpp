// The views of the "views a prompt engineer asks for next" work (docs/workbench.md) at the two
// window sizes the docs show (1366 × 768, 1920 × 1080) and in both languages: two model files
// (../shared/refdata's stories260K F32 and Q4_0, else octet and a copy of it) run on one prompt,
// the runs named and pinned in the history, compared across models in A/B compare; the
// quantisation report of the two; a head focused and a token hovered (linked views). Each
// screen is checked (both files named, rows, the report's summary, the focus framed) in each
// language; with OCTOSCOPE_SCREENSHOT_DIR set the windows are saved there as
// views-<what>-<language>-<width>x<height>.png for docs/workbench.md.
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include "ui/controllers/advisor_controller.h"
#include "ui/controllers/quant_report_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/dock_layout.h"
#include "ui/main_window.h"
#include "ui/panels/history_panel.h"
#include "ui/panels/quant_report_dialog.h"
#include "ui/support/language.h"
#include "ui/views/compare_view.h"
#include "ui/views/head_heatmap_view.h"
#include "ui/views/linked_views.h"
#include "ui/workbench.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {

const QString kOctet = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");
const QString kRefdata = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/../shared/refdata");

uint64_t run(MainWindow& w, const QString& prompt) {
    RunSpec s = w.runs().editorSpec();
    s.prompt = prompt.toStdString();
    s.max_tokens = 12;
    s.dla = true;
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(s);
    if (!settled.wait(60000) || !w.store().current()) return 0;
    return w.store().current()->id;
}

} // namespace

class TestViewsTour : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { QSettings().clear(); }
    void cleanup() { install_translations(QStringLiteral("en")); }
    void twoSizesBothLanguages();
};

void TestViewsTour::twoSizesBothLanguages() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString a = kRefdata + QStringLiteral("/stories260K.gguf"), b = kRefdata + QStringLiteral("/stories260K-q4_0.gguf");
    const QString prompt = QFile::exists(b) ? QStringLiteral("Once upon a time") : QStringLiteral("What is the capital of France?");
    if (!QFile::exists(b)) { // without ../shared: octet and a copy of it, two files of one model
        a = kOctet;
        b = dir.filePath(QStringLiteral("octet-copy.gguf"));
        QVERIFY(QFile::copy(kOctet, b));
    }
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        for (const QSize size : {QSize(1366, 768), QSize(1920, 1080)}) {
            QVERIFY(install_translations(language));
            const QString tag = QStringLiteral("%1-%2x%3").arg(language).arg(size.width()).arg(size.height());
            MainWindow w;
            w.resize(size);
            w.show();
            QVERIFY(test::load_model(w, a));
            const uint64_t on_a = run(w, prompt);
            QVERIFY(on_a);
            QVERIFY(test::load_model(w, b));
            const uint64_t on_b = run(w, prompt);
            QVERIFY(on_b);
            QVERIFY(w.store().rename_run(on_a, QStringLiteral("baseline")));
            QVERIFY(w.store().pin_run(on_a, true));

            // A/B across the two files, the history beside it.
            QVERIFY(w.workbench().advisorController()->compareRuns(on_a, on_b));
            QVERIFY(show_dock(w, QStringLiteral("compare")));
            QVERIFY(show_dock(w, QStringLiteral("history")));
            const QString summary = part<CompareView>(w)->summary();
            QVERIFY2(summary.contains(QFileInfo(a).fileName()) && summary.contains(QFileInfo(b).fileName()), qPrintable(summary));
            if (language == QStringLiteral("en")) QVERIFY2(summary.contains(QStringLiteral("the model file")), qPrintable(summary));
            QCOMPARE(part<HistoryPanel>(w)->view()->model()->rowCount(), 2);
            QTest::qWait(100);
            test::screenshot(w, QStringLiteral("views-compare-%1.png").arg(tag));

            // Linked views: a head focused on layers × heads, a token hovered on the strip.
            QVERIFY(show_dock(w, QStringLiteral("heatmap")));
            QVERIFY(show_dock(w, QStringLiteral("strip")));
            QTest::qWait(50);
            w.store().set_focus({.layer = 1, .head = 2});
            w.store().set_hover({.token = 3});
            QVERIFY(part<HeadHeatmapView>(w)->plot()->marks().selected == cell_span(2, 1));
            QTest::qWait(100);
            test::screenshot(w, QStringLiteral("views-linked-%1.png").arg(tag));

            // The quantisation report of the two files.
            QuantReportDialog* d = w.workbench().openQuantReport();
            d->setModelB(a); // the loaded model is b
            d->setPrompts({prompt, QStringLiteral("The little dog"), QStringLiteral("Lily and Tom went to")});
            d->resize(size.width() * 3 / 4, size.height() * 3 / 4);
            QVERIFY(d->runReport());
            QuantReportController& reports = w.workbench().quantReports();
            QSignalSpy changed(&reports, &QuantReportController::changed);
            for (int i = 0; i < 600 && reports.running(); ++i) changed.wait(200);
            QVERIFY2(reports.report(), qPrintable(reports.failure()));
            QCOMPARE(d->table()->rowCount(), 3);
            QVERIFY2(d->summaryText().contains(QStringLiteral("KL")), qPrintable(d->summaryText()));
            QTest::qWait(100);
            test::screenshot(*d, QStringLiteral("views-quant-report-%1.png").arg(tag));
            d->close();
        }
    }
}

QTEST_MAIN(TestViewsTour)
#include "test_views_tour.moc"
