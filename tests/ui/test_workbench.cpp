// The workbench driven through its real widgets on the offscreen platform, with the real engine
// and models the test writes: the token view against octoscope-cli, heatmap cells against the
// engine, the KV view, subsystem switches, the precision choice, cancel, a failed load, and the
// --screenshot entry, and --help without a display.
#include <QCheckBox>
#include <QColor>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QLabel>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <string_view>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/gguf/gguf_writer.h"
#include "engine/inference/session.h"
#include "engine/model/model.h"
#include "engine/model/synthetic_model.h"
#include "ui/controllers/advisor_controller.h"
#include "ui/panels/advisor_panel.h"
#include "ui/panels/backend_menu.h"
#include "ui/session/capture_record.h"
#include "ui/views/compare_view.h"
#include "ui/support/editor_highlights.h"
#include "ui/support/engine_labels.h"
#include "ui/views/head_heatmap_view.h"
#include "ui/views/kv_view.h"
#include "ui/controllers/export_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/main_window.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/recent_models_menu.h"
#include "ui/panels/router_panel.h"
#include "ui/panels/switches_panel.h"
#include "ui/views/token_stream_view.h"
#include "tests/ui/window_parts.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;
using octo::ui::test::write_synthetic_model;

class TestWorkbench : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void tokenViewMatchesTheCli();
    void heatmapCellsAreTheEnginesValues();
    void switchesRecordAndChangeTheMask();
    void precisionChoiceReachesTheRun();
    void reasoningLevelForAHarmonyModel();
    void cancelStopsTheStream();
    void runningStateFollowsTheStore();
    void failedLoadKeepsThePreviousModel();
    void screenshotEntryPoint();
    void helpNeedsNoDisplay();
    void routerFollowsTheEditorAndLearns();
    void routerTableListsTheRouteFirst();
    void recentModelsNameTheBuiltInModel();
    void calibrationFromTheMenu();
    void exportsWriteTheRun();
    void advisorSuggestsAppliesAndCompares();
    void consistencyRunReports();
    void outputChecksUnderlineTheOutput();
    void rewriteVerdictSaysWorse();
    void backendChoiceReloadsAndFallsBack();

private:
    QString writeModel(const QString& name, int64_t context_length, TensorType type = TensorType::F32);
    bool loadInto(MainWindow& w, const QString& path);
    bool runAndWait(MainWindow& w, const QString& prompt, int max_tokens);

    QTemporaryDir dir_;
    QString model_;
    QString long_model_;
};

QString TestWorkbench::writeModel(const QString& name, int64_t context_length, TensorType type) {
    SyntheticModelSpec spec;
    spec.weight_type = type;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    spec.context_length = context_length;
    const QString path = dir_.filePath(name);
    return write_synthetic_model(path, spec) ? path : QString();
}

void TestWorkbench::initTestCase() {
    QStandardPaths::setTestModeEnabled(true); // settings go to a test location
    QVERIFY(dir_.isValid());
    model_ = writeModel("small.gguf", 256);
    long_model_ = writeModel("long.gguf", 4096);
}

bool TestWorkbench::loadInto(MainWindow& w, const QString& path) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(path);
    return loaded.wait(30000);
}

bool TestWorkbench::runAndWait(MainWindow& w, const QString& prompt, int max_tokens) {
    part<PromptPanel>(w)->editor()->setPlainText(prompt);
    RunSpec s = part<PromptPanel>(w)->spec();
    s.max_tokens = max_tokens;
    part<PromptPanel>(w)->restore(s);
    QSignalSpy settled(&w, &MainWindow::runSettled);
    QTest::keyClick(part<PromptPanel>(w)->editor(), Qt::Key_Return, Qt::ControlModifier); // Ctrl+Enter
    return settled.wait(60000);
}

void TestWorkbench::tokenViewMatchesTheCli() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    QVERIFY(runAndWait(w, QStringLiteral("The quick brown fox"), 12));
    const RunRecord* run = w.store().current();
    QVERIFY(run);
    QCOMPARE(run->state, RunState::Finished);

    QProcess cli;
    cli.start(QStringLiteral(OCTOSCOPE_CLI_PATH), {"generate", "--model", model_, "--prompt", "The quick brown fox",
                                                   "--max-tokens", "12", "--seed", "0", "--json"});
    QVERIFY(cli.waitForFinished(60000));
    const QJsonObject j = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    const QJsonArray ids = j["generated_ids"].toArray();
    QCOMPARE(static_cast<qsizetype>(run->n_generated()), ids.size());
    for (qsizetype i = 0; i < ids.size(); ++i) QCOMPARE(run->tokens()[run->n_prompt() + static_cast<size_t>(i)].id, ids[i].toInt());
    const QString text = j["text"].toString();
    if (j["stop_reason"].toString() == QStringLiteral("max_tokens")) QCOMPARE(part<TokenStreamView>(w)->generatedText(), text);
    // The KV view shows the blocks the run used.
    const auto& blocks = part<KvView>(w)->grid().blocks();
    QVERIFY(std::count(blocks.begin(), blocks.end(), KvBlockState::Used) >= 1);
    QVERIFY(part<KvView>(w)->summary().contains(QStringLiteral("evaluated")));
}

