// A capture (`.octo` file, docs/capture-format.md): everything needed to show a run again
// without the model — the model's identity, the settings, the prompt and every token with its
// measurements — and to repeat it when the model is there (capture_replay.h).
//
// The struct is plain data: the CLI fills it from a run, the workbench fills it from the events
// of a run and restores its views from it. Reading and writing: capture_io.h.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/advisor/advisor_rules.h"
#include "engine/backend/precision.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/run_spec.h"
#include "engine/instrumentation/head_map.h"
#include "engine/kv/kv_pool_stats.h"
#include "engine/router/router.h"
#include "engine/sampling/sampler_config.h"

namespace octo {

// The format version this build writes and the newest it reads. Version 2 added
// settings.precision; a version-1 file decodes with Precision::Exact (what its run computed).
inline constexpr uint32_t kCaptureFormatVersion = 2;

// Which model ran: enough to show the views without it and to check that a re-run uses the
// very same file.
struct CaptureModel {
    std::string file_name;    // the file's name, e.g. "octet.gguf"
    std::string path;         // absolute path when captured
    uint64_t size = 0;        // bytes
    std::string sha256;       // lower-case hex of the whole file
    std::string name;         // general.name, or the file name
    std::string architecture; // general.architecture
    int64_t n_layer = 0;
    int64_t n_head = 0;
    int64_t n_embd = 0;
    int64_t n_params = 0;
    int64_t n_ctx = 0;         // the context the run had
    int64_t router_groups = 0; // head groups of the per-layer routers (0: no router)
};

struct CaptureToken {
    int32_t id = -1;
    std::string bytes; // what the token stands for
};

struct Capture {
    CaptureModel model;
    std::string app_version; // Octoscope's version that wrote it
    std::string backend;     // e.g. "cpu (avx2, 2 threads)"
    std::string device;      // e.g. the CPU's model name
    RunSpec settings; // what was run; settings.precision is the precision taken (never nullopt)
    std::optional<HeadMap> head_map;        // the map the run used
    std::string prompt_text;                // what was tokenized (templated in chat mode)
    std::vector<CaptureToken> prompt_tokens; // [n_prompt]
    // The run: generated tokens with log-probs, top-5, ms and probes; prompt probes; every
    // metric; stop reason; timing; the KV pool as the run left it.
    InstrumentedResult run;
    std::vector<KvPoolSample> kv_history;   // the pool's occupancy over time, oldest first
    std::optional<RouteDecision> route;     // the router's decision for the prompt, if routed
    std::vector<Finding> findings;          // the advisor's findings, if advised
    // The user's notes: sequence index (prompt tokens 0..n_prompt-1, then generated tokens) -> text.
    std::map<int64_t, std::string> notes;
};

} // namespace octo
