// The Experts panel on a mixture of experts (docs/moe.md): its layers × experts map, tokens ×
// experts strip and load are the engine's routing of the run shown; a dense model gets a note
// instead; leaving an expert out from the switches reruns without it; the token tooltip lists the
// experts per layer.
// Covers: engine/instrumentation/expert_routing.cpp
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/inference/session.h"
#include "engine/instrumentation/expert_routing.h"
#include "engine/model/model.h"
#include "engine/instrumentation/calibrated_maps.h"
#include "engine/model/synthetic_model.h"
#include "tests/ui/window_parts.h"
#include "ui/controllers/run_controller.h"
#include "ui/main_window.h"
#include "ui/views/compare_view.h"
#include "ui/controllers/advisor_controller.h"
#include "ui/panels/prompt_panel.h"
#include "ui/panels/switches_panel.h"
#include "ui/session/run_store.h"
#include "ui/views/experts_view.h"
#include "ui/views/token_stream_view.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;
using octo::ui::test::write_synthetic_model;

class TestExperts : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void panelShowsTheEnginesRouting();
    void denseModelHasANote();
    void leavingAnExpertOutReruns();
    void calibrateExpertsFromTheMenu();
    void gptOssExpertsShowTheirRouterBias();
    void expertMapVerdictAndSwitchTarget(); // last: it leaves an expert map for the model

private:
    QString writeModel(const QString& name, const SyntheticModelSpec& spec);
    bool loadAndRun(MainWindow& w, const QString& path, const QString& prompt, int max_tokens);

    QTemporaryDir dir_;
    QString moe_, dense_;
};

QString TestExperts::writeModel(const QString& name, const SyntheticModelSpec& spec) {
    const QString path = dir_.filePath(name);
    return write_synthetic_model(path, spec) ? path : QString();
}

void TestExperts::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    SyntheticModelSpec moe{.architecture = "qwen2moe", .n_embd = 256, .n_ff = 128, .n_head = 4, .n_head_kv = 2, .n_layer = 3,
                           .context_length = 128, .seed = 9};
    moe.n_expert = 8;
    moe.n_expert_used = 2;
    moe.n_ff_exp = 64;
    moe.router_spread = 1.0f;
    moe_ = writeModel("moe.gguf", moe);
    dense_ = writeModel("dense.gguf", SyntheticModelSpec{.n_head = 8, .n_head_kv = 4, .context_length = 128});
    QVERIFY(!moe_.isEmpty() && !dense_.isEmpty());
}

bool TestExperts::loadAndRun(MainWindow& w, const QString& path, const QString& prompt, int max_tokens) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(path);
    if (!loaded.wait(30000)) return false;
    part<PromptPanel>(w)->editor()->setPlainText(prompt);
    RunSpec s = w.runs().editorSpec();
    s.max_tokens = max_tokens;
    s.stop_at_eog = false;
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(s);
    return settled.wait(60000);
}

// gpt-oss: the panel shows the engine's routing (weights: the softmax of the chosen logits) and a
// cell's readout carries that expert's router bias, read from the file.
void TestExperts::gptOssExpertsShowTheirRouterBias() {
    const SyntheticModelSpec spec{.architecture = "gpt-oss", .n_embd = 256, .n_ff = 64, .n_head = 4, .n_head_kv = 2,
                                  .n_layer = 2, .head_dim = 64, .context_length = 128, .sliding_window = 4, .seed = 5,
                                  .n_expert = 4, .n_expert_used = 2, .n_ff_exp = 64, .router_spread = 1.0f};
    const QString path = writeModel(QStringLiteral("gpt-oss.gguf"), spec);
    QVERIFY(!path.isEmpty());
    MainWindow w;
    w.show();
    QVERIFY(loadAndRun(w, path, QStringLiteral("abc d"), 3));
    ExpertsView* view = part<ExpertsView>(w);
    QVERIFY(view->showsExperts());
    auto model = Model::load(path.toStdString()).value();
    const auto* bias = reinterpret_cast<const float*>(model->weights().layers[1].ffn_gate_inp_bias->data);
    w.store().select_token(3);
    view->setScope(TokenScope::SelectedToken);
    double chosen = 0.0;
    for (int e = 0; e < 4; ++e) {
        const QString text = view->cellText(1, e);
        QVERIFY2(text.contains(QStringLiteral("router bias %1").arg(bias[e], 0, 'f', 3)), qPrintable(text));
        chosen += view->cell(1, e);
    }
    QVERIFY2(std::abs(chosen - 1.0) < 1e-5, qPrintable(QString::number(chosen))); // the chosen weights sum to 1
    // a model whose router has no bias says none
    QVERIFY(loadAndRun(w, moe_, QStringLiteral("abc d"), 2));
    w.store().select_token(3);
    QVERIFY(!view->cellText(1, 0).contains(QStringLiteral("router bias")));
}

