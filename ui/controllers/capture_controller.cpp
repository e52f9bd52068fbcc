#include "ui/controllers/capture_controller.h"

#include "engine/remote/openai_runner.h"

#include <QBuffer>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>

#include <nlohmann/json.hpp>
#include <qcustomplot.h>

#include "engine/capture/capture_identity.h"
#include "engine/capture/capture_io.h"
#include "engine/core/atomic_file.h"
#include "ui/panels/advisor_panel.h"
#include "ui/reports/bug_report.h"
#include "ui/support/file_save.h"
#include "ui/session/capture_record.h"
#include "ui/controllers/engine_bridge.h"
#include "ui/controllers/run_controller.h"
#include "ui/session/run_store.h"
#include "ui/panels/router_panel.h"
#include "ui/reports/system_info.h"
#include "ui/support/plot.h"
#include "ui/support/window_services.h"
#include "ui/views/claim_plot_view.h"
#include "ui/views/compare_view.h"

namespace octo::ui {

namespace {

QString text(const std::string& s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }


Status write_png(const QString& path, const QPixmap& pixmap) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!pixmap.save(&buffer, "PNG")) return make_error(ErrorCode::Io, "cannot encode " + path.toStdString() + " as PNG");
    return write_file_atomic(local_path(path), std::string_view(png.constData(), static_cast<size_t>(png.size())));
}

// Whether the capture's model file is the one loaded now: the title, the status bar's label and
// the message on opening all say it from this one test.
bool capture_model_loaded(const RunStore& store, const CaptureOrigin& capture) {
    const auto& loaded = store.model();
    return loaded && QFileInfo(QString::fromStdString(loaded->path)).canonicalFilePath() ==
                         QFileInfo(text(capture.model.path)).canonicalFilePath();
}

QString token_text(const TraceToken& t) {
    return QStringLiteral("%1 “%2”").arg(t.id).arg(QString::fromUtf8(t.bytes.data(), static_cast<qsizetype>(t.bytes.size())));
}

} // namespace

CaptureController::CaptureController(CaptureWorkbench w, QObject* parent)
    : QObject(parent), parent_(&w.parent), status_(w.status), pictures_(w.pictures), store_(w.store), bridge_(w.bridge), runs_(w.runs),
      router_(w.router), advisor_(w.advisor), open_model_(std::move(w.open_model)) {
    io_.setMaxThreadCount(1);
    pick_model_ = [this](const QString& problem) {
        if (QMessageBox::question(parent_, tr("Re-run Capture"), tr("%1\n\nPick the model file?").arg(problem)) != QMessageBox::Yes) {
            return QString();
        }
        return QFileDialog::getOpenFileName(parent_, tr("The capture's model"), QString(), tr("GGUF models (*.gguf);;All files (*)"));
    };
    auto* label = new QLabel(parent_);
    label->setObjectName(QStringLiteral("captureStatus"));
    label->hide();
    status_.addIndicator(label);
    const auto update = [this, label] {
        const RunRecord* r = store_.current();
        if (!r || !r->capture) {
            status_.setIndicatorShown(label, false);
            emit titleChanged(tr("Octoscope"));
            return;
        }
        const QString file = QFileInfo(r->capture->path).fileName();
        // Every view shows what the capture recorded; what differs is whether Re-run can run it.
        const QString state = capture_model_loaded(store_, *r->capture) ? tr("recorded; its model is loaded")
                                                                        : tr("recorded; its model is not loaded");
        label->setText(tr("Capture %1 — %2, %3").arg(file, text(r->capture->model.name), state));
        status_.setIndicatorShown(label, true); // after "Capture opened", not over it
        emit titleChanged(tr("Octoscope — capture %1 (%2, %3)").arg(file, text(r->capture->model.name), state));
    };
    connect(&store_, &RunStore::runChanged, this, update);
    connect(&store_, &RunStore::modelLoaded, this, update);
    connect(this, &CaptureController::captureOpened, this, update);
}

CaptureController::~CaptureController() { io_.waitForDone(); }

void CaptureController::fail(const QString& title, const QString& message) {
    last_error_ = message;
    status_.showMessage(tr("%1: %2").arg(title, message), 15000);
    if (dialogs_) { // not blocking: the engine's events keep flowing while it shows
        auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, parent_);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit failed(message);
}

