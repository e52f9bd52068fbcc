// What the workbench autosaves and offers back after a crash (docs/autosave.md): the prompt and
// its run settings (precision included), the subsystem switches and ablation mode, the metric the
// views colour by, and the model that was open. Plain data with its JSON form; the widgets fill and read it.
#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>

#include "engine/host/engine_host.h"

namespace octo::ui {

struct SessionState {
    QString model_path;        // empty: none was open
    RunSpec settings = {}; // prompt, sampling, precision, switches (disabled, ablation_mode)
    Metric metric = Metric::NormShare;
};

QJsonObject session_to_json(const SessionState& state);
// nullopt and `error` set when the object is not a session (a missing or mistyped field).
std::optional<SessionState> session_from_json(const QJsonObject& object, QString* error);

} // namespace octo::ui