void TestExperts::panelShowsTheEnginesRouting() {
    MainWindow w;
    w.show();
    QVERIFY(loadAndRun(w, moe_, QStringLiteral("abc d"), 4));
    const RunRecord* run = w.store().current();
    QVERIFY(run && run->n_prompt() >= 5);
    ExpertsView* view = part<ExpertsView>(w);
    QVERIFY(view->showsExperts());
    QVERIFY(part<SwitchesPanel>(w)->expertsField()->isVisibleTo(part<SwitchesPanel>(w)));

    // The engine's routing of prompt position 3, from a session of its own.
    auto model = Model::load(moe_.toStdString()).value();
    auto backend = CpuBackend::create({1, {}}).value();
    auto session = Session::create(*model, *backend, {}).value();
    std::vector<int32_t> prompt;
    for (size_t i = 0; i < run->n_prompt(); ++i) prompt.push_back(run->tokens()[i].id);
    QVERIFY(session->eval(prompt));
    const TokenProbe& want = session->probes()[3];
    w.store().select_token(3);
    view->setScope(TokenScope::SelectedToken);
    const int n_layer = 3, n_expert = 8;
    for (int l = 0; l < n_layer; ++l) {
        std::vector<double> expected(n_expert, 0.0);
        for (const ExpertChoice& c : chosen_experts(want, l, n_layer)) expected[static_cast<size_t>(c.id)] = c.weight;
        for (int e = 0; e < n_expert; ++e) QCOMPARE(view->cell(l, e), expected[static_cast<size_t>(e)]);
        QCOMPARE(view->cell(l, n_expert), double(want.shared_gate[static_cast<size_t>(l)])); // the shared column
        const ExpertChoice first = chosen_experts(want, l, n_layer)[0];
        QVERIFY2(view->cellText(l, first.id).contains(QStringLiteral("rank 1")), qPrintable(view->cellText(l, first.id)));
    }
    QVERIFY(std::isnan(view->cell(n_layer, 0)));
    QVERIFY(view->cellText(0, n_expert).contains(QStringLiteral("shared expert")));

    // The prompt mean averages those maps over the prompt's positions.
    view->setScope(TokenScope::PromptMean);
    double sum = 0.0;
    for (size_t i = 1; i < run->n_prompt(); ++i) { // without BOS
        for (const ExpertChoice& c : chosen_experts(session->probes()[i], 1, n_layer)) {
            if (c.id == 2) sum += c.weight;
        }
    }
    QCOMPARE(view->cell(1, 2), sum / static_cast<double>(run->n_prompt() - 1));

    // The load of layer 2: every evaluated position once.
    view->setLayer(2);
    int total = 0;
    for (int e = 0; e < n_expert; ++e) total += view->load(e);
    QCOMPARE(total, static_cast<int>(run->n_prompt() + run->n_generated() - 1) * 2);

    // OCTOSCOPE_TEST_SHOTS=dir: each tab as a PNG, to look at.
    if (const QString shots = qEnvironmentVariable("OCTOSCOPE_TEST_SHOTS"); !shots.isEmpty()) {
        view->resize(520, 420);
        for (int t = 0; t < view->tabs()->count(); ++t) {
            view->tabs()->setCurrentIndex(t);
            QTest::qWait(50);
            view->grab().save(QDir(shots).filePath(QStringLiteral("experts-tab%1.png").arg(t)));
        }
    }

    // The token chips' tooltip lists each layer's experts.
    const auto& chips = part<TokenStreamView>(w)->chips();
    int chip = -1;
    for (size_t i = 0; i < chips.size(); ++i) {
        if (chips[i].first <= 3 && 3 < chips[i].first + chips[i].count) chip = static_cast<int>(i);
    }
    QVERIFY(chip >= 0);
    const QString tip = part<TokenStreamView>(w)->tooltip(chip);
    QVERIFY2(tip.contains(QStringLiteral("experts (weight) per layer")), qPrintable(tip));
}

