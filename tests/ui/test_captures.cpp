// Captures in the workbench, driven through the real window on the offscreen platform with the
// built-in model: save → open in a fresh window without the model gives the same views' data;
// corrupt and future-version files give an error and the app stays usable; Re-run Capture is
// identical on the CPU and reports the first divergence when a setting was changed; the bug
// report bundle holds what it says and its command reproduces the run through octoscope-cli;
// the timeline scrubber moves every view; notes are edited, undone and round-tripped.
#include <QAbstractButton>
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <cmath>

#include "engine/capture/capture_container.h"
#include "engine/capture/capture_io.h"
#include "engine/core/sha256.h"
#include "engine/model/synthetic_model.h"
#include "ui/panels/advisor_panel.h"
#include "ui/controllers/capture_controller.h"
#include "ui/views/head_heatmap_view.h"
#include "ui/views/kv_view.h"
#include "ui/views/latency_view.h"
#include "ui/views/token_stream_view.h"
#include "ui/controllers/run_controller.h"
#include "ui/main_window.h"
#include "ui/panels/presenter_panel.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/router_panel.h"
#include "ui/reports/stall_monitor.h"
#include "ui/views/subsystem_strip_view.h"
#include "ui/views/timeline_scrubber.h"
#include "tests/ui/window_parts.h"
#include "ui/views/compare_view.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;
using octo::ui::test::write_synthetic_model;

namespace {

const QString kModel = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");

bool same_metrics(const TokenMetrics& a, const TokenMetrics& b) {
    return a.norm_share == b.norm_share && a.relative == b.relative && a.dla == b.dla && a.gates == b.gates;
}

std::vector<double> heatmap_cells(const HeadHeatmapView& view) {
    std::vector<double> cells;
    for (int l = 0; l < 16; ++l) {
        for (int h = 0; h < 8; ++h) cells.push_back(view.cell(l, h));
    }
    return cells;
}

// Equal cell by cell, an empty (NaN) cell equal to an empty one.
bool same_cells(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
    }
    return true;
}

// Save Capture, waiting for the worker to write it.
bool save_as(MainWindow& w, const QString& file) {
    QSignalSpy saved(w.captureController(), &CaptureController::captureSaved);
    w.captureController()->saveCapture(file);
    return QTest::qWaitFor([&] { return !saved.isEmpty(); }, 60000) && saved.first().at(1).toBool();
}

// Open Capture, waiting until it is shown (true) or an error was reported (false).
bool open_in(MainWindow& w, const QString& file) {
    QSignalSpy opened(w.captureController(), &CaptureController::captureOpened);
    QSignalSpy failed(w.captureController(), &CaptureController::failed);
    w.captureController()->openCapture(file);
    return QTest::qWaitFor([&] { return !opened.isEmpty() || !failed.isEmpty(); }, 60000) && !opened.isEmpty();
}

} // namespace

class TestCaptures : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void roundTripRestoresEveryView();
    void corruptAndFutureCapturesGiveAnError();
    void rerunIsIdenticalOnTheCpu();
    void rerunReportsTheFirstDivergence();
    void missingModelAsksForTheFile();
    void bugReportBundleReproducesTheRun();
    void scrubberMovesEveryView();
    void notesEditUndoAndRoundTrip();
    void thousandTokenCaptureTimes();
    void serverCapturesOpenAndPointToTheServer();
    void harmonyAnswerShowsItsChannelsApart();

private:
    bool loadInto(MainWindow& w);
    bool runAndWait(MainWindow& w, const RunSpec& spec);
    RunSpec specOf(const QString& prompt, int max_tokens) const;
    QString path(const QString& name) const { return dir_.filePath(name); }

    QTemporaryDir dir_;
};

void TestCaptures::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    QVERIFY(QFile::exists(kModel));
}

bool TestCaptures::loadInto(MainWindow& w) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(kModel);
    return loaded.wait(60000);
}

RunSpec TestCaptures::specOf(const QString& prompt, int max_tokens) const {
    RunSpec s;
    s.prompt = prompt.toStdString();
    s.max_tokens = max_tokens;
    return s;
}

bool TestCaptures::runAndWait(MainWindow& w, const RunSpec& s) {
    part<PromptPanel>(w)->restore(s);
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(s);
    return settled.wait(120000) && w.store().current() && w.store().current()->state == RunState::Finished;
}