Result<ModelDescription> CaptureController::loadedModelIdentity() const {
    const RunStore& store = store_;
    if (!store.model()) return make_error(ErrorCode::InvalidArgument, "no model is loaded");
    if (store.model_identity_error()) return *store.model_identity_error();
    if (!store.model_identity()) {
        return make_error(ErrorCode::InvalidArgument, "the model's SHA-256 is still being computed; try again in a moment");
    }
    return *store.model_identity(); // hashed by the engine's host after the load
}

bool CaptureController::identityPending() const {
    const RunStore& store = store_;
    const RunRecord* r = store.current();
    // a run on a server has no model file to hash
    return r && !r->capture && !r->engine && store.model() && !store.model_identity() && !store.model_identity_error();
}

Result<Capture> CaptureController::captureShown() {
    const RunRecord* r = store_.current();
    if (!r) return make_error(ErrorCode::InvalidArgument, "there is no run to save");
    return captureOf(*r);
}

Result<Capture> CaptureController::captureOf(const RunRecord& run) {
    const RunRecord* r = &run;
    if (r->state == RunState::Running) return make_error(ErrorCode::InvalidArgument, "the run is still going");
    if (!r->trace.outcome) return make_error(ErrorCode::InvalidArgument, "the run did not finish");
    CaptureContext context;
    if (r->capture) {
        context = static_cast<const CaptureContext&>(*r->capture); // a capture saved again keeps where it ran
        return capture_of_record(*r, context);
    }
    if (r->engine && r->model) { // a run on a server, connected or not: the server as it described itself then
        context = remote::remote_capture_context(*r->model, r->trace.outcome ? r->trace.outcome->fingerprint : std::string(),
                                                 OCTOSCOPE_VERSION);
        return capture_of_record(*r, context);
    }
    if (!store_.model() || r->model_path != store_.model()->path) {
        // The capture names the model file by its SHA-256: only the loaded one's is known.
        return make_error(ErrorCode::InvalidArgument, "this run was made with " +
                                                          (r->model_path.empty() ? std::string("another model") : r->model_path) +
                                                          ", not the model loaded now: open it again to save the run");
    }
    auto identity = loadedModelIdentity();
    if (!identity) return identity.error();
    context.model = std::move(identity.value());
    const ModelInfo& m = r->model ? *r->model : *store_.model(); // as the run was made (its head map)
    context.app_version = OCTOSCOPE_VERSION;
    context.backend = m.backend;
    context.device = system_info().cpu.toStdString();
    context.head_map = m.head_map;
    const QString prompt = QString::fromStdString(r->trace.spec.prompt);
    context.route = store_.route_for(prompt);
    context.findings = store_.findings_for(prompt);
    return capture_of_record(*r, context);
}

void CaptureController::saveCapture(const QString& path) {
    if (identityPending()) { // a large model is still being hashed: save once it is
        status_.showMessage(tr("Computing the model's SHA-256 to save the capture %1…").arg(path));
        auto once = std::make_shared<QMetaObject::Connection>();
        const std::string model = store_.model()->path;
        *once = connect(&store_, &RunStore::modelIdentified, this, [this, path, once, model] {
            disconnect(*once);
            if (!store_.model() || store_.model()->path != model) { // another model was loaded meanwhile
                fail(tr("Cannot save the capture"), tr("Another model was loaded before this one's SHA-256 was computed."));
                emit captureSaved(path, false);
                return;
            }
            saveCapture(path);
        });
        return;
    }
    auto capture = captureShown();
    if (!capture) {
        fail(tr("Cannot save the capture"), text(capture.error().message));
        emit captureSaved(path, false);
        return;
    }
    auto shared = std::make_shared<const Capture>(std::move(capture.value()));
    status_.showMessage(tr("Saving the capture %1…").arg(path));
    io_.start([this, shared, path] {
        const Status saved = save_capture(*shared, local_path(path));
        const QString error = saved ? QString() : text(saved.error().message);
        QMetaObject::invokeMethod(
            this,
            [this, path, error] {
                if (!error.isEmpty()) {
                    fail(tr("Cannot save the capture"), error);
                } else {
                    status_.showMessage(tr("Saved the capture %1").arg(path), 8000);
                }
                emit captureSaved(path, error.isEmpty());
            },
            Qt::QueuedConnection);
    });
}

void CaptureController::openCapture(const QString& path) {
    status_.showMessage(tr("Opening the capture %1…").arg(path));
    io_.start([this, path] {
        auto capture = open_capture(local_path(path));
        auto record = capture ? std::make_shared<RunRecord>(record_of_capture(capture.value(), QFileInfo(path).absoluteFilePath()))
                              : nullptr;
        const QString error = capture ? QString() : text(capture.error().message);
        QMetaObject::invokeMethod(
            this,
            [this, path, record, error] {
                if (!record) return fail(tr("Cannot open the capture"), error);
                show(path, std::move(*record));
            },
            Qt::QueuedConnection);
    });
}

