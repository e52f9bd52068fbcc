#include "engine/remote/remote_batch.h"

#include <algorithm>
#include <mutex>
#include <thread>

namespace octo::remote {

Result<std::vector<Result<RemoteResult>>> complete_all(const RemoteClient& client, const std::vector<RemoteRequest>& requests,
                                                       const BatchOptions& options) {
    if (options.concurrency < 1 || options.concurrency > 256) {
        return make_error(ErrorCode::InvalidArgument, "the concurrency must be 1 to 256, not " + std::to_string(options.concurrency));
    }
    std::vector<Result<RemoteResult>> results(requests.size(), Result<RemoteResult>(make_error(ErrorCode::Cancelled, "cancelled")));
    std::atomic<size_t> next{0};
    std::mutex progress_mutex;
    size_t done = 0;
    const auto worker = [&] {
        while (true) {
            if (options.cancel && options.cancel->load()) return;
            const size_t i = next.fetch_add(1);
            if (i >= requests.size()) return;
            results[i] = client.complete(requests[i], {}, options.cancel);
            std::lock_guard lock(progress_mutex);
            done += 1;
            if (options.progress) options.progress(done, requests.size());
        }
    };
    const size_t threads = std::min(static_cast<size_t>(options.concurrency), requests.size());
    std::vector<std::thread> pool;
    for (size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (std::thread& t : pool) t.join();
    return results;
}

} // namespace octo::remote
