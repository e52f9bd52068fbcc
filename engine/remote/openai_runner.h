// The engine host's runs on an OpenAI-compatible server (Model → Connect to Server…): each run is
// streamed with RemoteClient, its tokens handed on as they arrive (remote_trace.h turns them into
// the trace's tokens), so the workbench follows a server's run as it follows a local one. From an
// Octoscope server the prompt's tokens, every metric and the head norms come with it; from another
// server the text, log-probabilities and timing.
#pragma once

#include <memory>

#include "engine/host/remote_runner.h"
#include "engine/remote/remote_answers.h"
#include "engine/remote/remote_client.h"

namespace octo::remote {

// What the views need of a server's model: an Octoscope server describes its shape, another server
// only names the model (path: the URL without credentials; engine set).
ModelInfo remote_model_info(const RemoteClient& client, const RemoteModel& model);

// A capture's context for a run on that server (capture format `engine`, docs/capture-format.md):
// the model as the server described it, its URL, model id and the fingerprint that answered.
CaptureContext remote_capture_context(const ModelInfo& server, const std::string& fingerprint, const std::string& app_version);

class OpenAiRunner : public RemoteRunner {
public:
    // `model`: the one of the server's models (RemoteClient::models) runs go to.
    OpenAiRunner(RemoteClient client, RemoteModel model);

    const ModelInfo& info() const override { return info_; }
    Result<RunOutcome> run(const RunSpec& spec, const Callbacks& callbacks, const std::atomic<bool>* cancel) override;
    void prepare_claims(ClaimModel& model, ClaimLabOptions& options) override;

    // Requests in flight for a claims run (default 8; `claims --concurrency`).
    void set_claims_concurrency(int concurrency) { claims_concurrency_ = concurrency; }

private:
    RemoteClient client_;
    RemoteModel model_;
    ModelInfo info_;
    RemoteAnswerer answerer_; // the claims lab's, pointing at client_
    int claims_concurrency_ = 8;
};

} // namespace octo::remote
