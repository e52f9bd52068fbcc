// Ctrl+C as a cancel: while an InterruptGuard lives, SIGINT sets a flag that long commands (claims,
// eval) hand to the engine as their cancel flag, finish cleanly and exit 130; the previous handler
// comes back when it ends. One at a time (the flag is the process's).
#pragma once

#include <atomic>
#include <csignal>

namespace octo::cli {

class InterruptGuard {
public:
    InterruptGuard();
    ~InterruptGuard();
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    const std::atomic<bool>* flag() const;
    bool interrupted() const { return flag()->load(); }

private:
    void (*previous_)(int);
};

inline constexpr int kExitInterrupted = 130; // 128 + SIGINT, as shells report it

} // namespace octo::cli