// Run → notes → save → a fresh window without a model opens it: tokens, metrics, probes,
// heatmap values, KV history and blocks, latency, route, findings and notes are the same.
void TestCaptures::roundTripRestoresEveryView() {
    const QString file = path("round.octo");
    MainWindow a;
    a.show();
    QVERIFY(loadInto(a));
    a.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    QSignalSpy routed(part<RouterPanel>(a), &RouterPanel::routed);
    const QString prompt = QStringLiteral("What did Apple announce recently?");
    QVERIFY(runAndWait(a, specOf(prompt, 6)));
    QTRY_VERIFY_WITH_TIMEOUT(part<RouterPanel>(a)->decidedText() == prompt, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(part<AdvisorPanel>(a)->outputPrompt() == prompt, 10000);
    const RunRecord& run = *a.store().current();
    a.store().set_note(run.id, 2, QStringLiteral("the prompt's third token"));
    a.store().set_note(run.id, static_cast<int>(run.n_prompt()), QStringLiteral("first generated: 第一"));
    a.store().select_token(static_cast<int>(run.n_prompt() + 1));
    part<HeadHeatmapView>(a)->setScope(TokenScope::SelectedToken);
    QTest::qWait(2 * AdvisorPanel::kDebounceMs); // the prompt's findings are in
    QVERIFY(save_as(a, file));

    MainWindow b;
    b.captureController()->setDialogsEnabled(false);
    b.show();
    QVERIFY(!b.store().model());
    QVERIFY(open_in(b, file));
    QVERIFY(!b.store().model()); // nothing was loaded
    const RunRecord& back = *b.store().current();
    QVERIFY(back.capture);
    QCOMPARE(back.n_prompt(), run.n_prompt());
    QCOMPARE(back.tokens().size(), run.tokens().size());
    for (size_t i = 0; i < run.tokens().size(); ++i) {
        const TraceToken& x = run.tokens()[i];
        const TraceToken& y = back.tokens()[i];
        QCOMPARE(y.id, x.id);
        QCOMPARE(y.bytes, x.bytes);
        QVERIFY(same_metrics(x.metrics, y.metrics));
        QCOMPARE(y.probe.head_norms, x.probe.head_norms);
        QCOMPARE(y.probe.gates, x.probe.gates);
        QCOMPARE(y.probe.attention, x.probe.attention);
        QCOMPARE(y.logprobs.has_value(), x.logprobs.has_value());
        if (x.logprobs) QCOMPARE(y.logprobs->logprob, x.logprobs->logprob);
        QCOMPARE(y.ms, x.ms);
    }
    QCOMPARE(back.notes, run.notes);
    QCOMPARE(run.trace.precision, Precision::Exact); // octet's default, taken without a choice
    QCOMPARE(back.trace.precision, run.trace.precision);
    QCOMPARE(back.trace.repeat_spec().precision, std::optional<Precision>(Precision::Exact)); // Re-run repeats it
    QVERIFY(back.trace.outcome && run.trace.outcome);
    QCOMPARE(back.trace.outcome->kv_history.size(), run.trace.outcome->kv_history.size());
    for (size_t i = 0; i < run.trace.outcome->kv_history.size(); ++i) {
        QCOMPARE(back.trace.outcome->kv_history[i].blocks_used, run.trace.outcome->kv_history[i].blocks_used);
        QCOMPARE(back.trace.outcome->kv_history[i].step, run.trace.outcome->kv_history[i].step);
    }
    QCOMPARE(part<KvView>(b)->grid().blocks(), part<KvView>(a)->grid().blocks());
    QCOMPARE(b.findChild<LatencyView*>()->summary(), a.findChild<LatencyView*>()->summary());
    // The heatmap of the same selected token, and of the generated mean.
    b.store().select_token(static_cast<int>(run.n_prompt() + 1));
    part<HeadHeatmapView>(b)->setScope(TokenScope::SelectedToken);
    QVERIFY(same_cells(heatmap_cells(*part<HeadHeatmapView>(b)), heatmap_cells(*part<HeadHeatmapView>(a))));
    QVERIFY(!std::isnan(part<HeadHeatmapView>(b)->cell(0, 0)));
    part<HeadHeatmapView>(a)->setScope(TokenScope::AnswerMean);
    part<HeadHeatmapView>(b)->setScope(TokenScope::AnswerMean);
    QVERIFY(same_cells(heatmap_cells(*part<HeadHeatmapView>(b)), heatmap_cells(*part<HeadHeatmapView>(a))));
    QVERIFY(!std::isnan(part<HeadHeatmapView>(b)->cell(15, 7)));
    // Router and advisor as they were, and the prompt back in the editor.
    QVERIFY(part<RouterPanel>(a)->decision() && part<RouterPanel>(b)->decision());
    QCOMPARE(part<RouterPanel>(b)->decision()->route, part<RouterPanel>(a)->decision()->route);
    QCOMPARE(part<AdvisorPanel>(b)->findings().size(), part<AdvisorPanel>(a)->findings().size());
    for (size_t i = 0; i < part<AdvisorPanel>(a)->findings().size(); ++i) {
        QCOMPARE(part<AdvisorPanel>(b)->findings()[i].rule, part<AdvisorPanel>(a)->findings()[i].rule);
    }
    QCOMPARE(part<PromptPanel>(b)->editor()->toPlainText(), prompt);
    // It says it is a capture, without the model — the title, the status label and the message alike.
    QVERIFY(b.windowTitle().contains(QStringLiteral("round.octo")));
    QVERIFY(b.windowTitle().contains(QStringLiteral("its model is not loaded")));
    auto* status = b.findChild<QLabel*>(QStringLiteral("captureStatus"));
    QVERIFY(status && status->text().contains(QStringLiteral("round.octo")) && status->text().contains(QStringLiteral("its model is not loaded")));
    QVERIFY2(b.statusBar()->currentMessage().contains(QStringLiteral("its model is not loaded")), qPrintable(b.statusBar()->currentMessage()));
    // One at a time: the label waits while a message is on the line (shown during one, it was
    // drawn over it), and comes back when the message goes.
    QVERIFY(b.isVisible());
    QVERIFY(!status->isVisible());
    b.statusBar()->showMessage(QStringLiteral("a message that came later"));
    emit b.captureController()->captureOpened(file); // the label is brought up to date, as on any run change
    QVERIFY(!status->isVisible());
    b.statusBar()->clearMessage();
    QVERIFY(status->isVisible());
    // "Colour by" reads the metric the views show.
    auto* metric_box = b.findChild<QComboBox*>(QStringLiteral("metricBox"));
    QVERIFY(metric_box);
    QCOMPARE(metric_box->currentData().toInt(), static_cast<int>(b.store().metric()));

    // Opened where its model is loaded, all three say so; the box follows the capture's metric
    // after the user picked another one.
    a.captureController()->setDialogsEnabled(false);
    a.store().set_metric(Metric::Relative);
    auto* a_box = a.findChild<QComboBox*>(QStringLiteral("metricBox"));
    QCOMPARE(a_box->currentData().toInt(), static_cast<int>(Metric::Relative));
    QVERIFY(open_in(a, file));
    QVERIFY(a.store().metric() != Metric::Relative); // the capture's own default
    QCOMPARE(a_box->currentData().toInt(), static_cast<int>(a.store().metric()));
    QVERIFY(a.windowTitle().contains(QStringLiteral("its model is loaded")));
    auto* a_status = a.findChild<QLabel*>(QStringLiteral("captureStatus"));
    QVERIFY(a_status && a_status->text().contains(QStringLiteral("its model is loaded")));
    QVERIFY2(a.statusBar()->currentMessage().contains(QStringLiteral("its model is loaded")), qPrintable(a.statusBar()->currentMessage()));
}

void TestCaptures::corruptAndFutureCapturesGiveAnError() {
    // A good capture to break.
    const QString good = path("good.octo");
    {
        MainWindow w;
        w.show();
        QVERIFY(loadInto(w));
        QVERIFY(runAndWait(w, specOf(QStringLiteral("Hello"), 3)));
        QVERIFY(save_as(w, good));
    }
    QFile f(good);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    f.close();
    const auto write = [this](const QString& name, const QByteArray& data) {
        QFile out(path(name));
        out.open(QIODevice::WriteOnly);
        out.write(data);
        return path(name);
    };
    QByteArray flipped = bytes;
    flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x5a);
    const std::span<const uint8_t> span(reinterpret_cast<const uint8_t*>(bytes.constData()), static_cast<size_t>(bytes.size()));
    const std::string payload = unpack_capture_container(span, "good.octo").value();
    const std::string future = pack_capture_container(payload, kCaptureFormatVersion + 1).value();
    const QStringList bad{write("garbage.octo", QByteArray("not a capture at all")), write("truncated.octo", bytes.left(bytes.size() - 7)),
                          write("flipped.octo", flipped),
                          write("future.octo", QByteArray(future.data(), static_cast<qsizetype>(future.size())))};
    MainWindow w;
    w.show();
    for (const QString& file : bad) {
        QSignalSpy failed(w.captureController(), &CaptureController::failed);
        QVERIFY(!open_in(w, file));
        QCOMPARE(failed.size(), 1);
        QVERIFY2(w.captureController()->lastError().contains(QFileInfo(file).fileName()), qPrintable(w.captureController()->lastError()));
        QTRY_VERIFY(QApplication::activeModalWidget() != nullptr); // the dialog shows, without blocking
        QApplication::activeModalWidget()->close();
        QTRY_VERIFY(QApplication::activeModalWidget() == nullptr);
        QVERIFY(!w.store().current());
    }
    QVERIFY(w.captureController()->lastError().contains(QStringLiteral("version"))); // the future one says why
    QVERIFY(open_in(w, good)); // still usable
    QCOMPARE(QString::fromStdString(w.store().current()->trace.spec.prompt), QStringLiteral("Hello"));
}

