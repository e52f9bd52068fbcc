// A capture (`.octo` file, docs/capture-format.md): everything needed to show a run again
// without the model — the model's identity, the settings, the prompt and every token with its
// measurements — and to repeat it when the model is there (capture_replay.h).
//
// The struct is plain data around a RunTrace (engine/generation/run_trace.h): the CLI makes the
// trace from its run, the workbench from the engine host's events, and a run opened from a
// capture shows the stored trace again. Reading and writing: capture_io.h.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/advisor/advisor_rules.h"
#include "engine/backend/precision.h"
#include "engine/capture/capture_engine.h"
#include "engine/generation/run_spec.h"
#include "engine/generation/run_trace.h"
#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/logit_lens_values.h"
#include "engine/kv/kv_pool_stats.h"
#include "engine/model/model_description.h"
#include "engine/router/route_decision.h"
#include "engine/sampling/sampler_config.h"

namespace octo {

// The format version this build writes and the newest it reads. Version 2 added
// settings.precision; a version-1 file decodes with Precision::Exact (what its run computed).
// Version 3 added `engine` (a run on a remote server); older files decode as local runs.
inline constexpr uint32_t kCaptureFormatVersion = 3;

// What a capture holds beside the run's trace: the model, the program and machine that ran it,
// the head map, and the router's and advisor's results for the prompt.
struct CaptureContext {
    ModelDescription model;                  // a remote run: what the server told of its model (n_layer 0: nothing)
    std::optional<CaptureEngine> engine; // set: the run was on a server, not in this program
    std::string app_version; // Octoscope's version that wrote it
    std::string backend;     // e.g. "cpu (avx2, 2 threads)"
    std::string device;      // e.g. the CPU's model name
    std::optional<HeadMap> head_map;     // the map the run used
    std::optional<RouteDecision> route;  // the router's decision for the prompt, if routed
    std::vector<Finding> findings;       // the advisor's findings, if advised
};

struct Capture : CaptureContext {
    // The run: its spec and the precision it took, the prompt and every token with its probe and
    // metrics, the stop reason, timing and the KV pool. A capture is of a finished run: its
    // outcome is set. The file stores spec.precision as the precision taken (a replay repeats
    // it), so a decoded trace has spec.precision == precision.
    RunTrace trace;
    // The user's notes: sequence index (prompt tokens 0..n_prompt-1, then generated tokens) -> text.
    std::map<int64_t, std::string> notes;
    // The logit lenses computed for the run (the workbench's Logit lens view): position -> lens.
    std::map<int64_t, NamedLens> lenses;
};

} // namespace octo
