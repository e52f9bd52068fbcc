// The engine behind a user interface: one worker thread owns the model, tokenizer, backend and
// KV pool; the UI submits commands and takes events, and never waits for the engine.
//
// Commands go through a queue. A run replaces a run that is queued but not started (the user
// kept editing); loading a model drops queued runs. cancel() stops the command in progress (an
// atomic flag the engine checks between layers and tokens, and the loader between tensors).
// Events are staged under a short lock; `notify` (called on the worker thread) tells the UI that
// some are waiting, and the UI takes them all at once (take_events) at its own frame rate.
// Nothing here depends on Qt.
#pragma once

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "engine/backend/precision.h"
#include "engine/capture/capture.h"
#include "engine/claims/claims_report.h"
#include "engine/evaluation/quant_report.h"
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/run_spec.h"
#include "engine/generation/run_trace.h"
#include "engine/host/model_setup.h"
#include "engine/host/remote_runner.h"
#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/logit_lens.h"
#include "engine/kv/kv_pool_stats.h"
#include "engine/router/head_calibration.h"
#include "engine/sampling/sampler_config.h"

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
// The run's trace as it starts: its spec, the precision it takes (spec.precision or the model's
// default), the prompt's text and tokens. The events after it complete that trace
// (engine/host/run_trace_events.h).
struct RunStarted { uint64_t run_id = 0; RunTrace trace; };
// The prompt's measurements (sent once the first token is chosen; every prompt position).
struct PromptMeasured { uint64_t run_id = 0; std::vector<TokenProbe> probes; std::vector<TokenMetrics> metrics; };
// `logprobs_known` false: a server sent no log-probabilities for it (event.logprobs is empty).
struct Token { uint64_t run_id = 0; TokenEvent event; TokenMetrics metrics; bool logprobs_known = true; };
struct RunFinished { uint64_t run_id = 0; RunOutcome outcome; Metric default_metric = Metric::NormShare; };
struct RunFailed { uint64_t run_id = 0; Error error; }; // error.code Cancelled: the user stopped it
// A run on a server, before it starts: the server did not answer and is asked again after wait_s.
struct RunWaiting { uint64_t run_id = 0; std::string reason; int retry = 0; int max_retries = 0; double wait_s = 0.0; };
// A queued run that never started: a newer run replaced it, or a model load dropped it.
struct RunDropped { uint64_t run_id = 0; };
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

using HostEvent = std::variant<host_event::LoadStarted, host_event::LoadProgress, host_event::ModelLoaded, host_event::LoadFailed,
                               host_event::ModelIdentified, host_event::ModelIdentityFailed,
                               host_event::RunStarted, host_event::PromptMeasured, host_event::Token,
                               host_event::RunFinished, host_event::RunFailed, host_event::RunWaiting, host_event::RunDropped,
                               host_event::CalibrationProgress,
                               host_event::CalibrationDone, host_event::CalibrationFailed, host_event::ClaimStarted,
                               host_event::ClaimProgress, host_event::ClaimFinished, host_event::ClaimsFinished,
                               host_event::ClaimsFailed, host_event::LensReady, host_event::LensFailed,
                               host_event::QuantReportProgress, host_event::QuantReportReady, host_event::QuantReportFailed>;

// How a model is opened.
struct LoadChoice {
    // "auto" (CUDA when usable, else the CPU, saying why in ModelInfo::backend_note), "cpu" or
    // "cuda" (a load error naming the reason when CUDA is unusable)
    std::string backend = "auto";
    KvTypeChoice kv_types = {}; // how the KV pool stores keys and values; nullopt: the default
};

class EngineHost {
public:
    // `notify` is called on the worker thread whenever events were staged (keep it cheap).
    explicit EngineHost(std::function<void()> notify);
    ~EngineHost(); // cancels, then joins the worker
    EngineHost(const EngineHost&) = delete;
    EngineHost& operator=(const EngineHost&) = delete;