void TestCaptures::rerunIsIdenticalOnTheCpu() {
    const QString file = path("identical.octo");
    {
        MainWindow w;
        w.show();
        QVERIFY(loadInto(w));
        RunSpec s = specOf(QStringLiteral("Once upon a time"), 8);
        s.stop_at_eog = false;
        s.sampling.temperature = 0.9f;
        s.sampling.seed = 1234;
        s.precision = Precision::Reference; // not octet's default: the re-run must take it from the capture
        QVERIFY(runAndWait(w, s));
        QCOMPARE(w.store().current()->trace.precision, Precision::Reference);
        QVERIFY(save_as(w, file));
    }
    QCOMPARE(open_capture(file.toStdString()).value().trace.precision, Precision::Reference);
    MainWindow w;
    w.captureController()->setDialogsEnabled(false);
    w.show();
    QVERIFY(open_in(w, file));
    QSignalSpy reported(w.captureController(), &CaptureController::rerunReported);
    w.captureController()->rerunCapture(); // loads the model first
    QVERIFY(reported.wait(120000));
    QVERIFY(w.store().model());
    QVERIFY(reported.first().at(1).toBool());
    QVERIFY(w.captureController()->lastComparison()->identical);
    QCOMPARE(w.store().runs().back().trace.precision, Precision::Reference);
    QCOMPARE(w.captureController()->lastComparison()->recorded_tokens, size_t{8});
    QVERIFY(w.captureController()->lastReport().contains(QStringLiteral("identical")));
    QVERIFY(part<PresenterPanel>(w)->reportLabel()->text().contains(QStringLiteral("identical")));
}

