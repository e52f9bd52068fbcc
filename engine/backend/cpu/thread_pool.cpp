#include "engine/backend/cpu/thread_pool.h"

#include <sched.h>

namespace octo {

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
        stopping_ = true;
    }
    start_cv_.notify_all();
    for (auto& w : workers_) w.join();
}

void ThreadPool::run_tasks(int thread) {
    for (;;) {
        int64_t index = 0;
        {
            std::lock_guard lock(mutex_);
            if (next_task_ >= n_tasks_) return;
            index = next_task_++;
        }
        (*task_)(index, thread);
    }
}

void ThreadPool::worker_loop(int thread) {
    uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(mutex_);
            start_cv_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) return;
            seen = generation_;
        }
        run_tasks(thread);
        {
            std::lock_guard lock(mutex_);
            --busy_workers_;
        }
        done_cv_.notify_one();
    }
}

void ThreadPool::parallel_for(int64_t n_tasks, const Task& task) {
    if (n_tasks <= 0) return;
    if (workers_.empty() || n_tasks == 1) {
        for (int64_t i = 0; i < n_tasks; ++i) task(i, 0);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        task_ = &task;
        n_tasks_ = n_tasks;
        next_task_ = 0;
        busy_workers_ = static_cast<int>(workers_.size());
        ++generation_;
    }
    start_cv_.notify_all();
    run_tasks(0);
    std::unique_lock lock(mutex_);
    done_cv_.wait(lock, [&] { return busy_workers_ == 0; });
    task_ = nullptr;
}

} // namespace octo