void TestWorkbench::heatmapCellsAreTheEnginesValues() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    QVERIFY(runAndWait(w, QStringLiteral("abc"), 3));
    const RunRecord* run = w.store().current();
    QVERIFY(run && run->n_prompt() >= 3);
    const int token = 2; // a prompt token: its own position's values
    w.store().select_token(token);
    part<HeadHeatmapView>(w)->setScope(TokenScope::SelectedToken);

    // The engine's values for that position, from a session of its own.
    auto model = Model::load(model_.toStdString()).value();
    auto backend = CpuBackend::create({1, {}}).value();
    SessionOptions o;
    o.instrument.head_norms = true;
    auto session = Session::create(*model, *backend, o).value();
    std::vector<int32_t> prompt;
    for (size_t i = 0; i < run->n_prompt(); ++i) prompt.push_back(run->tokens()[i].id);
    QVERIFY(session->eval(prompt));
    const TokenProbe& want = session->probes()[token];
    const int n_head = static_cast<int>(model->params().n_head);
    for (int l = 0; l < static_cast<int>(model->params().n_layer); ++l) {
        for (int h = 0; h < n_head; ++h) {
            const double got = part<HeadHeatmapView>(w)->cell(l, h);
            const double expected = want.head_norms[static_cast<size_t>(l * n_head + h)];
            QVERIFY2(std::abs(got - expected) <= 1e-5 * std::abs(expected) + 1e-6,
                     qPrintable(QStringLiteral("layer %1 head %2: %3 vs %4").arg(l).arg(h).arg(got).arg(expected)));
        }
    }
}

void TestWorkbench::switchesRecordAndChangeTheMask() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    QVERIFY(runAndWait(w, QStringLiteral("hello"), 4));
    QCOMPARE(w.runs().lastSubmitted().disabled[2], false);
    QTest::mouseClick(part<SwitchesPanel>(w)->toggle(2), Qt::LeftButton); // rte-c off
    QVERIFY(!part<SwitchesPanel>(w)->toggle(2)->isChecked());
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().rerun();
    QVERIFY(settled.wait(60000));
    QCOMPARE(w.runs().lastSubmitted().disabled[2], true);
    const RunRecord* run = w.store().current();
    QCOMPARE(run->trace.spec.disabled[2], true); // the history records it
    QCOMPARE(w.store().runs().size(), size_t{2});
    for (size_t i = run->n_prompt(); i < run->tokens().size(); ++i) {
        const auto& share = run->tokens()[i].metrics.norm_share;
        QVERIFY(share);
        QCOMPARE((*share)[2], 0.0f); // the engine zeroed rte-c's heads
    }
}

// The Precision box: the model's default named in it and its tooltip; a choice reaches the run
// (another log-prob on Q8_0 weights), its record and capture, and is remembered like the rest.
// A model whose chat template is harmony (gpt-oss): the reasoning level shows beside the system
// message, works in chat mode and reaches the prompt the model reads; other models hide it.
void TestWorkbench::reasoningLevelForAHarmonyModel() {
    SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    spec.context_length = 512; // one token per character of the rendered prompt
    spec.chat_template = "{{- '<|start|>system<|message|>' }}{# harmony: <|channel|>analysis #}";
    const QString path = dir_.filePath(QStringLiteral("harmony.gguf"));
    QVERIFY(write_synthetic_model(path, spec));
    MainWindow w;
    w.show();
    QComboBox* level = part<PromptPanel>(w)->reasoningBox();
    QVERIFY(loadInto(w, path));
    QCOMPARE(QString::fromStdString(w.store().model()->chat_family), QStringLiteral("harmony"));
    QVERIFY(level->isVisible());
    QVERIFY(!level->isEnabled()); // chat mode off
    w.findChild<QCheckBox*>(QStringLiteral("chatBox"))->setChecked(true);
    QVERIFY(level->isEnabled());
    QCOMPARE(level->currentText(), QStringLiteral("Reasoning: medium"));
    level->setCurrentIndex(level->findText(QStringLiteral("Reasoning: high")));
    QCOMPARE(part<PromptPanel>(w)->spec().reasoning_effort, ReasoningEffort::High);
    QVERIFY(runAndWait(w, QStringLiteral("Hi"), 1));
    const RunRecord* run = w.store().current();
    QVERIFY(run);
    std::string prompt;
    for (size_t i = 0; i < run->n_prompt(); ++i) prompt += run->tokens()[i].bytes;
    QVERIFY2(prompt.find("Reasoning: high") != std::string::npos, prompt.c_str());
    QCOMPARE(run->trace.spec.reasoning_effort, ReasoningEffort::High);
    if (const QByteArray shot = qgetenv("OCTOSCOPE_SCREENSHOT_DIR"); !shot.isEmpty()) {
        w.grab().save(QString::fromLocal8Bit(shot) + QStringLiteral("/reasoning-level.png"));
    }
    QVERIFY(loadInto(w, model_)); // no chat template: nothing reads a level
    QVERIFY(!level->isVisible());
}

