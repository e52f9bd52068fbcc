#include "engine/backend/cpu/thread_pool.h"

#include <sched.h>

#include <algorithm>
#include <chrono>

namespace octo {

namespace {

constexpr int64_t kClaimsPerThread = 16; // claims of a run of tasks per thread and job, at least

// Waits for done() without sleeping for up to about kWaitTime: a few pause instructions, then
// yields so that an oversubscribed machine can run the thread being waited for. Returns done().
template <class Done>
bool spin_until(Done done) {
    constexpr auto kWaitTime = std::chrono::microseconds(50);
    for (int i = 0; i < 64; ++i) {
        if (done()) return true;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    const auto deadline = std::chrono::steady_clock::now() + kWaitTime;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::yield();
    }
    return true;
}

} // namespace

int hardware_threads() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        const int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
    const unsigned n = std::thread::hardware_concurrency();
    return n > 0 ? static_cast<int>(n) : 1;
}

ThreadPool::ThreadPool(int n_threads) : n_threads_(n_threads > 0 ? n_threads : hardware_threads()) {
    for (int t = 1; t < n_threads_; ++t) workers_.emplace_back([this, t] { worker_loop(t); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_.store(true);
    }
    start_cv_.notify_all();
    for (auto& w : workers_) w.join();
}

void ThreadPool::run_tasks(int thread) {
    for (;;) {
        const int64_t first = next_task_.fetch_add(grain_, std::memory_order_relaxed);
        if (first >= n_tasks_) return;
        const int64_t last = std::min(n_tasks_, first + grain_);
        for (int64_t index = first; index < last; ++index) (*task_)(index, thread);
    }
}

void ThreadPool::worker_loop(int thread) {
    uint64_t seen = 0;
    for (;;) {
        auto started = [&] { return stopping_.load() || generation_.load(std::memory_order_acquire) != seen; };
        if (!spin_until(started)) {
            std::unique_lock lock(mutex_);
            start_cv_.wait(lock, started);
        }
        if (stopping_.load()) return;
        seen = generation_.load(std::memory_order_acquire);
        run_tasks(thread);
        if (busy_workers_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            std::lock_guard lock(mutex_);
            done_cv_.notify_one();
        }
    }
}

void ThreadPool::parallel_for(int64_t n_tasks, const Task& task) {
    if (n_tasks <= 0) return;
    if (workers_.empty() || n_tasks == 1) {
        for (int64_t i = 0; i < n_tasks; ++i) task(i, 0);
        return;
    }
    task_ = &task;
    n_tasks_ = n_tasks;
    grain_ = std::max<int64_t>(1, n_tasks / (kClaimsPerThread * n_threads_));
    next_task_.store(0, std::memory_order_relaxed);
    busy_workers_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
    {
        std::lock_guard lock(mutex_);
        generation_.fetch_add(1, std::memory_order_release);
    }
    start_cv_.notify_all();
    run_tasks(0);
    auto finished = [&] { return busy_workers_.load(std::memory_order_acquire) == 0; };
    if (!spin_until(finished)) {
        std::unique_lock lock(mutex_);
        done_cv_.wait(lock, finished);
    }
    task_ = nullptr;
}

} // namespace octo
