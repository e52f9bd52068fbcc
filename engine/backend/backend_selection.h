// Choosing the compute backend: --backend auto|cpu|cuda. Auto takes CUDA when the module, the
// driver and a GPU are usable (and CUDA has not been disabled by a sticky error), else the CPU,
// logging why.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/backend/backend.h"
#include "engine/backend/cpu/cpu_features.h"
#include "engine/core/result.h"

namespace octo {

enum class BackendChoice { Auto, Cpu, Cuda };

std::optional<BackendChoice> parse_backend_choice(std::string_view text);

struct SelectedBackend {
    std::unique_ptr<Backend> backend;
    std::string fallback_reason; // why auto did not take CUDA (empty when it did, or for cpu)
};

// cpu_threads: the CPU backend's thread count (0: all cores); cpu_path: its kernel path (default:
// the best this CPU runs). `cuda` fails (Unsupported) with the reason when CUDA is unusable.
Result<SelectedBackend> select_backend(BackendChoice choice, int cpu_threads, std::optional<CpuPath> cpu_path = std::nullopt);

} // namespace octo
