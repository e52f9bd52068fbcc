#include "engine/backend/cuda/cuda_module.h"

#include <cstdlib>
#include <filesystem>

#include "engine/backend/cuda/cuda_api.h"

namespace octo {

namespace {

constexpr size_t kErrLen = 512;

} // namespace

std::string cuda_module_path() {
    if (const char* env = std::getenv("OCTOSCOPE_CUDA_MODULE"); env && *env) return env;
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return {};
    return (exe.parent_path() / ".." / "lib" / "octoscope" / "liboctoscope-cuda.so").lexically_normal().string();
}

CudaProbe probe_cuda() {
    CudaProbe probe;
    probe.module_path = cuda_module_path();
    auto api = load_cuda_api(probe.module_path);
    if (!api) {
        probe.reason = api.error().message;
        return probe;
    }
    const auto count_fn = api.value()->device_count;
    const auto info_fn = api.value()->device_info;
    char err[kErrLen] = {};
    int count = 0;
    if (count_fn(&count, err, sizeof err) != 0) {
        probe.reason = std::string("no usable CUDA device: ") + err;
        return probe;
    }
    if (count == 0) {
        probe.reason = "no CUDA device found";
        return probe;
    }
    for (int i = 0; i < count; ++i) {
        OctoCudaDeviceInfo info{};
        if (info_fn(i, &info, err, sizeof err) != 0) {
            probe.reason = "CUDA device " + std::to_string(i) + ": " + err;
            probe.devices.clear();
            return probe;
        }
        probe.devices.push_back({info.name, info.compute_major, info.compute_minor, info.total_memory,
                                 info.free_memory});
    }
    probe.available = true;
    return probe;
}

} // namespace octo
