// An exported session (File → Export Session…, docs/workbench.md "Sessions"): a folder with one
// capture per run of the history (run-001.octo, …, engine/capture/capture.h) and index.json,
// {"format": "octoscope-session", "version": 1, "exported_at", "app_version", "runs": [{"file",
// "name", "pinned"}], "skipped": ["#3: why", …]} — the runs oldest first, with what the history
// adds to a capture (the run's name and pin), and the runs that could not be exported. Import
// Session reads it back. Qt Core only, so the fuzz build reads it as the workbench does
// (tests/fuzz/fuzz_workbench_files.cpp).
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <vector>

#include "engine/core/result.h"

namespace octo::ui {

inline constexpr char kSessionIndexFile[] = "index.json";

struct SessionIndex {
    struct Run {
        QString file; // a plain file name inside the folder, ending .octo
        QString name; // RunRecord::name
        bool pinned = false;
        bool operator==(const Run&) const = default;
    };
    QDateTime exported_at;
    QString app_version;
    std::vector<Run> runs; // oldest first
    QStringList skipped;   // "#3: the run is still going", …
};

// The index as written. parse_session_index(session_index_bytes(i)) gives `i` back.
QByteArray session_index_bytes(const SessionIndex& index);
// A Format error when the bytes are not an index of this version, or a run's file is not a plain
// `.octo` name inside the folder (no separators, no "..", no duplicates): an index never makes
// Import read outside its folder.
Result<SessionIndex> parse_session_index(const QByteArray& bytes);
// The capture's file name of the n-th run exported (from 1): run-001.octo, …
QString session_run_file(int n);

} // namespace octo::ui
