#include "engine/backend/backend_selection.h"

#include <spdlog/spdlog.h>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cuda/cuda_backend.h"

namespace octo {

std::optional<BackendChoice> parse_backend_choice(std::string_view text) {
    if (text == "auto") return BackendChoice::Auto;
    if (text == "cpu") return BackendChoice::Cpu;
    if (text == "cuda") return BackendChoice::Cuda;
    return std::nullopt;
}

Result<SelectedBackend> select_backend(BackendChoice choice, int cpu_threads, std::optional<CpuPath> cpu_path) {
    SelectedBackend selected;
    if (choice != BackendChoice::Cpu) {
        auto cuda = CudaBackend::create();
        if (cuda) {
            selected.backend = std::move(cuda.value());
            return selected;
        }
        if (choice == BackendChoice::Cuda) return cuda.error();
        selected.fallback_reason = cuda.error().message;
        spdlog::info("using the CPU backend: {}", selected.fallback_reason);
    }
    auto cpu = CpuBackend::create({cpu_threads, cpu_path});
    if (!cpu) return cpu.error();
    selected.backend = std::move(cpu.value());
    return selected;
}

} // namespace octo
