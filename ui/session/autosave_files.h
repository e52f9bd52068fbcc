// The two files of <user data>/autosave/ (docs/autosave.md), as bytes: session.json, the
// autosaved session in its envelope ({"format": "octoscope-autosave", "version", "saved_at",
// "session"}), and session.lock, the marker of a running workbench ({"pid", "started_at"}).
// Qt Core only (no widgets, no QObject), so the fuzz build reads them as the workbench does
// (tests/fuzz/fuzz_workbench_files.cpp); Autosave and CrashRecovery write and read through here.
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>

#include <filesystem>
#include <optional>

#include "engine/core/result.h"
#include "ui/session/session_state.h"

namespace octo::ui {

struct Autosaved {
    SessionState state;
    QDateTime saved_at;
};

// The autosave file: nullopt when there is none; a Format error naming the file when it is not
// an autosave (unparsable JSON, another format or version, a missing field).
Result<std::optional<Autosaved>> read_autosave(const std::filesystem::path& file);
// The same from the file's bytes; `file` names it in errors.
Result<Autosaved> parse_autosave(const QByteArray& bytes, const std::filesystem::path& file);
// The envelope around a session (session_to_json) saved at `at`, as written to the file.
QByteArray autosave_bytes(const QJsonObject& session, const QDateTime& at);

// The marker: the process and when it started. A torn or foreign marker reads as pid 0 (no
// process) and, without a valid time, the epoch (so any autosave is newer than it).
struct SessionMarker {
    qint64 pid = 0;
    QDateTime started_at;
};
SessionMarker parse_marker(const QByteArray& bytes);
QByteArray marker_bytes(const SessionMarker& marker);

} // namespace octo::ui
