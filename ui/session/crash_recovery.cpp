#include "ui/session/crash_recovery.h"

#include <QFile>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>

#include <cerrno>

#include <signal.h>
#include <unistd.h>

#include "engine/core/atomic_file.h"
#include "engine/core/log.h"
#include "engine/model/user_data.h"

namespace octo::ui {

namespace {

CrashRecovery::Answer g_test_answer = CrashRecovery::Answer::Ask;

bool process_running(qint64 pid) {
    if (pid <= 0) return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

QString qpath(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

// The same prompt, settings and switches: the model reopens by itself (the settings remember the
// last one) and the metric follows the model, so neither alone is worth a question.
bool same_work(const SessionState& a, const SessionState& b) { return a.spec == b.spec; }

} // namespace

void CrashRecovery::setAnswerForTests(Answer answer) { g_test_answer = answer; }

CrashRecovery::CrashRecovery(QWidget* window, Autosave::Snapshot snapshot, Restore restore, QObject* parent)
    : QObject(parent), window_(window), snapshot_(snapshot), restore_(std::move(restore)), autosave_(std::move(snapshot)) {
    connect(&autosave_, &Autosave::failed, this, [this](const QString& m) { emit message(tr("Autosave failed: %1").arg(m)); });
}

std::filesystem::path CrashRecovery::markerPath() { return user_data_dir() / "autosave" / "session.lock"; }

PreviousSession CrashRecovery::previousSession() {
    QFile file(qpath(markerPath()));
    if (!file.open(QIODevice::ReadOnly)) return {};
    const SessionMarker marker = parse_marker(file.readAll());
    PreviousSession p;
    p.started_at = marker.started_at;
    // Another workbench that is still running has not crashed; this process's own marker (a
    // window torn down without the clean exit) has.
    p.crashed = marker.pid == ::getpid() || !process_running(marker.pid);
    return p;
}

void CrashRecovery::start(std::chrono::milliseconds interval) {
    const PreviousSession previous = previousSession();
    const QByteArray bytes = marker_bytes({static_cast<qint64>(::getpid()), QDateTime::currentDateTimeUtc()});
    if (const Status s = write_file_atomic(markerPath(), std::string_view(bytes.constData(), static_cast<size_t>(bytes.size()))); !s) {
        log_message(LogLevel::Warning, "crash detection is off this session: " + s.error().message);
    }
    running_ = true;
    if (previous.crashed) offer(previous);
    autosave_.start(interval);
}

void CrashRecovery::offer(const PreviousSession& previous) {
    const std::filesystem::path file = Autosave::filePath();
    auto autosaved = read_autosave(file);
    if (!autosaved) {
        const QString aside = qpath(file) + QStringLiteral(".corrupt");
        QFile::remove(aside);
        QFile::rename(qpath(file), aside);
        log_message(LogLevel::Error, autosaved.error().message + "; kept as " + aside.toStdString());
        emit message(tr("Octoscope did not exit cleanly, and its autosave cannot be read (%1). It was kept as %2.")
                         .arg(QString::fromStdString(autosaved.error().message), aside));
        return;
    }
    if (!autosaved->has_value() || (*autosaved)->saved_at < previous.started_at) {
        log_message(LogLevel::Info, "the last session did not exit cleanly; nothing was autosaved during it");
        return;
    }
    const Autosaved& a = **autosaved;
    if (same_work(a.state, snapshot_())) {
        log_message(LogLevel::Info, "the last session did not exit cleanly; its autosave holds nothing the workbench does not already show");
        return;
    }
    if (ask(a.saved_at)) {
        restore_(a.state);
        log_message(LogLevel::Info, "restored the session autosaved at " + a.saved_at.toString(Qt::ISODateWithMs).toStdString());
        emit message(tr("Restored the prompt and settings autosaved at %1").arg(QLocale().toString(a.saved_at.toLocalTime(), QLocale::ShortFormat)));
    } else {
        log_message(LogLevel::Info, "discarded the session autosaved at " + a.saved_at.toString(Qt::ISODateWithMs).toStdString());
    }
}

bool CrashRecovery::ask(const QDateTime& saved_at) {
    if (g_test_answer != Answer::Ask) return g_test_answer == Answer::Restore;
    QMessageBox box(QMessageBox::Question, tr("Restore the last session?"),
                    tr("Octoscope did not exit cleanly. Restore the prompt and settings autosaved at %1?")
                        .arg(QLocale().toString(saved_at.toLocalTime(), QLocale::LongFormat)),
                    QMessageBox::NoButton, window_);
    QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    box.addButton(tr("Discard"), QMessageBox::RejectRole);
    box.setDefaultButton(restore);
    box.exec();
    return box.clickedButton() == restore;
}

void CrashRecovery::finish() {
    if (!running_) return;
    running_ = false;
    autosave_.stop();
    autosave_.saveNow();
    QFile::remove(qpath(markerPath()));
}

} // namespace octo::ui
