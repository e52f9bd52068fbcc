// A second file of the loaded model opened beside it — the quantisation report's model B
// (engine/evaluation/quant_report.h) — the one set-up the workbench's engine thread
// (EngineHost::quant_report) and `octoscope-cli quant-report` share: B runs on A's backend, with
// A's context and KV cache types, so the two differ only in their weights.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/evaluation/quant_report.h"
#include "engine/host/model_setup.h"

namespace octo {

// Opens `path` beside `a` (runs of it take `precision`; `progress` as OpenOptions::progress). An
// out-of-memory estimate says that the file does not fit beside `a`, before anything is loaded.
Result<OpenedModel> open_beside(const OpenedModel& a, const std::string& path, std::optional<Precision> precision = std::nullopt,
                                std::function<bool(double)> progress = nullptr);

// `opened` as the report runs it, on `backend` (B: A's), named by its file.
ReportModel report_model_of(const OpenedModel& opened, Backend& backend);

} // namespace octo
