// Greedy answers from a remote engine for the analysis tools that judge outputs: the claims lab
// (engine/claims/) and the task evaluation (engine/evaluation/). Each prompt is sent as one user
// message, so the server applies its model's chat template (an Octoscope server serving octet
// applies octet's prompt template: the same prompt the local tools build). Requests go out with
// `concurrency` in flight (remote_batch.h). From an Octoscope server the extension brings each
// token's subsystem shares and the subsystem switches; another server gives outputs only.
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "engine/claims/claim_lab.h"
#include "engine/evaluation/task_eval.h"
#include "engine/remote/remote_batch.h"
#include "engine/remote/remote_client.h"

namespace octo::remote {

struct RemoteAnswerer {
    const RemoteClient* client = nullptr;
    std::string model;       // the server's model id
    bool octoscope = false;  // an Octoscope server: ask for the extension (switches, shares, KV)
    BatchOptions batch;      // concurrency, cancel, progress
};

// The request for one greedy answer. `disabled` needs an Octoscope server (the caller checks).
RemoteRequest answer_request(const RemoteAnswerer& answerer, const std::string& prompt,
                             const std::array<bool, kSubsystemCount>& disabled, int64_t max_tokens);

// What the claims lab reads from a server's answer: "ended" is finish_reason "stop" (no stop
// strings are sent, so only an end-of-generation token stops it); shares, token ids and reused
// prompt tokens come from an Octoscope server's extension, times are the client's.
ClaimAnswer claim_answer(const RemoteResult& result);

// Points the lab's answer_source (one at a time: the latency claim) and answer_batch (many in
// flight) at the server. `answerer` must outlive the lab.
void use_remote_answers(ClaimLabOptions& options, const RemoteAnswerer& answerer);

// Exact-match accuracy of greedy answers over task items, per subsystem, as evaluate_tasks
// computes it locally (ended by end-of-generation, text equal to the answer); no router check
// (has_router false). Errors: the first failed request's (Cancelled after a cancel).
Result<TaskEvalResult> evaluate_tasks_remote(const RemoteAnswerer& answerer, std::span<const TaskItem> items,
                                             const std::array<bool, kSubsystemCount>& disabled, int64_t max_tokens);

} // namespace octo::remote
