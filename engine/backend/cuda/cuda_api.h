// The octoscope-cuda module's entry points (kernels/octo_cuda_api.h) as a table of function
// pointers resolved with dlsym. The engine reaches CUDA only through this table.
#pragma once

#include <memory>
#include <string>

#include "engine/core/result.h"
#include "kernels/octo_cuda_api.h"

namespace octo {

#define OCTO_CUDA_FUNCTIONS(X)                                                                       \
    X(api_version) X(device_count) X(device_info) X(inject_fault) X(context_create) X(context_destroy) \
    X(synchronize) X(alloc) X(free) X(upload) X(download) X(supports_type) X(weight_upload)          \
    X(weight_free) X(kv_create) X(kv_free) X(kv_write) X(kv_copy) X(embed) X(matmul) X(rms_norm)    \
    X(add_bias) X(add) X(swiglu) X(rope) X(attention) X(softmax_rows) X(scale_head_groups)           \
    X(head_norms) X(ablate_heads) X(bench_copy) X(bench_gemm)

struct CudaApi {
#define OCTO_CUDA_API_MEMBER(name) decltype(&::octo_cuda_##name) name = nullptr;
    OCTO_CUDA_FUNCTIONS(OCTO_CUDA_API_MEMBER)
#undef OCTO_CUDA_API_MEMBER
};

// Opens the module at `path` (once per path and process: CUDA runtimes do not unload cleanly)
// and resolves every entry point. Errors (Unsupported) say why: missing file, dlopen failure
// (e.g. no libcublas), another API version, a missing entry point.
Result<std::shared_ptr<const CudaApi>> load_cuda_api(const std::string& path);

} // namespace octo
