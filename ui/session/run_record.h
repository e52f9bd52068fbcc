// One run as the workbench keeps it: the engine's RunTrace (assembled from the host's events, or a
// capture's), with what only the workbench knows — its id, whether it is still running, the error
// it ended with, the capture it came from and the user's notes.
#pragma once

#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "engine/capture/capture.h"
#include "engine/generation/run_trace.h"
#include "engine/host/engine_host.h"

namespace octo::ui {

// A run opened from a capture (File → Open Capture) keeps the file it came from and that context
// (for Re-run Capture and reports).
struct CaptureOrigin : CaptureContext {
    QString path; // the .octo file
};

enum class RunState { Running, Finished, Failed, Cancelled };

struct RunRecord {
    uint64_t id = 0;
    RunTrace trace; // what ran and what it computed (a capture's: the stored trace)
    RunState state = RunState::Running;
    QString error;
    std::shared_ptr<const CaptureOrigin> capture; // set when the run was opened from a capture
    std::optional<ModelInfo> model;               // captures: the recorded model (views use it, nothing is loaded)
    std::optional<CaptureEngine> engine;          // the server that ran it (a run on a server, or a capture of one)
    std::map<int64_t, QString> notes;             // token index -> the user's note (teaching replay)

    // Shorthands for what every view reads.
    const std::vector<TraceToken>& tokens() const { return trace.tokens; }
    size_t n_prompt() const { return trace.n_prompt; }
    size_t n_generated() const { return trace.n_generated(); }
    QString prompt_text() const { return QString::fromStdString(trace.prompt_text); }
    QString generated_text() const; // the answer's text as UTF-8 (invalid bytes replaced), without EOG text
};

} // namespace octo::ui