// The capture's settings edited through the engine API (subsystems ablated): the re-run on
// the recorded prompt differs, and the report names the first divergence and selects it.
void TestCaptures::rerunReportsTheFirstDivergence() {
    const QString file = path("edited.octo");
    {
        MainWindow w;
        w.show();
        QVERIFY(loadInto(w));
        QVERIFY(runAndWait(w, specOf(QStringLiteral("The capital of France is"), 8)));
        QVERIFY(save_as(w, file));
    }
    Capture c = open_capture(file.toStdString()).value();
    c.trace.spec.disabled.fill(true);
    c.trace.spec.disabled[0] = false;
    QVERIFY(save_capture(c, file.toStdString()));
    MainWindow w;
    w.captureController()->setDialogsEnabled(false);
    w.show();
    QVERIFY(open_in(w, file));
    QSignalSpy reported(w.captureController(), &CaptureController::rerunReported);
    w.captureController()->rerunCapture();
    QVERIFY(reported.wait(120000));
    QVERIFY(!reported.first().at(1).toBool());
    const auto& cmp = w.captureController()->lastComparison();
    QVERIFY(cmp && !cmp->identical && cmp->first_divergence);
    const size_t i = *cmp->first_divergence;
    QVERIFY(w.captureController()->lastReport().contains(QStringLiteral("generated token %1").arg(i)));
    const RunRecord* now = w.store().current();
    QVERIFY(now && !now->capture);
    QCOMPARE(w.store().selected_token(), static_cast<int>(now->n_prompt() + i));
    QVERIFY(now->tokens()[now->n_prompt() + i].id != c.trace.generated()[i].id);
    for (size_t k = 0; k < i; ++k) QCOMPARE(now->tokens()[now->n_prompt() + k].id, c.trace.generated()[k].id);
}

