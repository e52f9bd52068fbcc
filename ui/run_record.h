// One run as the workbench keeps it: what was asked, the prompt and generated tokens with their
// measurements, timing and the KV pool — assembled from the engine host's events.
#pragma once

#include <QString>

#include <optional>
#include <vector>

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
};

enum class RunState { Running, Finished, Failed, Cancelled };

struct RunRecord {
    uint64_t id = 0;
    RunSettings settings;
    QString prompt_text;        // what was tokenized (templated)
    std::vector<RunToken> tokens; // prompt tokens first, then generated ones
    size_t n_prompt = 0;
    RunState state = RunState::Running;
    QString error;
    std::optional<host_event::RunFinished> finished;
    Metric default_metric = Metric::NormShare;

    size_t n_generated() const { return tokens.size() - n_prompt; }
    QString generated_text() const; // the generated tokens' bytes as UTF-8 (invalid bytes replaced)
};

} // namespace octo::ui
