// Model → Connect to Server… (ui/controllers/server_controller.h): the workbench's runs on a
// server. Against an Octoscope server (the engine's OpenAiServer on loopback, serving octet) every
// view is live and the tokens and measurements are those of the same run on the local model;
// against another server (a fake one answering as TGI does) the text and timing come through and
// the internals views say in one sentence what they need. Keys come from the environment (never
// from settings), errors are clear, and a capture of a server run names the server.
#include <QAction>
#include <QApplication>
#include <QScopeGuard>
#include <QCheckBox>
#include <QDialog>
#include <QDir>
#include <QLineEdit>
#include <QMenu>
#include <QRadioButton>
#include <QTimer>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <thread>

#include <httplib.h>

#include "engine/capture/capture_io.h"
#include "engine/host/model_setup.h"
#include "engine/serve/openai_server.h"
#include "ui/controllers/conversation_controller.h"
#include "ui/session/conversation_store.h"
#include "tests/ui/window_parts.h"
#include "ui/controllers/capture_controller.h"
#include "ui/controllers/run_controller.h"
#include "ui/controllers/server_controller.h"
#include "ui/main_window.h"
#include "ui/panels/claims_panel.h"
#include "ui/panels/prompt_panel.h"
#include "ui/session/claims_store.h"
#include "ui/session/run_store.h"
#include "ui/support/internals_note.h"
#include "ui/views/head_heatmap_view.h"
#include "engine/model/synthetic_model.h"
#include "ui/panels/switches_panel.h"
#include "ui/support/plot.h"
#include "ui/support/subsystem_palette.h"
#include "ui/panels/calibration_banner.h"
#include "ui/views/attention_view.h"
#include "ui/views/kv_view.h"
#include "ui/views/latency_view.h"
#include "ui/views/subsystem_strip_view.h"

using namespace octo;
using namespace octo::ui;
using octo::ui::test::part;

namespace {

const QString kModel = QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources/octet/octet.gguf");

void screenshot(QWidget& w, const QString& name) {
    const QByteArray dir = qgetenv("OCTOSCOPE_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QTest::qWait(100);
    w.grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(name));
}

// Connects `w` and waits until the server's model is the window's.
bool connect_to(MainWindow& w, const ServerSettings& s) {
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    QSignalSpy failed(w.serverController(), &ServerController::failed);
    w.serverController()->connectTo(s);
    return QTest::qWaitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 30000) && !loaded.isEmpty();
}

bool run_and_wait(MainWindow& w, const RunSpec& spec) {
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(spec);
    return settled.wait(60000) && w.store().current() && w.store().current()->state == RunState::Finished;
}

RunSpec spec_of(const char* prompt) {
    RunSpec s;
    s.prompt = prompt;
    s.max_tokens = 12;
    return s;
}

// One line at a time in the status bar: while a message shows, the lasting labels beside it are
// hidden (a label shown with a message was drawn over it).
bool status_drawn_once(MainWindow& w) {
    if (w.statusBar()->currentMessage().isEmpty()) return true;
    for (QLabel* label : w.statusBar()->findChildren<QLabel*>(Qt::FindDirectChildrenOnly)) {
        if (label->objectName() == QLatin1String("statusModel") && label->isVisible()) return false;
    }
    return true;
}

bool notes_shown(MainWindow& w) {
    for (InternalsNote* n : w.findChildren<InternalsNote*>()) {
        if (n->isVisible()) return true;
    }
    return false;
}

} // namespace

class TestRemoteEngine : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void octoscopeServerRunsAreTheLocalRuns();
    void anotherServerGivesOutputsAndSaysWhatItCannotShow();
    void connectionProblemsAreClearAndChangeNothing();
    void remoteModeDescribesTheServerTruly();
    void aServerThatStopsAnsweringSaysSo();
    void viewsDescribeTheShownRunThroughEveryChange();
    void claimsRunOnTheServer();
    void conversationTurnsRunOnTheServer();
    void dialogShowsTheRememberedSettings();
    void keyringKeepsTheKey();

private:
    std::unique_ptr<OpenedModel> served_;
    std::unique_ptr<serve::OpenAiServer> server_;
    std::thread listener_;
    QTemporaryDir dir_;
};