// A gpt-oss answer in the harmony format (here a capture whose answer's bytes were rewritten as
// one: the stream reads the trace's bytes): the analysis channel and the final answer each start a
// row behind their name, the headers and closers are markers, each chip's readout names its channel.
void TestCaptures::harmonyAnswerShowsItsChannelsApart() {
    const QString file = path("harmony.octo");
    {
        MainWindow w;
        w.show();
        QVERIFY(loadInto(w));
        RunSpec spec = specOf(QStringLiteral("Hello there"), 9);
        spec.stop_at_eog = false; // nine tokens whatever they are
        QVERIFY(runAndWait(w, spec));
        QVERIFY(save_as(w, file));
    }
    Capture c = open_capture(file.toStdString()).value();
    const std::vector<std::string> answer = {"<|channel|>", "analysis", "<|message|>", "Think", "<|end|>",
                                             "<|start|>assistant<|channel|>", "final", "<|message|>", "Hi"};
    QVERIFY(c.trace.n_generated() >= answer.size());
    for (size_t i = 0; i < answer.size(); ++i) c.trace.tokens[c.trace.n_prompt + i].bytes = answer[i];
    QVERIFY(save_capture(c, file.toStdString()));
    MainWindow w;
    w.captureController()->setDialogsEnabled(false);
    w.show();
    QVERIFY(open_in(w, file));
    auto* stream = w.findChild<TokenStreamView*>();
    QVERIFY(stream);
    QCOMPARE(stream->channelLabels(), (QStringList{QStringLiteral("analysis:"), QStringLiteral("final answer:")}));
    int think = -1, hi = -1, header = -1;
    const auto& chips = stream->chips();
    for (size_t i = 0; i < chips.size(); ++i) {
        if (!chips[i].generated) continue;
        if (chips[i].text == QStringLiteral("Think")) think = static_cast<int>(i);
        if (chips[i].text == QStringLiteral("Hi")) hi = static_cast<int>(i);
        if (chips[i].text == QStringLiteral("final")) header = static_cast<int>(i);
    }
    QVERIFY(think >= 0 && hi >= 0 && header >= 0);
    QCOMPARE(chips[static_cast<size_t>(think)].channel, QStringLiteral("analysis"));
    QVERIFY(!chips[static_cast<size_t>(think)].marker);
    QCOMPARE(chips[static_cast<size_t>(hi)].channel, QStringLiteral("final"));
    QVERIFY(chips[static_cast<size_t>(header)].marker);
    QVERIFY2(stream->tooltip(think).contains(QStringLiteral("analysis channel")), qPrintable(stream->tooltip(think)));
    QVERIFY2(stream->tooltip(header).contains(QStringLiteral("harmony header")), qPrintable(stream->tooltip(header)));
    if (const QByteArray shot = qgetenv("OCTOSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        w.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/harmony-channels.png"));
    }
}

void TestCaptures::missingModelAsksForTheFile() {
    const QString file = path("moved.octo");
    {
        MainWindow w;
        w.show();
        QVERIFY(loadInto(w));
        QVERIFY(runAndWait(w, specOf(QStringLiteral("Hello there"), 4)));
        QVERIFY(save_as(w, file));
    }
    Capture c = open_capture(file.toStdString()).value();
    c.model.path = path("gone/octet.gguf").toStdString();
    QVERIFY(save_capture(c, file.toStdString()));
    MainWindow w;
    w.captureController()->setDialogsEnabled(false);
    w.show();
    QVERIFY(open_in(w, file));
    QStringList problems;
    w.captureController()->setModelPicker([&problems](const QString& problem) {
        problems << problem;
        return problems.size() == 1 ? QStringLiteral(OCTOSCOPE_SOURCE_DIR "/README.md") : kModel; // wrong file first
    });
    QSignalSpy reported(w.captureController(), &CaptureController::rerunReported);
    w.captureController()->rerunCapture();
    QVERIFY(reported.wait(120000));
    QCOMPARE(problems.size(), 2);
    QVERIFY2(problems[0].contains(QStringLiteral("gone")), qPrintable(problems[0]));
    QVERIFY2(problems[1].contains(QStringLiteral("README.md")), qPrintable(problems[1]));
    QVERIFY(w.captureController()->lastComparison()->identical);

    // Giving up: a clear message, nothing loaded or run.
    MainWindow x;
    x.captureController()->setDialogsEnabled(false);
    QVERIFY(open_in(x, file));
    x.captureController()->setModelPicker([](const QString&) { return QString(); });
    QSignalSpy failed(x.captureController(), &CaptureController::failed);
    x.captureController()->rerunCapture();
    QCOMPARE(failed.size(), 1);
    QVERIFY(x.captureController()->lastError().contains(QStringLiteral("Not re-run")));
    QVERIFY(!x.store().model());
}

