// What the workbench autosaves and offers back after a crash (docs/autosave.md): the run as the
// panels describe it (a RunSpec: prompt, sampling, precision, switches), the metric the views
// colour by, the model that was open, and the conversation shown (its messages). Plain data with its JSON form, the run's written by the
// serialiser captures use (engine/capture/run_spec_json.h); the widgets fill and read it.
#pragma once

#include <QJsonObject>
#include <QString>

#include <optional>
#include <vector>

#include "engine/generation/run_spec.h"
#include "engine/generation/token_metrics.h"

namespace octo::ui {

struct SessionState {
    QString model_path;        // empty: none was open
    RunSpec spec = {};         // prompt, sampling, precision, switches (disabled, ablation_mode)
    Metric metric = Metric::NormShare;
    std::vector<ChatMessage> conversation; // the Conversation panel's shown conversation (none: empty)
};

// One object: the RunSpec's keys (run_spec_json, byte strings as text), "model", "metric" and
// "conversation" (OpenAI's messages; absent in autosaves made before conversations).
QJsonObject session_to_json(const SessionState& state);
// nullopt and `error` set when the object is not a session (a missing or mistyped field, an
// unknown name). Fields newer than the first autosave may be absent; version 1's "ablation" is
// read as "ablation_mode".
std::optional<SessionState> session_from_json(const QJsonObject& object, QString* error);

} // namespace octo::ui