void TestWorkbench::precisionChoiceReachesTheRun() {
    const QString q8 = writeModel("q8.gguf", 256, TensorType::Q8_0);
    MainWindow w;
    w.show();
    QComboBox* box = part<PromptPanel>(w)->precisionBox();
    QVERIFY(box->isVisible());
    QCOMPARE(box->count(), 3);
    QVERIFY(box->toolTip().contains(QStringLiteral("no model loaded")));
    QVERIFY(loadInto(w, q8));
    QCOMPARE(w.store().model()->default_precision, Precision::Reference);
    QCOMPARE(box->itemText(0), QStringLiteral("Model default: Reference (as llama.cpp)"));
    QVERIFY(box->toolTip().contains(QStringLiteral("This model's default: Reference (as llama.cpp)")));
    QCOMPARE(box->currentIndex(), 0);
    QVERIFY(!part<PromptPanel>(w)->spec().precision);

    QVERIFY(runAndWait(w, QStringLiteral("Tell me"), 3));
    const RunRecord* by_default = w.store().current();
    QVERIFY(by_default && by_default->n_generated() >= 1);
    QVERIFY(!by_default->trace.spec.precision);
    QCOMPARE(by_default->trace.precision, Precision::Reference); // the model's default, as the engine took it
    const double reference_logprob = by_default->tokens()[by_default->n_prompt()].logprobs->logprob;

    const int exact = box->findText(precision_label(Precision::Exact));
    QVERIFY(exact > 0);
    box->setCurrentIndex(exact);
    QCOMPARE(part<PromptPanel>(w)->spec().precision, std::optional<Precision>(Precision::Exact));
    QVERIFY(runAndWait(w, QStringLiteral("Tell me"), 3));
    QCOMPARE(w.runs().lastSubmitted().precision, std::optional<Precision>(Precision::Exact));
    const RunRecord* run = w.store().current();
    QVERIFY(run && run->n_generated() >= 1);
    QCOMPARE(run->trace.precision, Precision::Exact);
    QVERIFY(run->tokens()[run->n_prompt()].logprobs->logprob != reference_logprob); // Q8_0 activations or not
    QCOMPARE(run->trace.repeat_spec().precision, Precision::Exact);
    QCOMPARE(by_default->trace.repeat_spec().precision, Precision::Reference); // what it took, not "default"

    // Remembered with the other settings (QSettings), the default as well.
    QSettings st(dir_.filePath("precision.ini"), QSettings::IniFormat);
    part<PromptPanel>(w)->save(st);
    PromptPanel other;
    other.load(st);
    QCOMPARE(other.spec().precision, std::optional<Precision>(Precision::Exact));
    box->setCurrentIndex(0);
    part<PromptPanel>(w)->save(st);
    other.load(st); // it held exact
    QVERIFY(!other.spec().precision);
    // A run from the history puts its choice back.
    part<PromptPanel>(w)->restore(run->trace.spec);
    QCOMPARE(box->currentIndex(), exact);
}

void TestWorkbench::cancelStopsTheStream() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, long_model_));
    // A finished run first: the advisor checks its output.
    QVERIFY(runAndWait(w, QStringLiteral("Hello"), 3));
    auto* advisor_output = w.findChild<QPlainTextEdit*>(QStringLiteral("advisorOutput"));
    QVERIFY(advisor_output);
    QCOMPARE(part<AdvisorPanel>(w)->outputPrompt(), QStringLiteral("Hello"));
    QCOMPARE(advisor_output->toPlainText(), w.store().current()->generated_text());
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("Count"));
    RunSpec s = part<PromptPanel>(w)->spec();
    s.max_tokens = 3000;
    s.record_attention = false;
    part<PromptPanel>(w)->restore(s);
    QSignalSpy tokens(&w.store(), &RunStore::tokensAppended);
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().runPrompt();
    QVERIFY(tokens.wait(30000));
    w.runs().cancel();
    QVERIFY(settled.wait(30000));
    const RunRecord* run = w.store().current();
    QCOMPARE(run->state, RunState::Cancelled);
    // The advisor no longer shows the previous run's output as if it answered this prompt.
    QCOMPARE(advisor_output->toPlainText(), QString());
    QVERIFY(part<AdvisorPanel>(w)->outputPrompt().isEmpty());
    QVERIFY(advisor_output->placeholderText().contains(QStringLiteral("cancelled")));
    const size_t at_ack = run->tokens().size();
    QVERIFY(run->n_generated() < 3000);
    QSignalSpy after(&w.store(), &RunStore::tokensAppended);
    after.wait(300); // nothing may follow the acknowledgement (at most one straggling token)
    QVERIFY(after.count() <= 1);
    QVERIFY(w.store().current()->tokens().size() <= at_ack + 1);
}