void CaptureController::show(const QString& path, RunRecord record) {
    const QString prompt = QString::fromStdString(record.trace.spec.prompt);
    runs_.showSpec(record.trace.spec);
    const std::shared_ptr<const CaptureOrigin> origin = record.capture;
    store_.add_run(std::move(record));
    const RunRecord* shown = store_.current();
    if (origin->route) router_.showDecision(prompt, *origin->route);
    advisor_.showFindings(origin->findings, prompt, shown->generated_text());
    emit captureOpened(path); // the status bar's capture label shows it from now on
    if (origin->engine) {
        status_.showMessage(tr("Opened the capture %1: %2 tokens of %3, run on the server %4")
                                              .arg(QFileInfo(path).fileName())
                                              .arg(shown->tokens().size())
                                              .arg(text(origin->engine->model))
                                              .arg(text(origin->engine->url)),
                                          10000);
        return;
    }
    status_.showMessage((capture_model_loaded(store_, *origin)
                                           ? tr("Opened the capture %1: %2 tokens of %3, shown as recorded; its model is loaded (Run → Re-run Capture runs it again)")
                                           : tr("Opened the capture %1: %2 tokens of %3, shown as recorded; its model is not loaded"))
                                          .arg(QFileInfo(path).fileName())
                                          .arg(shown->tokens().size())
                                          .arg(text(origin->model.name)),
                                      10000);
}

void CaptureController::rerunCapture() {
    const RunRecord* r = store_.current();
    if (!r || !r->capture) {
        fail(tr("Re-run Capture"), tr("Show a capture first (File → Open Capture…)."));
        return;
    }
    if (r->capture->engine) { // no model file here to re-run it on
        fail(tr("Re-run Capture"), tr("This run was on the server %1 (model %2). Repeat it there with:\n"
                                      "octoscope-cli replay \"%3\"")
                                       .arg(text(r->capture->engine->url), text(r->capture->engine->model), r->capture->path));
        return;
    }
    rerun_of_ = std::make_shared<const RunRecord>(*r);
    rerunOn(text(r->capture->model.path));
}

void CaptureController::rerunOn(const QString& model_path) {
    const ModelDescription& recorded = rerun_of_->capture->model;
    if (Status same = check_capture_model(recorded, local_path(model_path)); !same) {
        const QString picked = pick_model_(tr("The capture's model is missing or differs: %1").arg(text(same.error().message)));
        if (picked.isEmpty()) {
            fail(tr("Re-run Capture"), tr("Not re-run: %1").arg(text(same.error().message)));
            return;
        }
        rerunOn(picked);
        return;
    }
    const auto& loaded = store_.model();
    if (loaded && QFileInfo(QString::fromStdString(loaded->path)).canonicalFilePath() == QFileInfo(model_path).canonicalFilePath()) {
        submitRerun();
        return;
    }
    auto* waiting = new QObject(this); // the one-shot connections below go with it
    connect(&store_, &RunStore::modelLoaded, waiting, [this, waiting] {
        waiting->deleteLater();
        submitRerun();
    });
    connect(&store_, &RunStore::loadFailed, waiting, [this, waiting](const QString& message, bool) {
        waiting->deleteLater();
        fail(tr("Re-run Capture"), tr("Cannot load the capture's model: %1").arg(message));
    });
    status_.showMessage(tr("Loading the capture's model %1 to re-run it…").arg(model_path));
    open_model_(model_path);
}

void CaptureController::submitRerun() {
    const RunSpec spec = rerun_of_->trace.repeat_spec();
    disconnect(rerun_wait_);
    rerun_id_ = bridge_.run(spec);
    rerun_wait_ = connect(&store_, &RunStore::runSettled, this, [this](quint64 id) {
        if (id != rerun_id_) return;
        disconnect(rerun_wait_);
        reportRerun(id);
    });
}

