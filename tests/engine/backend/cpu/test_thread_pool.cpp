// ThreadPool::parallel_for runs every index exactly once, whatever the job's size and however
// many indices a thread claims at a time, and names a valid thread for each.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <vector>

#include "engine/backend/cpu/thread_pool.h"

namespace octo {
namespace {

TEST(ThreadPool, EveryIndexRunsOnceWithAValidThread) {
    for (int threads : {1, 2, 3, 5}) {
        ThreadPool pool(threads);
        ASSERT_EQ(pool.n_threads(), threads);
        // sizes below, at and far above the point where runs of indices are claimed together
        for (int64_t n : {int64_t{1}, int64_t{2}, int64_t{7}, int64_t{31}, int64_t{32}, int64_t{33}, int64_t{100},
                          int64_t{1000}, int64_t{4099}}) {
            const auto runs = std::make_unique<std::atomic<int>[]>(static_cast<size_t>(n));
            std::atomic<int> bad_thread{0};
            pool.parallel_for(n, [&](int64_t i, int thread) {
                runs[static_cast<size_t>(i)].fetch_add(1);
                if (thread < 0 || thread >= threads) bad_thread.fetch_add(1);
            });
            for (int64_t i = 0; i < n; ++i) {
                ASSERT_EQ(runs[static_cast<size_t>(i)].load(), 1) << "index " << i << " of " << n << ", " << threads << " threads";
            }
            EXPECT_EQ(bad_thread.load(), 0);
        }
    }
}

TEST(ThreadPool, JobsBackToBackSeeTheirOwnTask) {
    ThreadPool pool(2);
    std::vector<int64_t> sums(50, 0);
    for (int job = 0; job < 50; ++job) {
        std::vector<int64_t> out(static_cast<size_t>(200 + job), 0);
        pool.parallel_for(static_cast<int64_t>(out.size()), [&](int64_t i, int) { out[static_cast<size_t>(i)] = i + job; });
        for (int64_t v : out) sums[static_cast<size_t>(job)] += v;
    }
    for (int job = 0; job < 50; ++job) {
        const int64_t n = 200 + job;
        EXPECT_EQ(sums[static_cast<size_t>(job)], n * (n - 1) / 2 + n * job) << "job " << job;
    }
}

TEST(ThreadPool, NothingRunsForAnEmptyJob) {
    ThreadPool pool(2);
    std::atomic<int> runs{0};
    pool.parallel_for(0, [&](int64_t, int) { runs.fetch_add(1); });
    pool.parallel_for(-3, [&](int64_t, int) { runs.fetch_add(1); });
    EXPECT_EQ(runs.load(), 0);
}

} // namespace
} // namespace octo