void TestRemoteEngine::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QSettings().clear();
    QVERIFY(dir_.isValid());
    auto opened = open_model(kModel.toStdString(), {.kv_sequences = 2});
    QVERIFY2(opened, opened ? "" : opened.error().message.c_str());
    served_ = std::make_unique<OpenedModel>(std::move(opened.value()));
    serve::ServedModelInfo info;
    info.id = "octet.gguf";
    info.fingerprint = "octoscope-test";
    info.n_ctx = served_->info.n_ctx;
    info.describe = {{"name", served_->info.name},          {"architecture", served_->info.architecture},
                     {"backend", served_->info.backend},    {"n_layer", served_->info.n_layer},
                     {"n_head", served_->info.n_head},      {"has_router", served_->info.has_router},
                     {"head_map", serve::served_head_map(served_->map())}};
    serve::ServerOptions o;
    o.port = 0;
    o.scheduler.parallel = 2;
    server_ = std::make_unique<serve::OpenAiServer>(
        serve::ServedModel{served_->model.get(), served_->tokenizer.get(), served_->backend.get(), &served_->map(), nullptr,
                           served_->kv.get()},
        info, o);
    QVERIFY(server_->bind());
    listener_ = std::thread([this] { (void)server_->serve(); });
}

void TestRemoteEngine::cleanupTestCase() {
    server_->stop();
    listener_.join();
}

void TestRemoteEngine::octoscopeServerRunsAreTheLocalRuns() {
    const RunSpec spec = spec_of("What is 35% of 240?");
    MainWindow local;
    QSignalSpy loaded(&local.store(), &RunStore::modelLoaded);
    local.openModel(kModel);
    QVERIFY(loaded.wait(60000));
    QVERIFY(run_and_wait(local, spec));
    const RunRecord& l = *local.store().current();

    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    w.resize(1280, 800);
    w.show();
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(server_->port());
    QVERIFY(connect_to(w, {url, QString(), ServerSettings::KeySource::None, QString()}));
    QVERIFY(w.store().model()->engine);
    QVERIFY(w.store().model()->engine->octoscope);
    QVERIFY2(!QSettings().value(QStringLiteral("recentModels")).toStringList().contains(url), "a server is no recent model file");
    QCOMPARE(w.store().model()->n_layer, l.model ? l.model->n_layer : served_->info.n_layer);
    QVERIFY(run_and_wait(w, spec));
    const RunRecord& r = *w.store().current();
    QVERIFY(r.engine);
    QCOMPARE(r.trace.prompt_ids(), l.trace.prompt_ids());
    QCOMPARE(r.trace.generated_ids(), l.trace.generated_ids());
    for (size_t i = 0; i < r.n_generated(); ++i) {
        const TraceToken& a = r.trace.generated()[i];
        const TraceToken& b = l.trace.generated()[i];
        QVERIFY(a.logprobs && b.logprobs);
        QVERIFY(std::abs(a.logprobs->logprob - b.logprobs->logprob) < 1e-9);
        QVERIFY(a.metrics.gates && b.metrics.gates);
        QVERIFY(std::abs((*a.metrics.gates)[2] - (*b.metrics.gates)[2]) < 1e-6f);
        QCOMPARE(a.probe.head_norms.size(), b.probe.head_norms.size()); // the heatmap has its data
    }
    QVERIFY(!notes_shown(w));
    QVERIFY(r.trace.outcome && r.trace.outcome->prefill_ms > 0.0);
    QVERIFY2(part<LatencyView>(w)->findChild<QLabel*>(QStringLiteral("latencySummary"))->text().contains(QStringLiteral("time to first token")),
             "the latency view shows the time to the first token");
    screenshot(w, QStringLiteral("remote-octoscope.png"));
    // A capture of it names the server and keeps its measurements.
    const QString file = dir_.filePath(QStringLiteral("served.octo"));
    QSignalSpy saved(w.captureController(), &CaptureController::captureSaved);
    w.captureController()->saveCapture(file);
    QVERIFY(QTest::qWaitFor([&] { return !saved.isEmpty(); }, 30000) && saved.first().at(1).toBool());
    const Capture c = open_capture(file.toStdString()).value();
    QVERIFY(c.engine);
    QCOMPARE(QString::fromStdString(c.engine->url), url);
    QCOMPARE(QString::fromStdString(c.engine->model), QStringLiteral("octet.gguf"));
    QCOMPARE(QString::fromStdString(c.engine->fingerprint), QStringLiteral("octoscope-test"));
    QCOMPARE(c.trace.generated_ids(), l.trace.generated_ids());
    // Model → Disconnect from Server goes back to the last model file opened (the local window's,
    // remembered in the settings); it is greyed while no server is connected.
    QAction* disconnect = w.findChild<QAction*>(QStringLiteral("modelDisconnect"));
    QVERIFY(disconnect);
    QVERIFY(disconnect->isEnabled());
    const quint64 served_run = r.id;
    QSignalSpy reloaded(&w.store(), &RunStore::modelLoaded);
    disconnect->trigger();
    QVERIFY(reloaded.wait(60000));
    QVERIFY(!w.store().model()->engine);
    QCOMPARE(QString::fromStdString(w.store().model()->path), kModel);
    QVERIFY(!disconnect->isEnabled());
    QVERIFY(w.store().run(served_run)); // the server's runs stay in the history
    // Loading a local model ends a connection too.
    QVERIFY(connect_to(w, {url, QString(), ServerSettings::KeySource::None, QString()}));
    QVERIFY(disconnect->isEnabled());
    w.openModel(kModel);
    QVERIFY(reloaded.wait(60000));
    QVERIFY(!w.store().model()->engine);
    QVERIFY(!disconnect->isEnabled());
}

