// Many completions against a remote engine with `concurrency` requests in flight (an evaluation
// set, a claims run, a consistency run): each request is retried as RemoteClient says, results come
// back in request order, progress is reported as requests finish, and a cancel stops sending new
// requests and closes the open ones.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/core/result.h"
#include "engine/remote/remote_client.h"

namespace octo::remote {

struct BatchOptions {
    int concurrency = 4;                        // requests in flight at once (1..256)
    const std::atomic<bool>* cancel = nullptr;
    // Called from the worker threads (serialised) as each request finishes: (finished, total).
    std::function<void(size_t done, size_t total)> progress;
};

// One result per request, in order: the answer, or that request's error (a cancel leaves the
// unfinished ones Cancelled). InvalidArgument for a concurrency outside 1..256.
Result<std::vector<Result<RemoteResult>>> complete_all(const RemoteClient& client, const std::vector<RemoteRequest>& requests,
                                                       const BatchOptions& options = {});

} // namespace octo::remote