void TestExperts::denseModelHasANote() {
    MainWindow w;
    w.show();
    QVERIFY(loadAndRun(w, dense_, QStringLiteral("abc"), 2));
    QVERIFY(!part<ExpertsView>(w)->showsExperts());
    QVERIFY(std::isnan(part<ExpertsView>(w)->cell(0, 0)));
    QVERIFY(!part<SwitchesPanel>(w)->expertsField()->isVisibleTo(part<SwitchesPanel>(w)));
}

void TestExperts::leavingAnExpertOutReruns() {
    MainWindow w;
    w.show();
    QVERIFY(loadAndRun(w, moe_, QStringLiteral("abc d"), 4));
    ExpertsView* view = part<ExpertsView>(w);
    view->setLayer(0);
    int busiest = 0;
    for (int e = 1; e < 8; ++e) {
        if (view->load(e) > view->load(busiest)) busiest = e;
    }
    QVERIFY(view->load(busiest) > 0);
    const uint64_t first = w.store().current()->id;
    emit view->expertSwitchRequested(ExpertSwitch{-1, busiest}); // the map's context menu
    emit view->expertSwitchRequested(ExpertSwitch{-1, busiest}); // a second time adds nothing
    QCOMPARE(part<SwitchesPanel>(w)->expertsField()->text(), QStringLiteral("*:%1").arg(busiest));
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().rerun();
    QVERIFY(settled.wait(60000));
    const RunRecord* again = w.store().current();
    QVERIFY(again && again->id != first);
    QCOMPARE(again->trace.spec.disabled_experts, (std::vector<ExpertSwitch>{{-1, busiest}}));
    for (int l = 0; l < 3; ++l) {
        view->setLayer(l);
        QCOMPARE(view->load(busiest), 0);
    }
    // A/B compare of the two runs says how much of the routing stayed: the busiest expert's
    // positions went elsewhere, so less than all of it (the prompt has the same context in both).
    QVERIFY(w.advisorController()->compareRuns(first, again->id));
    const QString summary = part<CompareView>(w)->summary();
    const QRegularExpression routing(QStringLiteral("Expert routing .*: ([0-9.]+) % of the chosen experts the same"));
    const QRegularExpressionMatch m = routing.match(summary);
    QVERIFY2(m.hasMatch(), qPrintable(summary));
    QVERIFY(m.captured(1).toDouble() < 100.0 && m.captured(1).toDouble() > 0.0);
    // A field entry that is not layer:expert is shown and left out.
    part<SwitchesPanel>(w)->expertsField()->setText(QStringLiteral("*:%1, nine").arg(busiest));
    QVERIFY(part<SwitchesPanel>(w)->expertsField()->toolTip().contains(QStringLiteral("nine")));
    QCOMPARE(w.runs().editorSpec().disabled_experts, (std::vector<ExpertSwitch>{{-1, busiest}}));
    // The same file loaded again keeps the field; another model file's experts are other experts,
    // so the field empties rather than leaving them out silently in the next model's runs.
    part<SwitchesPanel>(w)->expertsField()->setText(QStringLiteral("*:%1").arg(busiest));
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    w.openModel(moe_);
    QVERIFY(loaded.wait(30000));
    QCOMPARE(part<SwitchesPanel>(w)->expertsField()->text(), QStringLiteral("*:%1").arg(busiest));
    const QString other = dir_.filePath(QStringLiteral("moe-other.gguf"));
    QFile::remove(other);
    QVERIFY(QFile::copy(moe_, other));
    w.openModel(other);
    QVERIFY(loaded.wait(30000));
    QVERIFY2(part<SwitchesPanel>(w)->expertsField()->text().isEmpty(), qPrintable(part<SwitchesPanel>(w)->expertsField()->text()));
    QVERIFY(w.runs().editorSpec().disabled_experts.empty());
}

