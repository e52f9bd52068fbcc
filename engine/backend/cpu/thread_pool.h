// A fixed set of worker threads that run the tasks of one parallel_for at a time. The calling
// thread works too, so a pool of n threads starts n - 1 workers. Tasks are claimed in any
// order; callers make each task write its own outputs so results never depend on who ran it.
#pragma once

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
    std::mutex mutex_;
    std::condition_variable start_cv_;
    std::condition_variable done_cv_;
    uint64_t generation_ = 0;  // bumped for every parallel_for
    bool stopping_ = false;
    const Task* task_ = nullptr;
    int64_t n_tasks_ = 0;
    int64_t next_task_ = 0;    // next unclaimed index (under mutex_)
    int busy_workers_ = 0;     // workers still inside the current generation
};

// Hardware threads available to this process (at least 1).
int hardware_threads();

} // namespace octo