void TestRemoteEngine::anotherServerGivesOutputsAndSaysWhatItCannotShow() {
    httplib::Server fake;
    const std::string stream = [] {
        std::ifstream in(OCTOSCOPE_SOURCE_DIR "/tests/data/openai/tgi_chat_stream.sse", std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    }();
    std::string seen_key;
    fake.Get("/v1/models", [&](const httplib::Request& q, httplib::Response& a) {
        seen_key = q.get_header_value("Authorization");
        a.set_content(R"({"object": "list", "data": [{"id": "tgi", "object": "model", "owned_by": "tgi"}]})", "application/json");
    });
    fake.Post("/v1/chat/completions", [&](const httplib::Request&, httplib::Response& a) { a.set_content(stream, "text/event-stream"); });
    fake.Post("/v1/completions", [&](const httplib::Request&, httplib::Response& a) { a.set_content(stream, "text/event-stream"); });
    const int port = fake.bind_to_any_port("127.0.0.1");
    std::thread listener([&] { fake.listen_after_bind(); });
    const auto stop = qScopeGuard([&] { // also when a check fails and returns
        fake.stop();
        listener.join();
    });

    qputenv("OCTOSCOPE_TEST_SERVER_KEY", "sk-test-123");
    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    w.resize(1280, 800);
    w.show();
    const QString url = QStringLiteral("http://127.0.0.1:%1/v1").arg(port);
    ServerSettings s{url, QString(), ServerSettings::KeySource::Environment, QStringLiteral("OCTOSCOPE_TEST_SERVER_KEY")};
    s.remember();
    QVERIFY(connect_to(w, ServerSettings::remembered()));
    QCOMPARE(seen_key, std::string("Bearer sk-test-123"));
    for (const QString& k : QSettings().allKeys()) QVERIFY2(!QSettings().value(k).toString().contains(QStringLiteral("sk-test")), qPrintable(k));
    QVERIFY(!w.store().model()->engine->octoscope);
    // A server sends no attention weights: "Record attention" is neither ticked nor tickable.
    const auto shown = [](const QCheckBox* box) { return QString(box->text()).remove(QLatin1Char('&')); }; // without its access key
    auto* attention = part<PromptPanel>(w)->findChild<QCheckBox*>();
    for (QCheckBox* box : part<PromptPanel>(w)->findChildren<QCheckBox*>()) {
        if (shown(box).contains(QStringLiteral("attention"))) attention = box;
    }
    QVERIFY(attention && shown(attention).contains(QStringLiteral("attention")));
    QVERIFY(!attention->isChecked());
    QVERIFY(!attention->isEnabled());
    QCOMPARE(part<PromptPanel>(w)->spec().record_attention, false);
    RunSpec spec = spec_of("Sky?");
    spec.chat = true;
    QVERIFY(run_and_wait(w, spec));
    const RunRecord& r = *w.store().current();
    QCOMPARE(QString::fromStdString(r.trace.outcome->text), QStringLiteral("The sky is blue."));
    QCOMPARE(r.n_prompt(), size_t(0));
    QCOMPARE(r.n_generated(), size_t(5));
    // The internals views say what they need instead of plotting zeros.
    InternalsNote* heatmap_note = part<HeadHeatmapView>(w)->findChild<InternalsNote*>();
    QVERIFY(heatmap_note && heatmap_note->isVisible());
    QVERIFY(heatmap_note->text().contains(QStringLiteral("local model or on an Octoscope server")));
    QVERIFY(part<SubsystemStripView>(w)->findChild<InternalsNote*>()->isVisible());
    screenshot(w, QStringLiteral("remote-other.png"));
    // Switching subsystems off needs internals: the run fails with the sentence, nothing is faked.
    spec.disabled[2] = true;
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(spec);
    QVERIFY(settled.wait(30000));
    QCOMPARE(w.store().current()->state, RunState::Failed);
    QVERIFY2(w.store().current()->error.contains(QStringLiteral("need a local model or an Octoscope server")),
             qPrintable(w.store().current()->error));
}

void TestRemoteEngine::connectionProblemsAreClearAndChangeNothing() {
    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    QSignalSpy failed(w.serverController(), &ServerController::failed);
    w.serverController()->connectTo({QStringLiteral("http://127.0.0.1:9"), QString(), ServerSettings::KeySource::None, QString()});
    QVERIFY(failed.wait(30000));
    QVERIFY2(w.serverController()->lastError().contains(QStringLiteral("127.0.0.1:9")), qPrintable(w.serverController()->lastError()));
    w.serverController()->connectTo({QStringLiteral("ftp://x"), QString(), ServerSettings::KeySource::None, QString()});
    QVERIFY(failed.wait(30000) || failed.size() == 2);
    w.serverController()->connectTo({QStringLiteral("http://127.0.0.1:1"), QString(), ServerSettings::KeySource::Environment,
                                     QStringLiteral("OCTOSCOPE_NO_SUCH_VARIABLE")});
    QCOMPARE(failed.size(), 3);
    QVERIFY(w.serverController()->lastError().contains(QStringLiteral("OCTOSCOPE_NO_SUCH_VARIABLE")));
    // No key stored for this URL (and, on a test machine, no keyring at all): a clear error.
    w.serverController()->connectTo({QStringLiteral("http://127.0.0.1:1"), QString(), ServerSettings::KeySource::Keyring, QString()});
    QVERIFY(failed.wait(30000));
    QVERIFY2(w.serverController()->lastError().contains(QStringLiteral("keyring")), qPrintable(w.serverController()->lastError()));
    QVERIFY(!w.store().model());
}

// Issue 45, item 3: what the views say in remote mode is what the server provides.
void TestRemoteEngine::remoteModeDescribesTheServerTruly() {
    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    w.resize(1366, 768);
    w.show();
    QVERIFY(connect_to(w, {QStringLiteral("http://127.0.0.1:%1").arg(server_->port()), QString(), ServerSettings::KeySource::None, QString()}));
    // The server's head map (octet's, from its GGUF) arrives with its model: groups are named as
    // there, and no banner says the model has none.
    QVERIFY(status_drawn_once(w));
    const ModelInfo& model = *w.store().model();
    QVERIFY(model.head_map);
    QCOMPARE(model.head_map->source(), served_->map().source());
    QCOMPARE(model.head_map->to_json(), served_->map().to_json());
    QCOMPARE(head_group_short(model, 2), QStringLiteral("rte-c"));
    auto* banner = w.findChild<CalibrationBanner*>();
    QVERIFY(banner && !banner->offered());
    RunSpec spec = spec_of("What is 35% of 240?");
    QVERIFY(run_and_wait(w, spec));
    QVERIFY(status_drawn_once(w));
    // Layers × heads keeps its group labels.
    auto* heatmap = part<HeadHeatmapView>(w)->findChild<QCustomPlot*>();
    QVERIFY(heatmap);
    auto ticker = heatmap->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(ticker && !ticker->ticks().isEmpty());
    QVERIFY2(ticker->ticks().values().contains(QStringLiteral("rte-c")), qPrintable(ticker->ticks().values().join(' ')));
    // The KV pool: the totals the server reported, and that it reports no more.
    const QString kv = part<KvView>(w)->summary();
    QVERIFY2(kv.contains(QStringLiteral("The server's pool after this run:")), qPrintable(kv));
    QVERIFY(w.store().current()->trace.outcome->kv.blocks_total > 0);
    QVERIFY(part<KvView>(w)->plot()->noDataMessage().contains(QStringLiteral("totals only")));
    // Attention: not "tick Record attention" (disabled here), but why there is none.
    const QString attention = part<AttentionView>(w)->findChild<Plot*>()->noDataMessage();
    QVERIFY2(attention.contains(QStringLiteral("A server sends no attention weights")), qPrintable(attention));
    // The status line: connected, and no claim that every view is live.
    auto* status = w.statusBar()->findChild<QLabel*>(QStringLiteral("statusModel"));
    QVERIFY(status);
    QVERIFY2(status->text().endsWith(QStringLiteral("— connected")), qPrintable(status->text()));
    QVERIFY(!status->text().contains(QStringLiteral("every view")));
    // What is local only is greyed, with the reason.
    for (const char* name : {"modelCalibrateHeads", "modelCalibrateExperts"}) {
        QAction* calibrate = w.findChild<QAction*>(QString::fromLatin1(name));
        QVERIFY(calibrate && !calibrate->isEnabled());
        QVERIFY(calibrate->toolTip().contains(QStringLiteral("where the server runs")));
    }
    // Model → Server's Models lists what GET /v1/models listed, the one in use ticked.
    auto* served = w.findChild<QMenu*>(QStringLiteral("modelServed"));
    QVERIFY(served && served->menuAction()->isEnabled());
    QVERIFY(QMetaObject::invokeMethod(served, "aboutToShow"));
    QCOMPARE(served->actions().size(), 1);
    QCOMPARE(served->actions().front()->text(), QStringLiteral("octet.gguf"));
    QVERIFY(served->actions().front()->isChecked());
    w.showPanel(QStringLiteral("kv"));
    screenshot(w, QStringLiteral("remote-kv.png"));
}

// A server that stops answering: each retry is said while it waits, then that it is unreachable.
void TestRemoteEngine::aServerThatStopsAnsweringSaysSo() {
    httplib::Server fake;
    fake.Get("/v1/models", [&](const httplib::Request&, httplib::Response& a) {
        a.set_content(R"({"object": "list", "data": [{"id": "gone", "object": "model", "owned_by": "test"}]})", "application/json");
    });
    const int port = fake.bind_to_any_port("127.0.0.1");
    std::thread listener([&] { fake.listen_after_bind(); });
    auto stop = qScopeGuard([&] {
        fake.stop();
        if (listener.joinable()) listener.join();
    });
    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    w.show();
    QVERIFY(connect_to(w, {QStringLiteral("http://127.0.0.1:%1").arg(port), QString(), ServerSettings::KeySource::None, QString()}));
    QVERIFY(w.store().server_state() && w.store().server_state()->kind == ServerState::Kind::Connected);
    fake.stop(); // the server dies
    listener.join();
    auto* status = w.statusBar()->findChild<QLabel*>(QStringLiteral("statusModel"));
    QStringList said;
    connect(&w.store(), &RunStore::serverStateChanged, this, [&] {
        said << status->text();
        if (said.size() == 1) {
            // Seen at once: no earlier message ("Connected to …") covers the label.
            QVERIFY(status->isVisible());
            QVERIFY(w.statusBar()->currentMessage().isEmpty());
            screenshot(w, QStringLiteral("remote-retrying.png"));
        }
    });
    QSignalSpy settled(&w, &MainWindow::runSettled);
    w.runs().submit(spec_of("Hello?"));
    QVERIFY(settled.wait(60000));
    QVERIFY2(said.size() >= 2, qPrintable(said.join('\n')));
    QVERIFY2(said.front().contains(QStringLiteral("not answering, retry 1 of 4 in 0.5 s: cannot reach")), qPrintable(said.front()));
    QCOMPARE(w.store().server_state()->kind, ServerState::Kind::Unreachable);
    QVERIFY(status_drawn_once(w));
    QVERIFY2(status->text().endsWith(QStringLiteral("— not answering")), qPrintable(status->text()));
    QVERIFY(status->toolTip().contains(QStringLiteral("after 4 retries")));
    QCOMPARE(w.store().current()->state, RunState::Failed);
    screenshot(w, QStringLiteral("remote-unreachable.png"));
}

namespace {

// Every label of the plots' axes in `view`.
QStringList tick_labels(QWidget* view) {
    QStringList out;
    for (QCustomPlot* plot : view->findChildren<QCustomPlot*>()) {
        for (QCPAxis* axis : plot->axisRect()->axes()) {
            if (auto text = axis->ticker().dynamicCast<QCPAxisTickerText>()) out += text->ticks().values();
        }
    }
    return out;
}

// What the views say of group 2 for the shown run: `name` ("rte-c" or "group 2") in the layers ×
// heads and tokens × subsystems plots, never the other form; the model they describe is the
// run's. Empty when they agree, else what disagrees.
QString views_disagree(MainWindow& w, const QString& name) {
    const QString other = name == QStringLiteral("rte-c") ? QStringLiteral("group 2") : QStringLiteral("rte-c");
    QStringList problems;
    const RunRecord* run = w.store().current();
    if (!run || !run->model) return QStringLiteral("no run with its model shown");
    if (w.store().shown_model()->path != run->model_path) problems << QStringLiteral("the views describe another model");
    for (QWidget* view : std::initializer_list<QWidget*>{part<HeadHeatmapView>(w), part<SubsystemStripView>(w)}) {
        const QStringList labels = tick_labels(view);
        if (!labels.contains(name)) problems << QStringLiteral("%1 lacks %2 (%3)").arg(view->metaObject()->className(), name, labels.join(','));
        for (const QString& l : labels) {
            if (l.startsWith(other)) problems << QStringLiteral("%1 shows %2").arg(view->metaObject()->className(), l);
        }
    }
    return problems.join(QStringLiteral("; "));
}

} // namespace

// Issue 45, deliverable 2: model change → calibrate → rerun → connect → disconnect; at each step
// the views describe the run they show, with the model and map it was made with.
void TestRemoteEngine::viewsDescribeTheShownRunThroughEveryChange() {
    qputenv("XDG_DATA_HOME", dir_.filePath(QStringLiteral("walk")).toUtf8()); // the calibrated map goes there
    const auto restore = qScopeGuard([] { qunsetenv("XDG_DATA_HOME"); });
    SyntheticModelSpec spec;
    spec.n_head = 8;
    spec.n_head_kv = 4;
    spec.context_length = 256;
    const QString plain = dir_.filePath(QStringLiteral("plain.gguf"));
    QVERIFY(octo::ui::test::write_synthetic_model(plain, spec));
    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    w.resize(1366, 768);
    w.show();
    auto* switches = part<SwitchesPanel>(w);
    auto* status = w.statusBar()->findChild<QLabel*>(QStringLiteral("statusModel"));
    const auto open = [&](const QString& path) {
        QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
        w.openModel(path);
        return loaded.wait(60000);
    };
    const RunSpec question = spec_of("What is 35% of 240?");

    // octet: its GGUF names the groups.
    QVERIFY(open(kModel));
    QVERIFY(run_and_wait(w, question));
    QCOMPARE(views_disagree(w, QStringLiteral("rte-c")), QString());
    QCOMPARE(switches->toggle(2)->text(), QStringLiteral("rte-c"));
    // Model change: the shown run is still octet's and says so until a run on the new model.
    QVERIFY(open(plain));
    QCOMPARE(views_disagree(w, QStringLiteral("rte-c")), QString());
    QCOMPARE(switches->toggle(2)->text(), QStringLiteral("group 2")); // the next run's groups
    QVERIFY2(switches->mapNote().contains(QStringLiteral("The shown run was made with")), qPrintable(switches->mapNote()));
    QVERIFY(run_and_wait(w, question));
    QCOMPARE(views_disagree(w, QStringLiteral("group 2")), QString());
    QCOMPARE(switches->mapNote(), QString()); // the shown run's groups are the next run's
    QVERIFY2(status->text().contains(QStringLiteral("head map: default")), qPrintable(status->text()));
    // Calibrate: the shown run keeps the map it was measured with; the switches name the next
    // run's groups, and the message says which is which.
    QSignalSpy calibrated(&w.store(), &RunStore::calibrationFinished);
    w.workbench().calibrateHeadMap();
    QVERIFY(calibrated.wait(180000));
    QVERIFY2(calibrated.first().at(1).toBool(), qPrintable(calibrated.first().at(0).toString()));
    QVERIFY(calibrated.first().at(0).toString().contains(QStringLiteral("earlier runs keep the map")));
    QCOMPARE(views_disagree(w, QStringLiteral("group 2")), QString());
    QCOMPARE(switches->toggle(2)->text(), QStringLiteral("rte-c"));
    QVERIFY2(switches->mapNote().contains(QStringLiteral("measured with the default head map")), qPrintable(switches->mapNote()));
    // Rerun: measured with the calibrated map, named by it everywhere.
    QVERIFY(run_and_wait(w, question));
    QCOMPARE(w.store().current()->model->head_map->source(), HeadMapSource::Calibrated);
    QCOMPARE(views_disagree(w, QStringLiteral("rte-c")), QString());
    QCOMPARE(switches->mapNote(), QString());
    // Connect: the server's model and map (octet's); its run is named as the server names it.
    QVERIFY(connect_to(w, {QStringLiteral("http://127.0.0.1:%1").arg(server_->port()), QString(), ServerSettings::KeySource::None, QString()}));
    QVERIFY(run_and_wait(w, question));
    QVERIFY(w.store().current()->engine);
    QCOMPARE(views_disagree(w, QStringLiteral("rte-c")), QString());
    QVERIFY2(status->text().contains(QStringLiteral("on the server")), qPrintable(status->text()));
    // Disconnect: back to the last model file; the server's run is still shown as the server's.
    QAction* disconnect = w.findChild<QAction*>(QStringLiteral("modelDisconnect"));
    QSignalSpy reloaded(&w.store(), &RunStore::modelLoaded);
    disconnect->trigger();
    QVERIFY(reloaded.wait(60000));
    QVERIFY(!w.store().model()->engine);
    QVERIFY(w.store().current()->engine);
    QCOMPARE(views_disagree(w, QStringLiteral("rte-c")), QString());
    QVERIFY2(!status->text().contains(QStringLiteral("on the server")), qPrintable(status->text()));
    QVERIFY2(switches->mapNote().contains(QStringLiteral("The shown run was made with octet.gguf on the server")), qPrintable(switches->mapNote()));
    // The line no longer says "Connected to …".
    QVERIFY2(!w.statusBar()->currentMessage().contains(QStringLiteral("Connected")), qPrintable(w.statusBar()->currentMessage()));
    // The server's run still saves as the server's, not as a run of the model loaded now.
    const QString file = dir_.filePath(QStringLiteral("after-disconnect.octo"));
    QSignalSpy saved(w.captureController(), &CaptureController::captureSaved);
    w.captureController()->saveCapture(file);
    QVERIFY(QTest::qWaitFor([&] { return !saved.isEmpty(); }, 30000) && saved.first().at(1).toBool());
    const Capture c = open_capture(file.toStdString()).value();
    QVERIFY(c.engine);
    QCOMPARE(QString::fromStdString(c.engine->url), QStringLiteral("http://127.0.0.1:%1").arg(server_->port()));
    QCOMPARE(c.trace.generated_ids(), w.store().current()->trace.generated_ids());
    screenshot(w, QStringLiteral("walk-disconnected.png"));
}

// The Claims dock on a connected Octoscope server gives the local values; a claim that needs a
// local model says so.
void TestRemoteEngine::claimsRunOnTheServer() {
    const auto measure = [](MainWindow& w) {
        auto* panel = part<ClaimsPanel>(w);
        panel->itemsBox()->setValue(2);
        panel->seedBox()->setValue(3);
        panel->selectClaim(QStringLiteral("groups-specialise"));
        QSignalSpy finished(&w.claimsStore(), &ClaimsStore::finished);
        panel->runSelected();
        return finished.wait(120000);
    };
    MainWindow local;
    local.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    QSignalSpy loaded(&local.store(), &RunStore::modelLoaded);
    local.openModel(kModel);
    QVERIFY(loaded.wait(60000));
    QVERIFY(measure(local));
    const ClaimResult* expected = local.claimsStore().result("groups-specialise");
    QVERIFY(expected && expected->estimate);

    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    QVERIFY(connect_to(w, {QStringLiteral("http://127.0.0.1:%1").arg(server_->port()), QString(), ServerSettings::KeySource::None, QString()}));
    QVERIFY(measure(w));
    const ClaimResult* got = w.claimsStore().result("groups-specialise");
    QVERIFY(got && got->estimate);
    QCOMPARE(got->estimate->value, expected->estimate->value);
    // The shuffled-map control runs only on a local model: here it beats the control and holds;
    // through the server the control cannot run, so the same interval is inconclusive and says why.
    QVERIFY(expected->control && expected->control->beaten);
    QCOMPARE(expected->verdict, Verdict::Holds);
    QVERIFY(got->control && !got->control->estimate);
    QVERIFY2(QString::fromStdString(got->control->reason).contains(QStringLiteral("needs a local model")), got->control->reason.c_str());
    QCOMPARE(got->verdict, Verdict::Inconclusive);
    QVERIFY2(QString::fromStdString(w.claimsStore().report().model).contains(QStringLiteral("127.0.0.1")),
             w.claimsStore().report().model.c_str());
    auto* panel = part<ClaimsPanel>(w);
    panel->selectClaim(QStringLiteral("kv-pool-reuse"));
    QSignalSpy finished(&w.claimsStore(), &ClaimsStore::finished);
    panel->runSelected();
    QVERIFY(finished.wait(120000));
    const ClaimResult* kv = w.claimsStore().result("kv-pool-reuse");
    QVERIFY(kv && !kv->estimate);
    QVERIFY(QString::fromStdString(kv->reason).contains(QStringLiteral("needs a local model")));
}

// A conversation on a server: the missing turn is generated there, with the whole conversation
// sent (octet's server reads its last user message); the given assistant turn is not evaluated
// (a server measures nothing of it); the answer equals the local one.
void TestRemoteEngine::conversationTurnsRunOnTheServer() {
    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    w.loadResources(QStringLiteral(OCTOSCOPE_SOURCE_DIR "/resources"));
    QVERIFY(connect_to(w, {QStringLiteral("http://127.0.0.1:%1").arg(server_->port()), QString(), ServerSettings::KeySource::None, QString()}));
    ConversationController& controller = w.workbench().conversationController();
    QSignalSpy idle(&controller, &ConversationController::busyChanged);
    QVERIFY(controller.open({{ChatRole::User, "Hello"}, {ChatRole::Assistant, "Hi."}, {ChatRole::User, "What is 20% of 300?"}}));
    QVERIFY(QTest::qWaitFor([&] { return !controller.busy(); }, 60000));
    const ConversationRecord* c = w.workbench().conversations().current();
    QVERIFY(c);
    QCOMPARE(c->turns.size(), size_t{4});
    QVERIFY(!c->turns[1].run); // given, not evaluated on the server
    QVERIFY(c->turns[3].run && c->turns[3].generated);
    QCOMPARE(c->turns[3].message.content, std::string("60"));
    const RunRecord* r = w.store().run(*c->turns[3].run);
    QVERIFY(r && r->engine && r->state == RunState::Finished);
    QCOMPARE(r->trace.spec.messages.size(), size_t{3});
}

// Model → Connect to Server… opens with what was used last (never a key); Cancel changes nothing.
void TestRemoteEngine::dialogShowsTheRememberedSettings() {
    ServerSettings{QStringLiteral("https://llm.example.internal:8000/v1"), QStringLiteral("meta-llama/Llama-3.1-70B-Instruct"),
                   ServerSettings::KeySource::Environment, QStringLiteral("TEAM_KEY")}
        .remember();
    MainWindow w;
    w.show();
    QStringList fields;
    bool env_checked = false;
    QTimer::singleShot(200, [&] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        for (QLineEdit* e : dialog->findChildren<QLineEdit*>()) fields << e->text();
        for (QRadioButton* b : dialog->findChildren<QRadioButton*>()) env_checked = env_checked || (b->isChecked() && b->text().contains(QStringLiteral("Environment")));
        screenshot(*dialog, QStringLiteral("connect-dialog.png"));
        dialog->reject();
    });
    w.serverController()->showDialog();
    QVERIFY2(fields.contains(QStringLiteral("https://llm.example.internal:8000/v1")), qPrintable(fields.join(QLatin1Char('|'))));
    QVERIFY(fields.contains(QStringLiteral("meta-llama/Llama-3.1-70B-Instruct")));
    QVERIFY(fields.contains(QStringLiteral("TEAM_KEY")));
    QVERIFY(env_checked);
    QVERIFY(!w.store().model()); // cancelled: nothing connected
}

