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
#include "engine/host/model_info.h"
#include "engine/instrumentation/logit_lens_values.h"

namespace octo::ui {

// A run opened from a capture (File → Open Capture) keeps the file it came from and that context
// (for Re-run Capture and reports).
struct CaptureOrigin : CaptureContext {
    QString path; // the .octo file
};

enum class RunState { Running, Finished, Failed, Cancelled };

// Runs submitted together as a set (RunBatch): an A/B pair, or the samples of a consistency run;
// or the turns of a conversation (ConversationController). The history labels them ("A of pair
// 3", "sample 2 of 5", "turn 4 of conversation 2").
struct RunGroup {
    enum class Kind { Pair, Samples, Conversation };
    Kind kind = Kind::Pair;
    uint64_t number = 0; // the pair's or the consistency run's number, counted from 1 per kind
    int index = 0;       // a pair: 0 = A, 1 = B; samples: the sample's index; a conversation: the turn's message index
    int size = 0;        // runs in the set
    QString change;      // a pair: what B changes
};

struct RunRecord {
    uint64_t id = 0;
    RunTrace trace; // what ran and what it computed (a capture's: the stored trace)
    RunState state = RunState::Running;
    QString error;
    std::shared_ptr<const CaptureOrigin> capture; // set when the run was opened from a capture
    // The model as the run was made with it, which its views describe: the loaded model when the
    // run started (its head map then, not one calibrated later), or a capture's recorded model.
    std::optional<ModelInfo> model;
    std::optional<CaptureEngine> engine;          // the server that ran it (a run on a server, or a capture of one)
    std::map<int64_t, QString> notes;             // token index -> the user's note (teaching replay)
    std::optional<RunGroup> group;                // submitted as part of an A/B pair or a consistency run
    std::string model_path;                       // a run of the engine: the loaded model's path when it started
    std::map<int64_t, NamedLens> lenses;          // position -> its logit lens, computed on demand (LensController)
    QString name;                                 // the user's name for the run (Run history → Rename…); empty: none
    bool pinned = false;                          // kept when the history is full (RunStore::kMaxRuns)

    // Shorthands for what every view reads.
    const std::vector<TraceToken>& tokens() const { return trace.tokens; }
    size_t n_prompt() const { return trace.n_prompt; }
    size_t n_generated() const { return trace.n_generated(); }
    QString prompt_text() const { return QString::fromStdString(trace.prompt_text); }
    QString generated_text() const; // the answer's text as UTF-8 (invalid bytes replaced), without EOG text
};

} // namespace octo::ui