void CaptureController::reportRerun(quint64 run_id) {
    RunStore& store = store_;
    const RunRecord* now = store.run(run_id);
    if (!now || now->state != RunState::Finished) {
        fail(tr("Re-run Capture"), tr("The re-run did not finish: %1").arg(now ? now->error : tr("dropped from the history")));
        return;
    }
    const RunRecord& was = *rerun_of_;
    const ReplayComparison cmp = compare_replay(was.trace, now->trace);
    last_comparison_ = cmp;
    QString report;
    if (cmp.identical) {
        report = tr("Re-run identical: all %1 generated tokens repeated.").arg(cmp.recorded_tokens);
    } else if (!cmp.first_divergence) {
        report = tr("Re-run differs: the prompt tokenized differently; the generated tokens are the same.");
    } else {
        const size_t i = *cmp.first_divergence;
        const QString before = was.n_prompt() + i < was.tokens().size() ? token_text(was.tokens()[was.n_prompt() + i]) : tr("(ended)");
        const QString after = now->n_prompt() + i < now->tokens().size() ? token_text(now->tokens()[now->n_prompt() + i]) : tr("(ended)");
        report = tr("Re-run differs: first divergence at generated token %1 — recorded %2, now %3.").arg(i).arg(before, after);
        if (store.current() && store.current()->id == run_id) store.select_token(static_cast<int>(now->n_prompt() + i));
    }
    const QString unrepeatable = unrepeatable_settings(was.trace.spec, store.model() ? store.model()->n_ctx : 0);
    if (!unrepeatable.isEmpty()) report += tr(" The workbench did not repeat %1; `octoscope-cli replay` does.").arg(unrepeatable);
    last_report_ = report;
    status_.showMessage(report, 30000);
    if (dialogs_) {
        auto* box = new QMessageBox(cmp.identical ? QMessageBox::Information : QMessageBox::Warning, tr("Re-run Capture"), report,
                                    QMessageBox::Ok, parent_);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }
    emit rerunReported(report, cmp.identical);
}

bool CaptureController::exportBugReport(const QString& folder) {
    auto capture = captureShown();
    if (!capture) {
        fail(tr("Cannot export a bug report"), text(capture.error().message));
        return false;
    }
    const QDir dir(folder);
    QStringList files;
    Status ok = Ok{};
    const auto write = [&](const QString& name, const std::function<Status(const QString&)>& writer) {
        if (!ok) return;
        ok = writer(dir.filePath(name));
        files << name;
    };
    write(QStringLiteral("window.png"), [this](const QString& p) { return write_png(p, pictures_.windowPicture()); });
    const RunRecord* shown = store_.current();
    for (Plot* plot : pictures_.plots()) {
        // Only what describes this run: no empty plots, no comparison of other runs, no claims.
        if (plot->hasNoData()) continue;
        const auto* compare = qobject_cast<const CompareView*>(plot->parentWidget());
        if (compare && (!shown || !compare->involves(shown->id))) continue;
        if (qobject_cast<const ClaimPlotView*>(plot->parentWidget())) continue;
        write(QStringLiteral("plots/%1.png").arg(plot_file_name(*plot)), [plot](const QString& p) { return write_png(p, plot->toPixmap(800, 500)); });
    }
    write(QStringLiteral("run.octo"), [&](const QString& p) { return save_capture(capture.value(), local_path(p)); });
    if (command_needs_head_map(capture.value())) {
        write(QString::fromLatin1(kBugReportHeadMap),
              [&](const QString& p) { return write_file_atomic(local_path(p), capture->head_map->to_json().dump(2) + "\n"); });
    }
    if (ok) {
        const QByteArray md = bug_report_markdown(capture.value(), system_info(), files).toUtf8();
        ok = write_file_atomic(local_path(dir.filePath(QStringLiteral("report.md"))),
                               std::string_view(md.constData(), static_cast<size_t>(md.size())));
    }
    if (!ok) {
        fail(tr("Cannot export a bug report"), text(ok.error().message));
        return false;
    }
    status_.showMessage(tr("Wrote the bug report to %1").arg(folder), 10000);
    return true;
}

void CaptureController::askOpenCapture() {
    const QString path = QFileDialog::getOpenFileName(parent_, tr("Open a capture"), QString(), tr("Octoscope captures (*.octo);;All files (*)"));
    if (!path.isEmpty()) openCapture(path);
}

void CaptureController::askSaveCapture() {
    const QString path = QFileDialog::getSaveFileName(parent_, tr("Save the shown run as a capture"), QStringLiteral("run.octo"),
                                                      tr("Octoscope captures (*.octo)"));
    if (!path.isEmpty()) saveCapture(path);
}

void CaptureController::askBugReport() {
    const QString folder = QFileDialog::getExistingDirectory(parent_, tr("Folder to write the bug report into"));
    if (folder.isEmpty()) return;
    const QString name = QStringLiteral("octoscope-bug-report-%1").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    exportBugReport(QDir(folder).filePath(name));
}

} // namespace octo::ui