void TestCaptures::bugReportBundleReproducesTheRun() {
    MainWindow w;
    w.captureController()->setDialogsEnabled(false);
    w.show();
    QVERIFY(loadInto(w));
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    // An earlier A/B comparison of two other runs: the report about the next run leaves it out.
    QVERIFY(runAndWait(w, specOf(QStringLiteral("What is 20% of 300?"), 4)));
    const RunRecord first = *w.store().current();
    QVERIFY(runAndWait(w, specOf(QStringLiteral("What is 10% of 200?"), 4)));
    part<CompareView>(w)->showRuns(first, *w.store().current(), Metric::NormShare, QStringLiteral("prompt edited"), *w.store().model());
    QVERIFY(part<CompareView>(w)->comparison().has_value());
    RunSpec s = specOf(QStringLiteral("Tom's \"quoted\" prompt -- with $HOME and `ticks`"), 10);
    s.sampling.temperature = 0.7f;
    s.sampling.seed = 42;
    s.sampling.top_k = 20;
    s.sampling.top_p = 0.9f;
    s.disabled[2] = true;
    s.ablation_mode = AblationMode::Mean;
    s.precision = Precision::Reference; // not octet's default: the command must name it
    QVERIFY(runAndWait(w, s));
    const QString folder = path("bug report");
    QVERIFY(w.captureController()->exportBugReport(folder));
    const QDir dir(folder);
    QCOMPARE(QImage(dir.filePath("window.png")).size(), w.size());
    for (const char* plot : {"headHeatmapPlot", "attentionPlot", "kvPlot", "latencyPlot", "subsystemStripPlot"}) {
        const QImage image(dir.filePath(QStringLiteral("plots/%1.png").arg(QLatin1String(plot))));
        QVERIFY2(image.size() == QSize(800, 500), plot);
    }
    for (const char* plot : {"compareLogprobPlot", "compareSharePlot", "compareHeadPlot"}) {
        QVERIFY2(!QFile::exists(dir.filePath(QStringLiteral("plots/%1.png").arg(QLatin1String(plot)))), plot);
    }
    QVERIFY(open_capture(dir.filePath("run.octo").toStdString()));
    QFile md(dir.filePath("report.md"));
    QVERIFY(md.open(QIODevice::ReadOnly));
    const QString report = QString::fromUtf8(md.readAll());
    const QString sha = QString::fromStdString(sha256_file(kModel.toStdString()).value());
    for (const QString& part : {QStringLiteral("## System"), QStringLiteral("logical cores"), QStringLiteral("RAM: "), QStringLiteral("Qt: "),
                                QStringLiteral("Compiler: "), QStringLiteral("Backend: cpu"), sha, QStringLiteral("octet.gguf"),
                                QString::fromStdString(s.prompt), QStringLiteral("## Route"), QStringLiteral("## Advisor findings"),
                                QStringLiteral("- precision: reference"), QStringLiteral(" --precision=reference ")}) {
        QVERIFY2(report.contains(part), qPrintable(part));
    }
    const QRegularExpression block(QStringLiteral("```sh\n(octoscope-cli generate [^\n]*)\n```"));
    const QRegularExpressionMatch m = block.match(report);
    QVERIFY(m.hasMatch());
    QString command = m.captured(1);
    command.replace(0, QStringLiteral("octoscope-cli").size(), QStringLiteral("'" OCTOSCOPE_CLI_PATH "'"));
    QProcess cli;
    cli.setWorkingDirectory(folder);
    cli.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command + QStringLiteral(" --json")});
    QVERIFY(cli.waitForFinished(120000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    const QJsonObject out = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const QJsonArray ids = out.value(QStringLiteral("generated_ids")).toArray();
    QCOMPARE(out.value(QStringLiteral("precision")).toString(), QStringLiteral("reference"));
    const RunRecord& run = *w.store().current();
    QCOMPARE(static_cast<size_t>(ids.size()), run.n_generated());
    for (size_t i = 0; i < run.n_generated(); ++i) QCOMPARE(ids[static_cast<qsizetype>(i)].toInt(), run.tokens()[run.n_prompt() + i].id);
}

void TestCaptures::scrubberMovesEveryView() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w));
    // A JSON task: the built-in model's answer is longer than 5 tokens, so all 5 are generated.
    QVERIFY(runAndWait(w, specOf(QStringLiteral("转成JSON：name=林静，password=m88"), 5)));
    const RunRecord& run = *w.store().current();
    QCOMPARE(run.n_generated(), size_t(5)); // the steps below walk up to n_prompt + 3
    part<HeadHeatmapView>(w)->setScope(TokenScope::SelectedToken);
    w.store().set_metric(Metric::NormShare); // the heatmap shows head norms
    TimelineScrubber* timeline = part<TimelineScrubber>(w);
    QCOMPARE(timeline->slider()->maximum(), static_cast<int>(run.tokens().size()) - 1);
    timeline->slider()->setValue(0);
    QCOMPARE(w.store().selected_token(), 0);
    // The window's own actions carry the shortcuts (Alt+Left / Alt+Right work wherever the focus is).
    const auto shortcut = [&w](const char* keys) {
        for (QAction* a : w.actions()) {
            if (a->shortcuts().contains(QKeySequence(QString::fromLatin1(keys)))) return a;
        }
        return static_cast<QAction*>(nullptr);
    };
    QVERIFY(shortcut("Alt+Right") && shortcut("Alt+Left") && shortcut("]") && shortcut("["));
    shortcut("Alt+Right")->trigger();
    shortcut("]")->trigger();
    QCOMPARE(w.store().selected_token(), 2);
    shortcut("Alt+Left")->trigger();
    QCOMPARE(w.store().selected_token(), 1);
    QCOMPARE(timeline->slider()->value(), 1);
    for (int index : {1, static_cast<int>(run.n_prompt()) + 2}) {
        timeline->slider()->setValue(index);
        QCOMPARE(w.store().selected_token(), index);
        const std::vector<float>& norms = run.tokens()[static_cast<size_t>(index)].probe.head_norms;
        QCOMPARE(part<HeadHeatmapView>(w)->cell(3, 5), double(norms[3 * 8 + 5])); // the heatmap shows that token
        QVERIFY(part<PresenterPanel>(w)->tokenLabel()->text().startsWith(QStringLiteral("Position %1 (").arg(index)));
        QCOMPARE(w.findChild<SubsystemStripView*>()->cursor(), index);
    }
    timeline->stepForward();
    QCOMPARE(w.store().selected_token(), static_cast<int>(run.n_prompt()) + 3);
    // The heatmap follows the scrubber: two tokens, two different maps.
    timeline->slider()->setValue(1);
    const auto first = heatmap_cells(*part<HeadHeatmapView>(w));
    timeline->slider()->setValue(static_cast<int>(run.tokens().size()) - 1);
    QVERIFY(!same_cells(heatmap_cells(*part<HeadHeatmapView>(w)), first));
}

