// A fixed set of worker threads that run the tasks of one parallel_for at a time. The calling
// thread works too, so a pool of n threads starts n - 1 workers. Between jobs, workers (and the
// caller waiting for them) poll and yield for up to ~50 µs — decoding issues many small jobs
// back to back — and then sleep on a condition variable. Tasks are claimed in any order, a run of
// consecutive indices at a time when there are many (per-token jobs: one shared counter bumped per
// task cost ~10 % of a prompt on 2 threads); callers make each task write its own outputs so that
// results never depend on which thread ran it.
// One caller at a time (the engine thread that owns the pool).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace octo {

class ThreadPool {
public:
    // n_threads <= 0: one per hardware thread.
    explicit ThreadPool(int n_threads = 0);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int n_threads() const { return n_threads_; }

    // Runs task(index, thread) for index in [0, n_tasks); thread in [0, n_threads()) names the
    // thread running it (for per-thread scratch). Returns when all tasks are done.
    using Task = std::function<void(int64_t index, int thread)>;
    void parallel_for(int64_t n_tasks, const Task& task);

private:
    void worker_loop(int thread);
    void run_tasks(int thread);

    int n_threads_ = 1;
    std::vector<std::thread> workers_;
    std::mutex mutex_;                  // guards the sleeping side of the two waits below
    std::condition_variable start_cv_;  // workers sleeping until generation_ changes
    std::condition_variable done_cv_;   // the caller sleeping until busy_workers_ is 0
    // Each counter that threads write has its own cache line, apart from the fields they only read.
    alignas(64) std::atomic<uint64_t> generation_{0}; // bumped (under mutex_) for every parallel_for
    std::atomic<bool> stopping_{false};
    alignas(64) const Task* task_ = nullptr; // these three published by the release bump of generation_
    int64_t n_tasks_ = 0;
    int64_t grain_ = 1;                      // indices claimed at a time
    alignas(64) std::atomic<int64_t> next_task_{0}; // next unclaimed index
    alignas(64) std::atomic<int> busy_workers_{0};  // workers still inside the current generation
};

// Hardware threads available to this process (at least 1).
int hardware_threads();

} // namespace octo
