// Error classification, reports and the fault-injection state of the module.
#include <atomic>
#include <cstdio>
#include <cstring>

#include "check.cuh"
#include "context.cuh"

namespace octo_cuda {

namespace {

std::atomic<int> g_fault_kind{OCTO_CUDA_FAULT_NONE};
std::atomic<int> g_fault_countdown{0};

const char* base_name(const char* path) {
    const char* slash = std::strrchr(path, '/');
    return slash ? slash + 1 : path;
}

// Errors after which the CUDA context is unusable until the process exits.
bool is_sticky(cudaError_t e) {
    switch (e) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
    case cudaErrorContextIsDestroyed:
        return true;
    default:
        return false;
    }
}

void poison(OctoCudaContext* ctx, ErrOut out) {
    if (ctx && !ctx->sticky) {
        ctx->sticky = true;
        ctx->sticky_reason = out.buf && out.len ? out.buf : "sticky CUDA error";
    }
}

} // namespace

int report(ErrOut out, int code, const char* call, const char* file, int line, const char* reason) {
    if (out.buf && out.len) std::snprintf(out.buf, out.len, "%s, %s:%d: %s", call, base_name(file), line, reason);
    return code;
}

int check_cuda(OctoCudaContext* ctx, cudaError_t e, const char* call, const char* file, int line, ErrOut out) {
    if (e == cudaSuccess) return OCTO_CUDA_OK;
    char reason[256];
    std::snprintf(reason, sizeof reason, "%s (%s)", cudaGetErrorString(e), cudaGetErrorName(e));
    if (is_sticky(e)) {
        report(out, OCTO_CUDA_ESTICKY, call, file, line, reason);
        poison(ctx, out);
        return OCTO_CUDA_ESTICKY;
    }
    (void)cudaGetLastError(); // clear a non-sticky error so later calls do not see it
    return report(out, e == cudaErrorMemoryAllocation ? OCTO_CUDA_ENOMEM : OCTO_CUDA_ECUDA, call, file, line, reason);
}

int check_cublas(cublasStatus_t s, const char* call, const char* file, int line, ErrOut out) {
    if (fault_fires(OCTO_CUDA_FAULT_CUBLAS)) {
        return report(out, OCTO_CUDA_ECUBLAS, call, file, line, "injected cuBLAS failure");
    }
    if (s == CUBLAS_STATUS_SUCCESS) return OCTO_CUDA_OK;
    char reason[256];
    std::snprintf(reason, sizeof reason, "%s (%s)", cublasGetStatusString(s), cublasGetStatusName(s));
    return report(out, OCTO_CUDA_ECUBLAS, call, file, line, reason);
}

bool fault_fires(int kind) {
    if (g_fault_kind.load() != kind) return false;
    if (g_fault_countdown.fetch_sub(1) > 0) return false;
    g_fault_kind.store(OCTO_CUDA_FAULT_NONE);
    return true;
}

int check_sticky(OctoCudaContext* ctx, const char* call, const char* file, int line, ErrOut out) {
    if (!ctx->sticky && fault_fires(OCTO_CUDA_FAULT_STICKY)) {
        report(out, OCTO_CUDA_ESTICKY, call, file, line,
               "an illegal memory access was encountered (cudaErrorIllegalAddress, injected)");
        poison(ctx, out);
        return OCTO_CUDA_ESTICKY;
    }
    if (!ctx->sticky) return OCTO_CUDA_OK;
    if (out.buf && out.len) std::snprintf(out.buf, out.len, "%s", ctx->sticky_reason.c_str());
    return OCTO_CUDA_ESTICKY;
}

} // namespace octo_cuda

extern "C" int octo_cuda_inject_fault(int kind, int after_n_calls) {
    if (kind < OCTO_CUDA_FAULT_NONE || kind > OCTO_CUDA_FAULT_STICKY || after_n_calls < 0) return OCTO_CUDA_EARG;
    octo_cuda::g_fault_countdown.store(after_n_calls);
    octo_cuda::g_fault_kind.store(kind);
    return OCTO_CUDA_OK;
}