// Run by the `ui_remote_keyring` test inside a private D-Bus session with an unlocked keyring
// (tests/ui/with_keyring.sh): a key typed in the dialog goes to the keyring, not the settings,
// and the next connection reads it from there.
void TestRemoteEngine::keyringKeepsTheKey() {
    if (qEnvironmentVariableIsEmpty("OCTOSCOPE_TEST_KEYRING")) QSKIP("needs a keyring: run through tests/ui/with_keyring.sh");
    httplib::Server fake;
    std::vector<std::string> keys;
    fake.Get("/v1/models", [&](const httplib::Request& q, httplib::Response& a) {
        keys.push_back(q.get_header_value("Authorization"));
        a.set_content(R"({"object": "list", "data": [{"id": "m", "object": "model", "owned_by": "x"}]})", "application/json");
    });
    const int port = fake.bind_to_any_port("127.0.0.1");
    std::thread listener([&] { fake.listen_after_bind(); });
    const auto stop = qScopeGuard([&] { // also when a check fails and returns
        fake.stop();
        listener.join();
    });
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(port);
    MainWindow w;
    w.serverController()->setDialogsEnabled(false);
    QSignalSpy loaded(&w.store(), &RunStore::modelLoaded);
    QTimer::singleShot(200, [&] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        const auto edits = dialog->findChildren<QLineEdit*>();
        for (QLineEdit* e : edits) {
            if (e->placeholderText().startsWith(QStringLiteral("http"))) e->setText(url);
            if (e->echoMode() == QLineEdit::Password) e->setText(QStringLiteral("sk-keyring-42"));
        }
        for (QRadioButton* b : dialog->findChildren<QRadioButton*>()) {
            if (b->text().contains(QStringLiteral("keyring"))) b->setChecked(true);
        }
        dialog->accept();
    });
    w.serverController()->showDialog();
    QVERIFY2(loaded.wait(30000), qPrintable(w.serverController()->lastError()));
    // Again, from the remembered settings: the key comes back from the keyring.
    MainWindow again;
    again.serverController()->setDialogsEnabled(false);
    QVERIFY2(connect_to(again, ServerSettings::remembered()), qPrintable(again.serverController()->lastError()));
    QCOMPARE(keys.size(), size_t(2));
    QCOMPARE(keys[0], std::string("Bearer sk-keyring-42"));
    QCOMPARE(keys[1], std::string("Bearer sk-keyring-42"));
    for (const QString& k : QSettings().allKeys()) QVERIFY2(!QSettings().value(k).toString().contains(QStringLiteral("sk-keyring")), qPrintable(k));
}

QTEST_MAIN(TestRemoteEngine)
#include "test_remote_engine.moc"
