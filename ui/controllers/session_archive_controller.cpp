#include "ui/controllers/session_archive_controller.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMetaObject>

#include <memory>
#include <string>
#include <vector>

#include "engine/capture/capture_io.h"
#include "ui/controllers/capture_controller.h"
#include "ui/session/capture_record.h"
#include "ui/session/run_store.h"
#include "ui/session/session_archive.h"
#include "ui/support/file_save.h"
#include "ui/support/window_services.h"

namespace octo::ui {

namespace {

// How the history names a run in a message: its name, else its number.
QString run_label(const RunRecord& r) { return r.name.isEmpty() ? QStringLiteral("#%1").arg(r.id) : r.name; }

} // namespace

SessionArchiveController::SessionArchiveController(QWidget& parent, StatusSink& status, RunStore& store, CaptureController& captures,
                                                   QObject* owner)
    : QObject(owner), parent_(parent), status_(status), store_(store), captures_(captures) {
    io_.setMaxThreadCount(1);
}

SessionArchiveController::~SessionArchiveController() { io_.waitForDone(); }

QString SessionArchiveController::runs_text(int n) { return n == 1 ? tr("1 run") : tr("%1 runs").arg(n); }

void SessionArchiveController::fail(const QString& message) {
    status_.showError(message, 15000);
    emit failed(message);
}

bool SessionArchiveController::exportSession(const QString& folder) {
    const QDir dir(folder);
    if (dir.exists() && !dir.isEmpty()) {
        fail(tr("Cannot export the session into %1: choose an empty folder (nothing in it is overwritten).").arg(folder));
        return false;
    }
    if (!QDir().mkpath(folder)) {
        fail(tr("Cannot make the folder %1.").arg(folder));
        return false;
    }
    SessionIndex index;
    index.exported_at = QDateTime::currentDateTimeUtc();
    index.app_version = QStringLiteral(OCTOSCOPE_VERSION);
    auto captures = std::make_shared<std::vector<std::pair<QString, Capture>>>();
    for (const RunRecord& r : store_.runs()) {
        auto capture = captures_.captureOf(r);
        if (!capture) {
            index.skipped.push_back(QStringLiteral("%1: %2").arg(run_label(r), QString::fromStdString(capture.error().message)));
            continue;
        }
        const QString file = session_run_file(static_cast<int>(index.runs.size()) + 1);
        index.runs.push_back({file, r.name, r.pinned});
        captures->emplace_back(dir.filePath(file), std::move(capture.value()));
    }
    if (captures->empty()) {
        fail(tr("No run of the history can be exported%1").arg(index.skipped.isEmpty() ? QStringLiteral(".") : QStringLiteral(": ") + index.skipped.join(QStringLiteral("; "))));
        return false;
    }
    status_.showMessage(tr("Exporting %1 to %2…").arg(runs_text(static_cast<int>(captures->size())), folder));
    const QByteArray index_bytes = session_index_bytes(index);
    const QStringList skipped = index.skipped;
    io_.start([this, folder, captures, index_bytes, skipped] {
        QString error;
        for (const auto& [path, capture] : *captures) {
            if (const Status saved = save_capture(capture, local_path(path)); !saved) {
                error = QString::fromStdString(saved.error().message);
                break;
            }
        }
        if (error.isEmpty()) save_file(QDir(folder).filePath(QString::fromLatin1(kSessionIndexFile)), index_bytes, &error);
        const int runs = static_cast<int>(captures->size());
        QMetaObject::invokeMethod(
            this,
            [this, folder, runs, skipped, error] {
                if (!error.isEmpty()) return fail(tr("Cannot export the session: %1").arg(error));
                QString message = tr("Exported %1 to %2").arg(runs_text(runs), folder);
                if (!skipped.isEmpty()) message += tr(" (left out: %1)").arg(skipped.join(QStringLiteral("; ")));
                status_.showMessage(message, 15000);
                emit exported(folder, runs, skipped);
            },
            Qt::QueuedConnection);
    });
    return true;
}

bool SessionArchiveController::importSession(const QString& folder) {
    QFile file(QDir(folder).filePath(QString::fromLatin1(kSessionIndexFile)));
    if (!file.open(QIODevice::ReadOnly)) {
        fail(tr("%1 is not an exported session: it has no %2.").arg(folder, QString::fromLatin1(kSessionIndexFile)));
        return false;
    }
    auto index = parse_session_index(file.read(1 << 22));
    if (!index) {
        fail(tr("Cannot import the session %1: %2").arg(folder, QString::fromStdString(index.error().message)));
        return false;
    }
    status_.showMessage(tr("Importing %1 from %2…").arg(runs_text(static_cast<int>(index->runs.size())), folder));
    io_.start([this, folder, runs = index->runs] {
        auto records = std::make_shared<std::vector<RunRecord>>();
        QStringList unreadable;
        for (const SessionIndex::Run& run : runs) {
            const QString path = QDir(folder).filePath(run.file);
            auto capture = open_capture(local_path(path));
            if (!capture) {
                unreadable.push_back(QStringLiteral("%1: %2").arg(run.file, QString::fromStdString(capture.error().message)));
                continue;
            }
            RunRecord record = record_of_capture(capture.value(), QFileInfo(path).absoluteFilePath());
            record.name = run.name;
            record.pinned = run.pinned;
            records->push_back(std::move(record));
        }
        QMetaObject::invokeMethod(
            this,
            [this, folder, records, unreadable] {
                for (RunRecord& r : *records) store_.add_run(std::move(r));
                QString message = tr("Imported %1 from %2").arg(runs_text(static_cast<int>(records->size())), folder);
                if (!unreadable.isEmpty()) {
                    message += tr(" (could not read: %1)").arg(unreadable.join(QStringLiteral("; ")));
                    status_.showError(message, 15000);
                } else {
                    status_.showMessage(message, 15000);
                }
                emit imported(folder, static_cast<int>(records->size()), unreadable);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void SessionArchiveController::askExport() {
    const QString parent = QFileDialog::getExistingDirectory(&parent_, tr("Folder to export the session into"));
    if (parent.isEmpty()) return;
    const QString name = QStringLiteral("octoscope-session-%1").arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
    exportSession(QDir(parent).filePath(name));
}

void SessionArchiveController::askImport() {
    const QString folder = QFileDialog::getExistingDirectory(&parent_, tr("An exported session's folder"));
    if (!folder.isEmpty()) importSession(folder);
}

} // namespace octo::ui
