// A server that runs the workbench's prompts in place of a loaded model (Model → Connect to
// Server…). While one is connected the engine host sends its runs there and posts the same events
// as for a local run, so every view follows the stream; the host itself speaks no network
// (engine/remote/openai_runner.h implements this over HTTP).
#pragma once

#include <atomic>
#include <functional>

#include "engine/capture/capture.h"
#include "engine/claims/claim_lab.h"
#include "engine/core/result.h"
#include "engine/generation/run_trace.h"
#include "engine/host/model_setup.h"

namespace octo {

class RemoteRunner {
public:
    virtual ~RemoteRunner() = default;

    // The server's model as the views need it (ModelInfo::engine set; path is the URL).
    virtual const ModelInfo& info() const = 0;

    struct Callbacks {
        std::function<void(RunTrace)> started;        // once, before any token: the trace as it starts
        std::function<void(const TraceToken&)> token; // each generated token as it arrives
        // Before the run starts: the server did not answer and is asked again (why, which retry).
        std::function<void(const std::string& reason, int retry, int max_retries, double wait_s)> waiting;
    };
    // Runs `spec` on the server; the outcome once the stream ended. Errors: the server's (Io,
    // Format), InvalidArgument for internals a server that is not Octoscope cannot give, Cancelled.
    virtual Result<RunOutcome> run(const RunSpec& spec, const Callbacks& callbacks, const std::atomic<bool>* cancel) = 0;

    // The claims lab on the server (claim_lab.h): sets `model`'s server and name and `options`'
    // answer sources (several requests in flight), valid while this runner lives.
    virtual void prepare_claims(ClaimModel& model, ClaimLabOptions& options) = 0;
};

} // namespace octo
