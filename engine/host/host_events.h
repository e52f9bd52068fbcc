// Everything the engine thread posts (EngineHost, engine/host/engine_host.h): loading, the run's
// events (engine/host/run_events.h), calibration, the claims lab, the logit lens and the
// quantisation report, complete (HostEvent, the one type a UI takes them as, is declared in
// host_events_fwd.h). A file that reads only
// runs includes run_events.h; one that names a run's spec, run_spec.h; how a model is opened,
// load_choice.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/claims/claims_report.h"
#include "engine/core/result.h"
#include "engine/evaluation/quant_report.h"
#include "engine/host/host_events_fwd.h"
#include "engine/host/model_info.h"
#include "engine/host/run_events.h"
#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/expert_map.h"
#include "engine/instrumentation/logit_lens_values.h"

namespace octo {

namespace host_event {
// Before the weights are paged in: what the model will need (weights, KV pool, activations).
struct LoadStarted { std::string path; uint64_t weights_bytes = 0; uint64_t kv_bytes = 0; uint64_t total_bytes = 0; };
struct LoadProgress { double fraction = 0.0; };
struct ModelLoaded { ModelInfo info; };
struct LoadFailed { std::string path; Error error; }; // error.code Cancelled: the user stopped it
// The loaded model's identity for captures (size, SHA-256, shape), after ModelLoaded: the hash is
// computed on a thread of the host's, so runs need not wait for it (the user-data index keeps it,
// so a file is hashed once). A newer load cancels it; `path` says which model it belongs to.
struct ModelIdentified { std::string path; ModelDescription identity; };
struct ModelIdentityFailed { std::string path; Error error; };
struct CalibrationProgress { size_t done = 0; size_t total = 0; };
// A calibrated head map was measured and stored; `active` is the map runs now use (a map in the
// GGUF metadata keeps precedence over a calibrated one).
// For an expert calibration (docs/moe.md) `active` stays the head map and `experts` holds the
// expert map runs now use.
struct CalibrationDone {
    double separation = 0.0;
    double null_separation = 0.0;
    std::string map_path;
    HeadMap active;
    std::optional<ExpertMap> experts = std::nullopt;
};
struct CalibrationFailed { Error error; };
// The claims lab (engine/claims/claim_lab.h): each claim as it starts, its progress (items
// done), its result; then the whole run. A cancelled run still ends with ClaimsFinished, whose
// report holds the claims that finished (complete = false).
struct ClaimStarted { size_t index = 0; size_t total = 0; std::string id; };
struct ClaimProgress { size_t index = 0; int64_t done = 0; int64_t total = 0; };
struct ClaimFinished { size_t index = 0; ClaimResult result; };
struct ClaimsFinished { ClaimsReport report; };
struct ClaimsFailed { Error error; };
// The logit lens asked of a run (EngineHost::logit_lens): computed, or why not.
struct LensReady { uint64_t run_id = 0; NamedLens lens; };
struct LensFailed { uint64_t run_id = 0; int64_t position = 0; Error error; };
// The quantisation report (EngineHost::quant_report): model B's loading (fraction 0..1, done 0),
// then prompts done of total; the report, or why not (error.code Cancelled: the user stopped it).
struct QuantReportProgress { double load_fraction = 0.0; size_t done = 0; size_t total = 0; };
struct QuantReportReady { QuantReport report; };
struct QuantReportFailed { Error error; };
} // namespace host_event

} // namespace octo
