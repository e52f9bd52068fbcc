// Error reporting of the module: every CUDA and cuBLAS call goes through a macro that records
// the call, file and line; sticky errors poison the context; injected faults (tests) fire here.
#pragma once

#include <cstddef>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "octo_cuda_api.h"

namespace octo_cuda {

// Where a failing entry point writes its one-line reason.
struct ErrOut {
    char* buf;
    size_t len;
};

// Writes "call, file:line: reason" and returns code.
int report(ErrOut out, int code, const char* call, const char* file, int line, const char* reason);
// 0 when e is cudaSuccess; otherwise classifies e (sticky errors poison ctx, which may be null).
int check_cuda(OctoCudaContext* ctx, cudaError_t e, const char* call, const char* file, int line, ErrOut out);
// 0 when s is CUBLAS_STATUS_SUCCESS and no cuBLAS fault is armed; otherwise ECUBLAS.
int check_cublas(cublasStatus_t s, const char* call, const char* file, int line, ErrOut out);
// Whether an armed fault of this kind fires now (consumes it when it does).
bool fault_fires(int kind);
// The context's first sticky error (or an injected one), or 0.
int check_sticky(OctoCudaContext* ctx, const char* call, const char* file, int line, ErrOut out);

} // namespace octo_cuda

// Starts an entry point taking (ctx, ..., err, err_len): declares out_, refuses a null or
// poisoned context.
#define OCTO_ENTER(fn)                                                                                \
    ::octo_cuda::ErrOut out_{err, err_len};                                                          \
    if (err && err_len) err[0] = '\0';                                                               \
    if (!ctx) return ::octo_cuda::report(out_, OCTO_CUDA_EARG, fn, __FILE__, __LINE__, "null context"); \
    if (int rc_ = ::octo_cuda::check_sticky(ctx, fn, __FILE__, __LINE__, out_)) return rc_

#define OCTO_CHECK(call)                                                                              \
    do {                                                                                             \
        if (int rc_ = ::octo_cuda::check_cuda(ctx, (call), #call, __FILE__, __LINE__, out_)) return rc_; \
    } while (0)

// After a kernel launch: launch configuration errors (asynchronous faults surface later).
#define OCTO_CHECK_LAUNCH(kernel) \
    do {                                                                                             \
        if (int rc_ = ::octo_cuda::check_cuda(ctx, cudaGetLastError(), kernel, __FILE__, __LINE__, out_)) return rc_; \
    } while (0)

#define OCTO_CHECK_BLAS(call)                                                                         \
    do {                                                                                             \
        if (int rc_ = ::octo_cuda::check_cublas((call), #call, __FILE__, __LINE__, out_)) return rc_; \
    } while (0)

#define OCTO_FAIL(code, what, reason) return ::octo_cuda::report(out_, code, what, __FILE__, __LINE__, reason)
