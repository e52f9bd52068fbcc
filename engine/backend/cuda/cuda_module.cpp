#include "engine/backend/cuda/cuda_module.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "kernels/octo_cuda_api.h"

namespace octo {

namespace {

constexpr size_t kErrLen = 512;

using ApiVersionFn = int (*)();
using DeviceCountFn = int (*)(int*, char*, size_t);
using DeviceInfoFn = int (*)(int, OctoCudaDeviceInfo*, char*, size_t);

// dlopen handle kept for the process's lifetime: CUDA runtimes do not unload cleanly.
void* open_module(const std::string& path, std::string& reason) {
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = ::dlerror();
        reason = "cannot load the CUDA module: " + std::string(e ? e : path);
    }
    return handle;
}

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
    std::error_code ec;
    if (probe.module_path.empty() || !std::filesystem::exists(probe.module_path, ec)) {
        probe.reason = "this build has no CUDA module (looked for '" + probe.module_path + "')";
        return probe;
    }
    void* handle = open_module(probe.module_path, probe.reason);
    if (!handle) return probe;
    auto version = reinterpret_cast<ApiVersionFn>(::dlsym(handle, "octo_cuda_api_version"));
    auto count_fn = reinterpret_cast<DeviceCountFn>(::dlsym(handle, "octo_cuda_device_count"));
    auto info_fn = reinterpret_cast<DeviceInfoFn>(::dlsym(handle, "octo_cuda_device_info"));
    if (!version || !count_fn || !info_fn) {
        probe.reason = "the CUDA module lacks its entry points";
        return probe;
    }
    if (version() != OCTO_CUDA_API_VERSION) {
        probe.reason = "the CUDA module has API version " + std::to_string(version()) + ", expected " +
                       std::to_string(OCTO_CUDA_API_VERSION);
        return probe;
    }
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
