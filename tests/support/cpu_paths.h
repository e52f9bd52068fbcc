// The CPU backend on a chosen kernel path, and the optimised paths this CPU has: the set-up of
// the kernel and forward-pass tests that compare paths.
#pragma once

#include <memory>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"

namespace octo::test {

// Null when the CPU cannot run the path.
inline std::unique_ptr<CpuBackend> cpu_backend(CpuPath path, int threads) {
    auto b = CpuBackend::create({threads, path});
    return b ? std::move(b.value()) : nullptr;
}

// Every path but scalar that this CPU supports, slowest first.
inline std::vector<CpuPath> optimised_cpu_paths() {
    std::vector<CpuPath> paths;
    for (CpuPath path : kCpuPaths) {
        if (path != CpuPath::Scalar && cpu_supports(path)) paths.push_back(path);
    }
    return paths;
}

} // namespace octo::test