    // Queues loading `path` (drops queued runs) as `choice` says. On failure the previous model
    // stays loaded.
    void load_model(const std::string& path, const LoadChoice& choice = {});
    // Queues sending the runs to a server from now on (drops queued runs; posts ModelLoaded with
    // the server's model, ModelInfo::engine set). Loading a model ends it.
    void connect(std::shared_ptr<RemoteRunner> runner);
    // Queues a run on the loaded model, replacing a queued, not yet started run unless
    // `replace_queued` is false (the second run of an A/B pair, the samples of a consistency
    // run); returns its id.
    uint64_t run(const RunSpec& settings, bool replace_queued = true);
    // Queues a head-map calibration of the loaded model on these probe files (docs/router.md), or
    // with CalibrationUnit::Experts of a mixture of experts' expert map (docs/moe.md).
    void calibrate(const std::string& train_probes, const std::string& dev_probes,
                   CalibrationUnit unit = CalibrationUnit::Heads);
    // Queues the claims lab on the loaded model: `claims` in order, on the task items and router
    // probes of `resource_dir`, with this seed and items per subsystem (0: each claim's own).
    void run_claims(std::vector<Claim> claims, const std::string& resource_dir, uint64_t seed, int64_t items,
                    const std::string& version);
    // Queues the logit lens of run `run_id` at `position` with the top `k` per layer
    // (engine/generation/logit_lens_run.h): its tokens (prompt first, n_prompt of them) evaluated
    // again as `spec` says (RunTrace::repeat_spec) on the loaded model, which must be the one at
    // `model_path` that made the run. Replaces a lens queued but not started (the selection moved
    // on). Posts LensReady or LensFailed.
    void logit_lens(uint64_t run_id, const std::string& model_path, const RunSpec& spec, std::vector<int32_t> tokens,
                    size_t n_prompt, int64_t position, int64_t k);
    // Queues the quantisation report (engine/evaluation/quant_report.h): `model_b` opened beside
    // the loaded model (A) on its backend — refused before loading when it does not fit in memory
    // beside it — and the prompts run on both as `options` says (its cancel and progress are the
    // host's). B is closed when the report ends. Posts QuantReportProgress, then QuantReportReady
    // or QuantReportFailed.
    void quant_report(const std::string& model_b, std::vector<std::string> prompts, const QuantReportOptions& options);
    // Stops what is running now (a run, load, calibration, claims run or report); queued commands stay queued.
    void cancel();
    // Every staged event, oldest first.
    std::vector<HostEvent> take_events();
    // Whether a command is queued or running.
    bool busy() const;

private:
    struct LoadCommand { std::string path; LoadChoice choice; };
    struct ConnectCommand { std::shared_ptr<RemoteRunner> runner; };
    struct RunCommand { uint64_t id; RunSpec settings; };
    struct CalibrateCommand { std::string train; std::string dev; CalibrationUnit unit = CalibrationUnit::Heads; };
    struct ClaimsCommand { std::vector<Claim> claims; std::string resource_dir; uint64_t seed = 1; int64_t items = 0; std::string version; };
    struct LensCommand {
        uint64_t run_id = 0;
        std::string model_path;
        RunSpec spec;
        std::vector<int32_t> tokens;
        size_t n_prompt = 0;
        int64_t position = 0;
        int64_t k = 0;
    };
    struct QuantReportCommand { std::string model_b; std::vector<std::string> prompts; QuantReportOptions options; };
    using Command = std::variant<LoadCommand, ConnectCommand, RunCommand, CalibrateCommand, ClaimsCommand, LensCommand, QuantReportCommand>;

    void worker();
    void execute(const LoadCommand& c);
    void execute(const ConnectCommand& c);
    void run_remote(const RunCommand& c);
    void execute(const RunCommand& c);
    void execute(const CalibrateCommand& c);
    void execute(const ClaimsCommand& c);
    void execute(const LensCommand& c);
    void execute(const QuantReportCommand& c);
    void post(HostEvent event);
    void drop_queued_runs(); // with mutex_ held: posts RunDropped for each
    // Starts hashing the loaded model on identity_thread_; events name it by `path` (ModelInfo::path).
    void identify(const Model& model, const std::string& path);
    void stop_identifying();

    std::function<void()> notify_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Command> queue_;
    bool stopping_ = false;
    bool running_ = false;
    uint64_t next_run_ = 1;
    std::atomic<bool> cancel_{false};
    std::mutex events_mutex_;
    std::vector<HostEvent> events_;
    std::unique_ptr<OpenedModel> loaded_; // worker thread only
    std::shared_ptr<RemoteRunner> remote_; // worker thread only: set, runs go to this server
    std::thread identity_thread_;         // started and joined by the worker (and the destructor)
    std::atomic<bool> identity_cancel_{false};
    std::thread thread_;
};

} // namespace octo
