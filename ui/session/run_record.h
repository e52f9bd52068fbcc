// One run as the workbench keeps it: what was asked, the prompt and generated tokens with their
// measurements, timing and the KV pool — assembled from the engine host's events.
#pragma once

#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "engine/capture/capture.h"
#include "engine/host/engine_host.h"

namespace octo::ui {

struct RunToken {
    int32_t id = -1;
    std::string bytes;
    bool generated = false;
    std::optional<TokenLogprobs> logprobs = {}; // generated tokens
    double ms = 0.0;                             // generated tokens: since the previous token
    TokenProbe probe = {};                       // of its position (prompt) / the choosing position (generated)
    TokenMetrics metrics = {};
    std::string visible_text = {};               // generated tokens: the text it released (generator.h)
};

// What a run opened from a capture (File → Open Capture) keeps beside its tokens: the recorded
// model and settings (for Re-run Capture and reports) and the router's and advisor's results.
struct CaptureOrigin {
    QString path; // the .octo file
    CaptureModel model;
    std::string app_version;
    std::string backend;
    std::string device;
    RunSpec settings;
    std::optional<HeadMap> head_map;
    std::optional<RouteDecision> route;
    std::vector<Finding> findings;
};

enum class RunState { Running, Finished, Failed, Cancelled };

struct RunRecord {
    uint64_t id = 0;
    RunSpec settings;       // as asked (settings.precision nullopt: the model's default)
    Precision precision = Precision::Exact; // the precision the run took (a capture's: its recorded one)
    QString prompt_text;        // what was tokenized (templated)
    std::vector<RunToken> tokens; // prompt tokens first, then generated ones
    size_t n_prompt = 0;
    RunState state = RunState::Running;
    QString error;
    std::optional<host_event::RunFinished> finished;
    Metric default_metric = Metric::NormShare;
    std::shared_ptr<const CaptureOrigin> capture; // set when the run was opened from a capture
    std::optional<ModelInfo> model;               // captures: the recorded model (views use it, nothing is loaded)
    std::map<int64_t, QString> notes;             // token index -> the user's note (teaching replay)

    size_t n_generated() const { return tokens.size() - n_prompt; }
    QString generated_text() const; // the generated tokens' bytes as UTF-8 (invalid bytes replaced)
};

} // namespace octo::ui
