// Device discovery entry points of the octoscope-cuda module (octo_cuda_api.h).
// Every CUDA call is checked; a failure becomes a one-line reason naming the call.
#include <cstdio>
#include <cstring>

#include <cuda_runtime.h>

#include "octo_cuda_api.h"

namespace {

int fail(cudaError_t e, const char* call, char* err, size_t err_len) {
    if (err && err_len) {
        std::snprintf(err, err_len, "%s failed: %s (%s)", call, cudaGetErrorString(e), cudaGetErrorName(e));
    }
    return static_cast<int>(e);
}

} // namespace

extern "C" int octo_cuda_api_version(void) { return OCTO_CUDA_API_VERSION; }

extern "C" int octo_cuda_device_count(int* count, char* err, size_t err_len) {
    *count = 0;
    // Without a driver this is cudaErrorInsufficientDriver, not cudaErrorNoDevice.
    cudaError_t e = cudaGetDeviceCount(count);
    if (e != cudaSuccess) {
        *count = 0;
        return fail(e, "cudaGetDeviceCount", err, err_len);
    }
    return 0;
}

extern "C" int octo_cuda_device_info(int index, OctoCudaDeviceInfo* info, char* err, size_t err_len) {
    std::memset(info, 0, sizeof *info);
    cudaDeviceProp prop;
    cudaError_t e = cudaGetDeviceProperties(&prop, index);
    if (e != cudaSuccess) return fail(e, "cudaGetDeviceProperties", err, err_len);
    std::snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->compute_major = prop.major;
    info->compute_minor = prop.minor;
    info->total_memory = prop.totalGlobalMem;
    e = cudaSetDevice(index);
    if (e != cudaSuccess) return fail(e, "cudaSetDevice", err, err_len);
    size_t free_bytes = 0, total_bytes = 0;
    e = cudaMemGetInfo(&free_bytes, &total_bytes);
    if (e != cudaSuccess) return fail(e, "cudaMemGetInfo", err, err_len);
    info->free_memory = free_bytes;
    return 0;
}