// Model → Calibrate Experts… measures the map on the resource folder's probes, stores it, and the
// panel and the metric box take it at once.
void TestExperts::calibrateExpertsFromTheMenu() {
    qputenv("XDG_DATA_HOME", dir_.filePath(QStringLiteral("menu-data")).toUtf8());
    QDir(dir_.path()).mkpath(QStringLiteral("resources/probes"));
    const char* ids[] = {"rte-a", "rte-b", "rte-c", "rte-d", "rte-e", "rte-f", "rte-g", "rte-h"};
    QFile train(dir_.filePath(QStringLiteral("resources/probes/probes_train.jsonl")));
    QFile dev(dir_.filePath(QStringLiteral("resources/probes/probes_dev.jsonl")));
    QVERIFY(train.open(QIODevice::WriteOnly) && dev.open(QIODevice::WriteOnly));
    for (int s = 0; s < 8; ++s) {
        for (int i = 0; i < 2; ++i) train.write(QStringLiteral("{\"text\": \"probe %1 number %2\", \"label\": \"%3\"}\n").arg(s).arg(i).arg(ids[s]).toUtf8());
        dev.write(QStringLiteral("{\"text\": \"dev probe %1\", \"label\": \"%2\"}\n").arg(s).arg(ids[s]).toUtf8());
    }
    train.close();
    dev.close();
    MainWindow w;
    w.show();
    w.loadResources(dir_.filePath(QStringLiteral("resources")));
    QVERIFY(loadAndRun(w, moe_, QStringLiteral("abc d"), 2));
    QVERIFY(part<ExpertsView>(w)->verdict().isEmpty());
    QSignalSpy finished(&w.store(), &RunStore::calibrationFinished);
    w.workbench().calibrateExperts();
    QVERIFY(finished.wait(60000));
    QVERIFY2(finished.first().at(1).toBool(), qPrintable(finished.first().at(0).toString()));
    QVERIFY2(finished.first().at(0).toString().contains(QStringLiteral("Experts calibrated")), qPrintable(finished.first().at(0).toString()));
    QVERIFY(!part<ExpertsView>(w)->verdict().isEmpty());
    QVERIFY(part<ExpertsView>(w)->subsystemOf(0, 0) >= 0);
    QVERIFY(part<SwitchesPanel>(w)->metricBox()->findData(static_cast<int>(Metric::Experts)) >= 0);
    qunsetenv("XDG_DATA_HOME");
}

// With a calibrated expert map (here the default assignment, saved as calibration writes it, with
// a separation no better than its null) the panel says plainly that the routing does not tell the
// subsystems apart,
// the metric box offers "experts", and the switches can turn a subsystem's experts off.
void TestExperts::expertMapVerdictAndSwitchTarget() {
    qputenv("XDG_DATA_HOME", dir_.filePath(QStringLiteral("data")).toUtf8());
    {
        auto model = Model::load(moe_.toStdString()).value();
        const nlohmann::json report = {{"separation", 0.125}, {"null_separation", 0.14}};
        QVERIFY(save_calibrated_map(*model, moe_.toStdString(), HeadMap::make_default(3, 8), report, MapKind::Experts));
    }
    MainWindow w;
    w.show();
    QVERIFY(loadAndRun(w, moe_, QStringLiteral("abc d"), 3));
    const QString verdict = part<ExpertsView>(w)->verdict();
    QVERIFY2(verdict.contains(QStringLiteral("does not tell")), qPrintable(verdict));
    QVERIFY(part<SwitchesPanel>(w)->metricBox()->findData(static_cast<int>(Metric::Experts)) >= 0);
    QCOMPARE(part<ExpertsView>(w)->subsystemOf(1, 3), 3); // the default assignment: expert e → subsystem e
    QCOMPARE(part<ExpertsView>(w)->subsystemOf(3, 0), -1); // no layer 3
    QComboBox* target = part<SwitchesPanel>(w)->targetBox();
    QVERIFY(target->isVisibleTo(part<SwitchesPanel>(w)));
    target->setCurrentIndex(target->findData(static_cast<int>(SwitchTarget::Experts)));
    part<SwitchesPanel>(w)->toggle(0)->setChecked(false); // rte-a: expert 0 of every layer under the default map
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().rerun();
    QVERIFY(settled.wait(60000));
    const RunRecord* run = w.store().current();
    QVERIFY(run && run->state == RunState::Finished);
    QCOMPARE(run->trace.spec.switch_target, SwitchTarget::Experts);
    for (int l = 0; l < 3; ++l) {
        part<ExpertsView>(w)->setLayer(l);
        QCOMPARE(part<ExpertsView>(w)->load(0), 0);
    }
    qunsetenv("XDG_DATA_HOME");
}

QTEST_MAIN(TestExperts)
#include "test_experts.moc"