void TestCaptures::notesEditUndoAndRoundTrip() {
    const QString file = path("notes.octo");
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(loadInto(w));
    QVERIFY(runAndWait(w, specOf(QStringLiteral("The cat sat on the"), 6)));
    const RunRecord& run = *w.store().current();
    PresenterPanel* presenter = part<PresenterPanel>(w);
    part<TimelineScrubber>(w)->slider()->setValue(3);
    QTest::keyClicks(presenter->noteEditor(), QStringLiteral("Look at this token"));
    QCOMPARE(run.notes.at(3), QStringLiteral("Look at this token"));
    part<TimelineScrubber>(w)->slider()->setValue(static_cast<int>(run.n_prompt()));
    QVERIFY(presenter->noteEditor()->toPlainText().isEmpty());
    QTest::keyClicks(presenter->noteEditor(), QStringLiteral("generated"));
    QCOMPARE(presenter->noteList()->count(), 2);
    presenter->undoStack()->undo(); // the second note, typed in one go, goes at once
    QCOMPARE(run.notes.count(static_cast<int64_t>(run.n_prompt())), size_t{0});
    presenter->undoStack()->undo();
    QCOMPARE(run.notes.count(3), size_t{0});
    QCOMPARE(w.store().selected_token(), 3); // undo shows the token it changed
    presenter->undoStack()->redo();
    QCOMPARE(run.notes.at(3), QStringLiteral("Look at this token"));
    QCOMPARE(presenter->noteEditor()->toPlainText(), QStringLiteral("Look at this token"));
    QVERIFY(save_as(w, file));

    MainWindow b;
    b.resize(1280, 800);
    b.show();
    QVERIFY(open_in(b, file));
    QCOMPARE(b.store().current()->notes.size(), size_t{1});
    QCOMPARE(part<PresenterPanel>(b)->noteList()->count(), 1);
    part<TimelineScrubber>(b)->slider()->setValue(3);
    QCOMPARE(part<PresenterPanel>(b)->noteEditor()->toPlainText(), QStringLiteral("Look at this token"));
    // The window with the timeline and the presenter still fits 1280 × 800.
    QVERIFY2(b.minimumSizeHint().width() <= 1280 && b.minimumSizeHint().height() <= 800,
             qPrintable(QStringLiteral("%1 x %2").arg(b.minimumSizeHint().width()).arg(b.minimumSizeHint().height())));
    const QByteArray shot = qgetenv("OCTOSCOPE_TEACHING_SCREENSHOT");
    if (!shot.isEmpty()) { // docs/teaching-replay.png: a capture, its notes, the presenter in front
        for (QDockWidget* dock : b.findChildren<QDockWidget*>()) {
            if (dock->objectName() == QStringLiteral("presenterDock")) dock->raise();
        }
        QTest::qWait(300);
        QVERIFY(b.exportScreenshot(QString::fromUtf8(shot)));
    }
}