// Running is derived from the runs the engine queued and settled (RunStore::running), not set by
// whoever submits: three quick submits, of which a queued one is replaced (dropped), end with
// nothing running once the last has finished.
void TestWorkbench::runningStateFollowsTheStore() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    QVERIFY(!w.store().running());
    QSignalSpy running(&w.store(), &RunStore::runningChanged);
    RunSpec s = w.runs().editorSpec();
    s.prompt = "one";
    s.max_tokens = 40;
    s.stop_at_eog = false;
    w.runs().submit(s);
    QVERIFY(w.store().running()); // at once, before the engine has said anything
    s.prompt = "two";
    w.runs().submit(s);
    s.prompt = "three";
    w.runs().submit(s); // replaces "two" if it is still queued
    QTRY_VERIFY_WITH_TIMEOUT(!w.store().running(), 60000);
    QVERIFY(running.count() >= 2);
    QCOMPARE(running.first().first().toBool(), true);
    QCOMPARE(running.last().first().toBool(), false);
    QCOMPARE(w.store().current()->trace.spec.prompt, std::string("three"));
    QCOMPARE(w.store().current()->state, RunState::Finished);
    QCOMPARE(w.runs().lastSubmitted().prompt, std::string("three"));
}

void TestWorkbench::failedLoadKeepsThePreviousModel() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    const QString bad = dir_.filePath("bad.gguf");
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("GGUF\x03\x00\x00\x00truncated", 17);
    f.close();
    QSignalSpy failed(&w.store(), &RunStore::loadFailed);
    w.openModel(bad);
    QVERIFY(failed.wait(30000));
    const QString message = failed.front().front().toString();
    QCOMPARE(message.count(bad), 1); // the file named once
    QCOMPARE(failed.front().back().toBool(), false); // not a cancel
    QTRY_VERIFY(QApplication::activeModalWidget() != nullptr); // the warning shows, without blocking
    QApplication::activeModalWidget()->close();
    QCOMPARE(QString::fromStdString(w.store().model()->path), model_);
    // A file of an architecture the engine does not run: one sentence naming it, the model stays.
    GgufWriter writer;
    writer.add_string("general.architecture", "mamba");
    const QString other = dir_.filePath("mamba.gguf");
    QFile g(other);
    QVERIFY(g.open(QIODevice::WriteOnly));
    const std::vector<uint8_t> bytes = writer.to_bytes();
    g.write(reinterpret_cast<const char*>(bytes.data()), static_cast<qint64>(bytes.size()));
    g.close();
    failed.clear();
    w.openModel(other);
    QVERIFY(failed.wait(30000));
    QVERIFY2(failed.front().front().toString().contains(QStringLiteral("architecture 'mamba' is not supported (supported: ")),
             qPrintable(failed.front().front().toString()));
    QTRY_VERIFY(QApplication::activeModalWidget() != nullptr);
    QApplication::activeModalWidget()->close();
    QCOMPARE(QString::fromStdString(w.store().model()->path), model_);
    QVERIFY(runAndWait(w, QStringLiteral("still works"), 2));
    QCOMPARE(w.store().current()->state, RunState::Finished);
}

// --help and --version print without a display (no platform plugin is loaded for them).
void TestWorkbench::helpNeedsNoDisplay() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    for (const char* flag : {"--help", "--version"}) {
        QProcess gui;
        gui.setProcessEnvironment(env);
        gui.start(QStringLiteral(OCTOSCOPE_GUI_PATH), {QString::fromLatin1(flag)});
        QVERIFY(gui.waitForFinished(30000));
        QCOMPARE(gui.exitStatus(), QProcess::NormalExit);
        QCOMPARE(gui.exitCode(), 0);
        const QString out = QString::fromUtf8(gui.readAllStandardOutput());
        QVERIFY2(out.contains(flag == std::string_view("--help") ? QStringLiteral("--screenshot") : QStringLiteral("Octoscope")),
                 qPrintable(out + QString::fromUtf8(gui.readAllStandardError())));
    }
}

void TestWorkbench::screenshotEntryPoint() {
    const QString png = dir_.filePath("shot.png");
    QProcess gui;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("XDG_CONFIG_HOME", dir_.filePath("config")); // no saved layout
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(OCTOSCOPE_GUI_PATH), {"--model", model_, "--prompt", "Hello", "--max-tokens", "8",
                                                   "--screenshot", png});
    QVERIFY(gui.waitForFinished(120000));
    QCOMPARE(gui.exitCode(), 0);
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(1280, 800));
    // The layers × heads heatmap sits in the upper right: it must hold at least two colours.
    QSet<QRgb> colors;
    for (int y = 100; y < 430; y += 7) {
        for (int x = 810; x < 1180; x += 7) colors.insert(image.pixel(x, y));
    }
    QVERIFY2(colors.size() >= 2, "the heatmap region is one flat colour");
}

