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
#include "engine/generation/instrumented_generation.h"
#include "engine/generation/run_spec.h"
#include "engine/generation/run_trace.h"
#include "engine/host/host_events.h"
#include "engine/host/load_choice.h"
#include "engine/host/model_setup.h"
#include "engine/host/remote_runner.h"
#include "engine/instrumentation/head_map.h"
#include "engine/instrumentation/logit_lens.h"
#include "engine/kv/kv_pool_stats.h"
#include "engine/router/head_calibration.h"
#include "engine/sampling/sampler_config.h"

namespace octo {

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
    uint64_t run(const RunSpec& spec, bool replace_queued = true);
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
    struct RunCommand { uint64_t id; RunSpec spec; };
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