// A 1,000-token run (a synthetic model with a long enough context, attention recorded as the
// workbench does by default): the capture's size, and the longest the UI thread stalled while it
// was saved and while it was opened (encoding, decoding and the file run on a worker).
void TestCaptures::thousandTokenCaptureTimes() {
    SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    spec.context_length = 1100;
    const QString model = path("long-context.gguf");
    QVERIFY(write_synthetic_model(model, spec));
    MainWindow w;
    w.captureController()->setDialogsEnabled(false);
    w.show();
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(model);
    QVERIFY(loaded.wait(60000));
    RunSpec s = specOf(QStringLiteral("Tell a long story."), 1000);
    s.stop_at_eog = false;
    QVERIFY(runAndWait(w, s));
    QCOMPARE(w.store().current()->n_generated(), size_t{1000});
    const size_t n = w.store().current()->tokens().size();
    StallMonitor stalls;
    QElapsedTimer t;
    t.start();
    QVERIFY(save_as(w, path("long.octo")));
    const qint64 save_ms = t.restart();
    const double save_stall = stalls.worstMs();
    MainWindow b;
    b.show();
    QTest::qWait(50);
    stalls.reset();
    t.restart();
    QVERIFY(open_in(b, path("long.octo")));
    const qint64 open_ms = t.elapsed();
    const double open_stall = stalls.worstMs();
    QCOMPARE(b.store().current()->tokens().size(), n);
    qInfo("%zu tokens (1000 generated, %d layers x %d heads): capture %lld bytes; save %lld ms (UI thread stalled at most %.0f ms), "
          "open %lld ms (stalled at most %.0f ms)",
          n, int(spec.n_layer), int(spec.n_head), static_cast<long long>(QFileInfo(path("long.octo")).size()),
          static_cast<long long>(save_ms), save_stall, static_cast<long long>(open_ms), open_stall);
}

// Captures of runs on servers (tests/data/captures/): an Octoscope server's with its measurements,
// another server's with text only (no ids, no model shape). Both open and every view follows the
// scrubber; Re-run points to the server instead of asking for a model file.
void TestCaptures::serverCapturesOpenAndPointToTheServer() {
    for (const char* name : {"remote_octoscope_server.octo", "remote_other_server.octo"}) {
        const QString file = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/tests/data/captures/") + QString::fromLatin1(name);
        const Capture c = open_capture(file.toStdString()).value();
        QVERIFY(c.engine);
        MainWindow w;
        w.captureController()->setDialogsEnabled(false);
        w.resize(1280, 800);
        w.show();
        QVERIFY2(open_in(w, file), name);
        const RunRecord& run = *w.store().current();
        QCOMPARE(run.tokens().size(), c.trace.tokens.size());
        QVERIFY2(w.statusBar()->currentMessage().contains(QString::fromStdString(c.engine->url)),
                 qPrintable(w.statusBar()->currentMessage()));
        TimelineScrubber* timeline = part<TimelineScrubber>(w);
        for (int index = 0; index < static_cast<int>(run.tokens().size()); ++index) {
            timeline->slider()->setValue(index);
            QCOMPARE(w.store().selected_token(), index);
        }
        if (c.engine->octoscope) { // head norms came with the run: the heatmap shows them
            part<HeadHeatmapView>(w)->setScope(TokenScope::SelectedToken);
            w.store().set_metric(Metric::NormShare);
            const int last = static_cast<int>(run.tokens().size()) - 1;
            timeline->slider()->setValue(last);
            QCOMPARE(part<HeadHeatmapView>(w)->cell(3, 5), double(run.tokens()[static_cast<size_t>(last)].probe.head_norms[3 * 8 + 5]));
        }
        if (const QByteArray dir = qgetenv("OCTOSCOPE_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(100);
            w.grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(QString::fromLatin1(name) + QStringLiteral(".png")));
        }
        QSignalSpy failed(w.captureController(), &CaptureController::failed);
        w.captureController()->rerunCapture();
        QCOMPARE(failed.size(), 1);
        QVERIFY2(w.captureController()->lastError().contains(QStringLiteral("octoscope-cli replay")),
                 qPrintable(w.captureController()->lastError()));
        QVERIFY(!w.store().model()); // nothing loaded
    }
}

QTEST_MAIN(TestCaptures)
#include "test_captures.moc"