void TestWorkbench::routerFollowsTheEditorAndLearns() {
    QFile::remove(RouterPanel::userProbePath());
    MainWindow w;
    w.show();
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    RouterPanel* panel = part<RouterPanel>(w);
    QSignalSpy routed(panel, &RouterPanel::routed);
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("计算苹果2023年营收同比增长率")); // as if typed
    QVERIFY(routed.wait(5000));
    while (routed.wait(400)) {} // debounced: settle on the final text
    QVERIFY(panel->decision());
    QCOMPARE(panel->decision()->route, 2); // rte-c
    const auto router_spans = EditorHighlights::of(part<PromptPanel>(w)->editor())->layer(QStringLiteral("router"));
    QVERIFY(!router_spans.isEmpty()); // firing spans highlighted
    const QTextEdit::ExtraSelection first = router_spans.first();
    QVERIFY(!first.cursor.selectedText().isEmpty());

    // "This route is wrong": the label is recorded in the user's probe file and the centroids are
    // refitted, so stage 1 moves toward the corrected label (stage 2's features still weigh in).
    // Every correction adds one probe; this prompt's digits and growth words pull hard toward
    // rte-c, so stage 1 needs several copies before rte-a wins.
    const float before = panel->decision()->similarity[0];
    int corrections = 0;
    while (panel->decision()->stage1_route != 0 && corrections < 24) {
        panel->correct(0);
        ++corrections;
        QVERIFY(routed.wait(5000));
    }
    QVERIFY(panel->decision()->similarity[0] > before);
    QCOMPARE(panel->decision()->stage1_route, 0);
    QFile user(RouterPanel::userProbePath());
    QVERIFY(user.open(QIODevice::ReadOnly));
    QCOMPARE(user.readAll().count('\n'), corrections);
    user.close();
    QFile::remove(RouterPanel::userProbePath());
}

// The table lists stage 1's three by their final score, so the route is the first row even
// when stage 1 ranked it second; a later decision leaves no row of the earlier one behind.
void TestWorkbench::routerTableListsTheRouteFirst() {
    MainWindow w;
    w.show();
    RouterPanel* panel = part<RouterPanel>(w);
    auto* table = panel->findChild<QTableWidget*>();
    QVERIFY(table);
    RouteDecision d;
    d.top3 = {{0, 0.9f, 0.0, 0.9}, {3, 0.8f, 1.0, 1.3}, {5, 0.7f, 0.5, 1.0}}; // stage 1's order
    d.route = 3;
    d.stage1_route = 0;
    panel->showDecision(QStringLiteral("a prompt"), d);
    const QStringList expected = {QStringLiteral("rte-d"), QStringLiteral("rte-f"), QStringLiteral("rte-a")};
    for (int r = 0; r < 3; ++r) {
        QVERIFY(table->item(r, 0) && table->item(r, 3));
        QCOMPARE(table->item(r, 0)->text(), expected[r]);
    }
    QCOMPARE(table->item(0, 3)->text(), QStringLiteral("1.300"));
    QCOMPARE(table->item(2, 3)->text(), QStringLiteral("0.900"));
    d.top3.resize(2);
    panel->showDecision(QStringLiteral("another"), d);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("rte-d"));
    QVERIFY2(!table->item(2, 0), "a row of the earlier decision was left");
}

// File → Open Recent names the built-in model, not its install or build-tree path, and other
// files by name and folder (home as ~, an ampersand shown as one); the whole path is the tooltip.
void TestWorkbench::recentModelsNameTheBuiltInModel() {
    const QString resources = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources");
    const QString builtin = resources + QStringLiteral("/octet/octet.gguf");
    const QString other = QDir::homePath() + QStringLiteral("/models/a&b.gguf");
    QSettings settings;
    const QVariant saved = settings.value(QStringLiteral("recentModels"));
    settings.setValue(QStringLiteral("recentModels"), QStringList{builtin, other});
    {
        MainWindow w;
        w.loadResources(resources);
        auto* menu = w.findChild<RecentModelsMenu*>();
        QVERIFY(menu);
        menu->refresh();
        const QList<QAction*> entries = menu->actions();
        QCOMPARE(entries.size(), 2);
        QCOMPARE(entries[0]->text(), QStringLiteral("octet (built-in)"));
        QCOMPARE(entries[0]->toolTip(), builtin);
        QCOMPARE(entries[1]->text(), QStringLiteral("a&&b.gguf — ~/models"));
        QCOMPARE(entries[1]->toolTip(), other);
    }
    if (saved.isValid()) settings.setValue(QStringLiteral("recentModels"), saved);
    else settings.remove(QStringLiteral("recentModels"));
}

void TestWorkbench::calibrationFromTheMenu() {
    qputenv("XDG_DATA_HOME", dir_.filePath("calibration").toUtf8()); // where the map is stored
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    QCOMPARE(w.store().model()->head_map->source(), HeadMapSource::Default);
    QCOMPARE(part<SwitchesPanel>(w)->toggle(2)->text(), QStringLiteral("group 2"));
    QSignalSpy finished(&w.store(), &RunStore::calibrationFinished);
    w.workbench().calibrateHeadMap();
    QVERIFY(finished.wait(120000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(0).toString()));
    QCOMPARE(w.store().model()->head_map->source(), HeadMapSource::Calibrated);
    // The switches name the groups as the plots now do (they said "group 2" until the next load).
    QCOMPARE(part<SwitchesPanel>(w)->toggle(2)->text(), QStringLiteral("rte-c"));
    const QStringList reports = QDir(dir_.filePath("calibration/octoscope/head-maps")).entryList({"*.calibration.json"});
    QVERIFY(reports.size() == 1);
    // The status line says what happened, not the stored file's SHA-256 name.
    const QString message = finished.first().at(0).toString();
    const QString hash = reports.first().section(QLatin1Char('.'), 0, 0);
    QVERIFY(hash.size() >= 16);
    QVERIFY2(!message.contains(hash) && !w.statusBar()->currentMessage().contains(hash), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("kept for this model file")), qPrintable(message));
    qunsetenv("XDG_DATA_HOME");
}

