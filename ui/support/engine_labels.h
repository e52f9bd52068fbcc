// Translated labels for the engine's enum names the UI shows (the engine's own names, like
// "zero" or "calibrated", stay the identifiers in exports and JSON), and the sentences for the
// host's events that the status line shows.
#pragma once

#include <QString>

#include "engine/backend/precision.h"
#include "engine/generation/generator.h"
#include "engine/generation/run_trace.h"
#include "engine/host/host_events_fwd.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/instrumentation/head_map.h"


namespace octo::ui {

QString ablation_mode_label(AblationMode mode);       // "zero", "mean", translated
QString head_map_source_label(HeadMapSource source); // "default", "file", "gguf", "calibrated", translated
QString precision_label(Precision precision);         // "Reference (as llama.cpp)", "Exact (float activations)", translated
QString precision_id(Precision precision);            // "reference", "exact": the engine's name, not translated
QString stop_reason_label(StopReason reason);         // "context full", "end of generation", …, translated
// How a run that ended ended: its stop reason, or "measured, nothing generated" for a run asked
// for no token (a conversation's given turn, evaluated as written).
QString run_end_label(const RunTrace& trace);
// A metric as the user reads it: "norm share", "router gates", "DLA (logits)", …, translated; the
// engine's id ("norm_share", metric_name) stays what exports, captures and the CLI use.
QString metric_label(Metric metric);

// What the status line says of host events (RunStore passes them on, the words are made here):
// a server that did not answer ("retry 2 of 4 in 1 s: …"), a calibration that finished (its
// separation against the null and chance, and what runs use from now on).
QString retry_text(const host_event::RunWaiting& e);
QString calibration_text(const host_event::CalibrationDone& e);

} // namespace octo::ui
