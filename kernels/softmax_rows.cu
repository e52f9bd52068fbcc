// Row-wise softmax in place (max-subtracted, in float); one block per row.
#include "context.cuh"
#include "launch.cuh"

namespace {

__global__ void softmax_rows_kernel(float* x, int64_t n) {
    float* row = x + blockIdx.x * n;
    float m = -INFINITY;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, row[i]);
    m = octo_cuda::block_max(m);
    float sum = 0.0f;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
        row[i] = expf(row[i] - m);
        sum += row[i];
    }
    sum = octo_cuda::block_sum(sum);
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) row[i] /= sum;
}

} // namespace

extern "C" int octo_cuda_softmax_rows(OctoCudaContext* ctx, float* x, int64_t n_rows, int64_t n, char* err,
                                      size_t err_len) {
    OCTO_ENTER("octo_cuda_softmax_rows");
    if (n_rows <= 0 || n <= 0) return OCTO_CUDA_OK;
    softmax_rows_kernel<<<static_cast<unsigned int>(n_rows), octo_cuda::kThreads, 0, ctx->stream>>>(x, n);
    OCTO_CHECK_LAUNCH("softmax_rows_kernel");
    return OCTO_CUDA_OK;
}