void TestWorkbench::exportsWriteTheRun() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    QVERIFY(runAndWait(w, QStringLiteral("export me"), 5));
    const QString json = dir_.filePath("run.json"), csv = dir_.filePath("run.csv"), plots = dir_.filePath("plots");
    QVERIFY(w.workbench().exports().exportRunData(json, csv));
    QFile j(json);
    QVERIFY(j.open(QIODevice::ReadOnly));
    const QJsonObject doc = QJsonDocument::fromJson(j.readAll()).object();
    const RunRecord* run = w.store().current();
    QCOMPARE(static_cast<size_t>(doc["tokens"].toArray().size()), run->tokens().size());
    QCOMPARE(doc["tokens"].toArray().last().toObject()["id"].toInt(), run->tokens().back().id);
    QFile c(csv);
    QVERIFY(c.open(QIODevice::ReadOnly));
    QCOMPARE(static_cast<size_t>(c.readAll().count('\n')), run->tokens().size() + 1); // header + one row per token
    QVERIFY(QDir().mkpath(plots));
    QVERIFY(w.workbench().exports().exportPlots(plots));
    QVERIFY(QFileInfo::exists(QDir(plots).filePath("headHeatmapPlot.png")));
    QVERIFY(w.exportScreenshot(dir_.filePath("window.png")));
    QVERIFY(!QImage(dir_.filePath("window.png")).isNull());
}


