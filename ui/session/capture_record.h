// A workbench run and a capture (engine/capture/capture.h), both ways: Save Capture turns the
// shown run into a capture, Open Capture turns a capture back into a run every view can show
// without the model.
#pragma once

#include <optional>
#include <vector>

#include "engine/capture/capture.h"
#include "ui/session/run_record.h"

namespace octo::ui {

// The run's capture: tokens, probes, metrics, timing, KV pool and history, notes.
Capture capture_of_record(const RunRecord& run, const CaptureContext& context);

// The run a capture shows (finished, with the recorded model as its model and `path` as origin).
RunRecord record_of_capture(const Capture& capture, const QString& path);

// What a capture's settings ask that the workbench's engine cannot repeat (another context size
// than `model_n_ctx`: the loaded model's pool is what it is), in words; empty: nothing.
QString unrepeatable_settings(const RunSpec& spec, int64_t model_n_ctx);

} // namespace octo::ui
