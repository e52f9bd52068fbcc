// The host's events declared, not defined (engine/host/host_events.h defines them), and HostEvent,
// the one type a UI takes them as: what a header that only passes events on needs (the
// workbench's store, which views include), so that they do not compile the claims lab, the
// calibration and the reports.
#pragma once

#include <variant>

namespace octo::host_event {
struct LoadStarted;
struct LoadProgress;
struct ModelLoaded;
struct LoadFailed;
struct ModelIdentified;
struct ModelIdentityFailed;
struct RunStarted;
struct PromptMeasured;
struct Token;
struct RunFinished;
struct RunFailed;
struct RunWaiting;
struct RunDropped;
struct CalibrationProgress;
struct CalibrationDone;
struct CalibrationFailed;
struct ClaimStarted;
struct ClaimProgress;
struct ClaimFinished;
struct ClaimsFinished;
struct ClaimsFailed;
struct LensReady;
struct LensFailed;
struct QuantReportProgress;
struct QuantReportReady;
struct QuantReportFailed;
} // namespace octo::host_event

namespace octo {

using HostEvent = std::variant<host_event::LoadStarted, host_event::LoadProgress, host_event::ModelLoaded, host_event::LoadFailed,
                               host_event::ModelIdentified, host_event::ModelIdentityFailed,
                               host_event::RunStarted, host_event::PromptMeasured, host_event::Token,
                               host_event::RunFinished, host_event::RunFailed, host_event::RunWaiting, host_event::RunDropped,
                               host_event::CalibrationProgress,
                               host_event::CalibrationDone, host_event::CalibrationFailed, host_event::ClaimStarted,
                               host_event::ClaimProgress, host_event::ClaimFinished, host_event::ClaimsFinished,
                               host_event::ClaimsFailed, host_event::LensReady, host_event::LensFailed,
                               host_event::QuantReportProgress, host_event::QuantReportReady, host_event::QuantReportFailed>;

} // namespace octo