// On the built-in model: a vague time word gets the rte-a suggestion, underlined in the editor;
// "Apply" is one undoable edit; "Apply & compare" runs both prompts and fills the side-by-side view.
// With OCTOSCOPE_DOCS_SCREENSHOT set, the window is saved there (docs/advisor-compare.png).
void TestWorkbench::advisorSuggestsAppliesAndCompares() {
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(loadInto(w, QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf")));
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    AdvisorPanel* advisor = part<AdvisorPanel>(w);
    QSignalSpy changed(advisor, &AdvisorPanel::findingsChanged);
    const QString prompt = QStringLiteral("周杰最近提到了苹果公司。规范英文名？");
    part<PromptPanel>(w)->editor()->setPlainText(prompt);
    QVERIFY(changed.wait(5000));
    QCOMPARE(advisor->findings().size(), size_t{1});
    const Finding& f = advisor->findings().front();
    QCOMPARE(QString::fromStdString(f.rule), QStringLiteral("rte-a.vague_time"));
    QCOMPARE(f.subsystem, 0);
    QCOMPARE(advisor->list()->topLevelItem(0)->text(0), QStringLiteral("rte-a"));
    const auto underlined = EditorHighlights::of(part<PromptPanel>(w)->editor())->layer(QStringLiteral("advisor"));
    QCOMPARE(underlined.size(), 1);
    QCOMPARE(underlined.first().cursor.selectedText(), QStringLiteral("最近")); // byte span mapped to characters

    // Apply, then undo: back to the original prompt.
    QVERIFY(advisor->apply(0).has_value());
    QVERIFY(part<PromptPanel>(w)->editor()->toPlainText().startsWith(prompt));
    QVERIFY(part<PromptPanel>(w)->editor()->toPlainText() != prompt);
    part<PromptPanel>(w)->editor()->undo();
    QCOMPARE(part<PromptPanel>(w)->editor()->toPlainText(), prompt);
    QVERIFY(changed.wait(5000));

    QSignalSpy compared(w.advisorController(), &AdvisorController::compared);
    advisor->list()->setCurrentItem(advisor->list()->topLevelItem(0));
    advisor->findChild<QPushButton*>(QStringLiteral("advisorApplyCompare"))->click();
    QVERIFY(compared.wait(60000));
    const auto& c = part<CompareView>(w)->comparison();
    QVERIFY(c.has_value());
    const RunRecord* b = w.store().current();
    QVERIFY(b);
    QCOMPARE(QString::fromStdString(b->trace.spec.prompt), part<PromptPanel>(w)->editor()->toPlainText());
    // What B changed names the rule by its title, not its id.
    QVERIFY2(part<CompareView>(w)->summary().contains(QStringLiteral("Vague time words (fact drift)")), qPrintable(part<CompareView>(w)->summary()));
    QVERIFY(!part<CompareView>(w)->summary().contains(QStringLiteral("rte-a.vague_time")));
    QVERIFY(part<CompareView>(w)->sideA()->toPlainText().contains(prompt));
    QCOMPARE(c->logprob_delta.size(), std::min(c->logprob_delta.size(), b->n_generated()));
    QVERIFY(c->share_delta.has_value()); // octet reports gates
    QCOMPARE(c->head_delta.size(), size_t{16 * 8});
    QVERIFY(advisor->rewriteVerdict().has_value()); // the advisor judges A against B
    QVERIFY(advisor->verdictLabel()->text().contains(QStringLiteral("Apply & compare")));
    QVERIFY(advisor->verdictLabel()->isVisibleTo(&w));
    const QByteArray shot = qgetenv("OCTOSCOPE_DOCS_SCREENSHOT");
    if (!shot.isEmpty()) { // the original prompt with its finding beside the comparison
        part<PromptPanel>(w)->editor()->undo();
        QVERIFY(changed.wait(5000));
        advisor->list()->setCurrentItem(advisor->list()->topLevelItem(0));
        QTest::qWait(300);
        QVERIFY(w.exportScreenshot(QString::fromUtf8(shot)));
    }
    // The verdict is about A and B only: a later run hides it, showing B again brings it back,
    // and another model drops it (it stayed under every later run, other models' included).
    const quint64 b_id = b->id;
    QVERIFY(runAndWait(w, QStringLiteral("another prompt"), 2));
    QVERIFY(w.store().current()->id != b_id);
    QVERIFY(!advisor->verdictLabel()->isVisibleTo(&w));
    w.store().show_run(b_id);
    QVERIFY(advisor->verdictLabel()->isVisibleTo(&w));
    QVERIFY(loadInto(w, long_model_));
    QVERIFY(!advisor->verdictLabel()->isVisibleTo(&w));
    QVERIFY(!advisor->rewriteVerdict().has_value());
    QVERIFY(advisor->rewriteVerdictHtml().isEmpty());
    w.store().show_run(b_id);
    QVERIFY(!advisor->verdictLabel()->isVisibleTo(&w));
}

void TestWorkbench::consistencyRunReports() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    part<PromptPanel>(w)->editor()->setPlainText(QStringLiteral("one two three"));
    RunSpec s = part<PromptPanel>(w)->spec();
    s.max_tokens = 4;
    part<PromptPanel>(w)->restore(s);
    QSignalSpy reported(w.advisorController(), &AdvisorController::consistencyReported);
    part<AdvisorPanel>(w)->findChild<QSpinBox*>(QStringLiteral("consistencyRuns"))->setValue(3);
    part<AdvisorPanel>(w)->findChild<QPushButton*>(QStringLiteral("consistencyRun"))->click();
    QVERIFY(reported.wait(60000));
    const QString report = part<AdvisorPanel>(w)->consistencyLabel()->text();
    QVERIFY2(report.contains(QStringLiteral("3 samples at temperature 0.8")), qPrintable(report));
    QVERIFY(report.contains(QStringLiteral("Output length")));
    // Three runs with seeds s, s+1, s+2 are in the history.
    QVERIFY(w.store().runs().size() >= 3);
    const auto& runs = w.store().runs();
    QCOMPARE(runs[runs.size() - 1].trace.spec.sampling.seed, runs[runs.size() - 3].trace.spec.sampling.seed + 2);
}

void TestWorkbench::outputChecksUnderlineTheOutput() {
    MainWindow w;
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    AdvisorPanel* advisor = part<AdvisorPanel>(w);
    const QString output = QStringLiteral("增长率 = (3832.9−3731.5)/3731.5 ≈ 2.8%");
    advisor->setOutput(QStringLiteral("计算增长率"), output);
    QVERIFY(!advisor->findings().empty());
    const Finding& f = advisor->findings().back();
    QCOMPARE(f.place, FindingPlace::Output);
    QCOMPARE(QString::fromStdString(f.rule), QStringLiteral("rte-c.arithmetic_claim"));
    const auto underlined = EditorHighlights::of(advisor->outputView())->layer(QStringLiteral("advisor"));
    QCOMPARE(underlined.size(), 1);
    QCOMPARE(underlined.first().cursor.selectedText(), QString::fromStdString(f.evidence));
    // A correct claim raises nothing.
    advisor->setOutput(QStringLiteral("计算增长率"), QStringLiteral("增长率 = (3832.9−3731.5)/3731.5 ≈ 2.7%"));
    QVERIFY(advisor->findings().empty() || advisor->findings().back().place == FindingPlace::Prompt);
}


namespace {

std::vector<int32_t> generatedIds(const RunRecord& run) {
    std::vector<int32_t> ids;
    for (size_t i = run.n_prompt(); i < run.tokens().size(); ++i) ids.push_back(run.tokens()[i].id);
    return ids;
}

bool statusShows(MainWindow& w, const QString& text) {
    for (QLabel* label : w.statusBar()->findChildren<QLabel*>()) {
        if (label->text().contains(text)) return true;
    }
    return false;
}

} // namespace

// Model → Backend reloads the open model on the chosen backend; the status bar names it. CUDA
// runs here through the fake host module (the module's C API on the CPU backend: no GPU), so
// its tokens must equal the CPU's; an unusable CUDA is a clear load error that keeps the model,
// and Auto falls back to the CPU, saying why.
void TestWorkbench::backendChoiceReloadsAndFallsBack() {
    MainWindow w;
    w.show();
    QVERIFY(loadInto(w, model_));
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    part<BackendMenu>(w)->setChoice(QStringLiteral("cpu"));
    QVERIFY(loaded.wait(30000));
    QVERIFY(QString::fromStdString(w.store().model()->backend).startsWith(QStringLiteral("cpu (")));
    QVERIFY(runAndWait(w, QStringLiteral("The quick brown fox"), 6));
    const std::vector<int32_t> on_cpu = generatedIds(*w.store().current());

    qputenv("OCTOSCOPE_CUDA_MODULE", FAKE_CUDA_MODULE);
    part<BackendMenu>(w)->setChoice(QStringLiteral("cuda"));
    QVERIFY(loaded.wait(30000));
    const QString fake = QStringLiteral("cuda (Fake CUDA device (host))");
    QCOMPARE(QString::fromStdString(w.store().model()->backend), fake);
    QVERIFY(statusShows(w, fake));
    QVERIFY(runAndWait(w, QStringLiteral("The quick brown fox"), 6));
    QCOMPARE(w.store().current()->state, RunState::Finished);
    QCOMPARE(generatedIds(*w.store().current()), on_cpu);

    qputenv("OCTOSCOPE_CUDA_MODULE", "/nonexistent/liboctoscope-cuda.so");
    QSignalSpy failed(&w.store(), &RunStore::loadFailed);
    part<BackendMenu>(w)->setChoice(QStringLiteral("cuda"));
    QVERIFY(failed.wait(30000));
    QVERIFY(failed.front().front().toString().contains(QStringLiteral("/nonexistent/liboctoscope-cuda.so")));
    QTRY_VERIFY(QApplication::activeModalWidget() != nullptr);
    QApplication::activeModalWidget()->close();
    QCOMPARE(QString::fromStdString(w.store().model()->backend), fake); // the loaded model stays

    part<BackendMenu>(w)->setChoice(QStringLiteral("auto"));
    QVERIFY(loaded.wait(30000));
    QVERIFY(QString::fromStdString(w.store().model()->backend).startsWith(QStringLiteral("cpu (")));
    QVERIFY(QString::fromStdString(w.store().model()->backend_note).contains(QStringLiteral("/nonexistent/liboctoscope-cuda.so")));
    qunsetenv("OCTOSCOPE_CUDA_MODULE");
}

// "Apply & compare" whose B answer is worse: the advisor says so in red, with the reason; a better
// B is said to be better. The comparison is constructed (the texts of two answers), not run.
// With OCTOSCOPE_ADVISOR_SCREENSHOT set, the window is saved there.
void TestWorkbench::rewriteVerdictSaysWorse() {
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    AdvisorPanel* advisor = part<AdvisorPanel>(w);
    const QString a = QStringLiteral("Return the answer as JSON: name and age of Alice, 30");
    const QString b = a + QStringLiteral(" Reply with JSON only, exactly in this schema: {\"name\": string, \"age\": number}");
    part<PromptPanel>(w)->editor()->setPlainText(b);
    advisor->showRewriteVerdict(a, QStringLiteral("{\"name\": \"Alice\", \"age\": 30}"), b,
                                QStringLiteral("{\"name\": \"Alice\" \"age\": 30"));
    QVERIFY(advisor->rewriteVerdict().has_value());
    QCOMPARE(advisor->rewriteVerdict()->kind, VerdictKind::Worse);
    const QString shown = advisor->verdictLabel()->text();
    QVERIFY2(shown.contains(QStringLiteral("The rewrite made the answer worse: the JSON no longer parses")), qPrintable(shown));
    QVERIFY2(shown.contains(QStringLiteral("fewer of the asked fields in the JSON (name, age): A 2, B 1 of 2")), qPrintable(shown));
    QVERIFY(shown.contains(QStringLiteral("color:#c62828"))); // in red
    QVERIFY(advisor->verdictLabel()->isVisibleTo(&w));
    const QByteArray shot = qgetenv("OCTOSCOPE_ADVISOR_SCREENSHOT");
    if (!shot.isEmpty()) {
        QTest::qWait(200);
        QVERIFY(w.exportScreenshot(QString::fromUtf8(shot)));
        QVERIFY(advisor->grab().save(QString::fromUtf8(shot).replace(QStringLiteral(".png"), QStringLiteral("-panel.png"))));
    }

    advisor->showRewriteVerdict(a, QStringLiteral("Alice is 30."), b, QStringLiteral("{\"name\": \"Alice\", \"age\": 30}"));
    QCOMPARE(advisor->rewriteVerdict()->kind, VerdictKind::Better);
    QVERIFY(advisor->verdictLabel()->text().contains(QStringLiteral("The rewrite made the answer better: the JSON now parses")));
    QVERIFY(advisor->verdictLabel()->text().contains(QStringLiteral("color:#2e7d32")));
    advisor->showRewriteVerdict(a, QStringLiteral("{}"), b, QStringLiteral("{}"));
    QVERIFY(advisor->verdictLabel()->text().contains(QStringLiteral("No change: both prompts gave the same answer.")));
}

QTEST_MAIN(TestWorkbench)
#include "test_workbench.moc"
