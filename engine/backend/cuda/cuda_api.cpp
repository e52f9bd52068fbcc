#include "engine/backend/cuda/cuda_api.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <mutex>

namespace octo {

namespace {

Result<std::shared_ptr<const CudaApi>> open_api(const std::string& path) {
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) {
        return make_error(ErrorCode::Unsupported, "this build has no CUDA module (looked for '" + path + "')");
    }
    void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* e = ::dlerror();
        return make_error(ErrorCode::Unsupported, "cannot load the CUDA module: " + std::string(e ? e : path));
    }
    auto api = std::make_shared<CudaApi>();
    auto version = reinterpret_cast<decltype(&::octo_cuda_api_version)>(::dlsym(handle, "octo_cuda_api_version"));
    if (!version) return make_error(ErrorCode::Unsupported, "the CUDA module lacks octo_cuda_api_version");
    if (version() != OCTO_CUDA_API_VERSION) {
        return make_error(ErrorCode::Unsupported, "the CUDA module has API version " + std::to_string(version()) +
                                                      ", expected " + std::to_string(OCTO_CUDA_API_VERSION));
    }
#define OCTO_CUDA_API_RESOLVE(name)                                                                    \
    api->name = reinterpret_cast<decltype(&::octo_cuda_##name)>(::dlsym(handle, "octo_cuda_" #name)); \
    if (!api->name) return make_error(ErrorCode::Unsupported, "the CUDA module lacks octo_cuda_" #name);
    OCTO_CUDA_FUNCTIONS(OCTO_CUDA_API_RESOLVE)
#undef OCTO_CUDA_API_RESOLVE
    return std::shared_ptr<const CudaApi>(std::move(api));
}

} // namespace

Result<std::shared_ptr<const CudaApi>> load_cuda_api(const std::string& path) {
    static std::mutex mutex;
    static std::map<std::string, Result<std::shared_ptr<const CudaApi>>> opened;
    std::lock_guard lock(mutex);
    auto it = opened.find(path);
    if (it == opened.end()) it = opened.emplace(path, open_api(path)).first;
    return it->second;
}

} // namespace octo
