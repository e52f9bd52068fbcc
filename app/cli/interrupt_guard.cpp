#include "app/cli/interrupt_guard.h"

namespace octo::cli {

namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void on_interrupt(int) { g_interrupted.store(true); }

} // namespace

InterruptGuard::InterruptGuard() {
    g_interrupted.store(false);
    previous_ = std::signal(SIGINT, on_interrupt);
}

InterruptGuard::~InterruptGuard() { std::signal(SIGINT, previous_); }

const std::atomic<bool>* InterruptGuard::flag() const { return &g_interrupted; }

} // namespace octo::cli
