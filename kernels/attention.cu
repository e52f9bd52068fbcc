// Causal grouped-query attention over the paged KV cache, one block per (token, query head):
// scores q·k / sqrt(head_dim) for positions 0..positions[t] (a warp per position, read through
// read_cells), a max-subtracted softmax, then the weighted sum of values (a thread per dimension).
// Scores live in context scratch [n_tokens, n_head, n_positions], so any context length fits.
#include "context.cuh"
#include "launch.cuh"

namespace {

constexpr int kAttentionThreads = 128;

struct AttentionArgs {
    const float* k;        // layer's keys [n_cells, row]
    const float* v;        // layer's values [n_cells, row]
    int64_t row;           // n_head_kv * head_dim
    const float* q;        // [n_tokens, n_head, head_dim]
    float* out;            // [n_tokens, n_head, head_dim]
    const int32_t* positions;
    const int32_t* read_cells;
    int64_t n_positions;
    int64_t n_head;
    int64_t group;         // query heads per kv head
    int64_t head_dim;
    float scale;
    float* scores;         // [n_tokens, n_head, n_positions]
    float* weights;        // [n_tokens, n_head, weights_stride] or null
    int64_t weights_stride;
};

__global__ void attention_kernel(AttentionArgs a) {
    const int64_t task = blockIdx.x; // t * n_head + h
    const int64_t t = task / a.n_head;
    const int64_t h = task % a.n_head;
    const int64_t kv_offset = (h / a.group) * a.head_dim;
    const int64_t n_seen = a.positions[t] + 1;
    const float* qh = a.q + task * a.head_dim;
    float* scores = a.scores + task * a.n_positions;
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    const int n_warps = blockDim.x / 32;

    for (int64_t p = warp; p < n_seen; p += n_warps) {
        const float* kp = a.k + static_cast<int64_t>(a.read_cells[p]) * a.row + kv_offset;
        float s = 0.0f;
        for (int64_t d = lane; d < a.head_dim; d += 32) s += qh[d] * kp[d];
        s = octo_cuda::warp_sum(s);
        if (lane == 0) scores[p] = s * a.scale;
    }
    __syncthreads();
    float m = -INFINITY;
    for (int64_t p = threadIdx.x; p < n_seen; p += blockDim.x) m = fmaxf(m, scores[p]);
    m = octo_cuda::block_max(m);
    float sum = 0.0f;
    for (int64_t p = threadIdx.x; p < n_seen; p += blockDim.x) {
        scores[p] = expf(scores[p] - m);
        sum += scores[p];
    }
    sum = octo_cuda::block_sum(sum); // its barriers also publish the exponentials
    const float inv_sum = 1.0f / sum;
    float* oh = a.out + task * a.head_dim;
    for (int64_t d = threadIdx.x; d < a.head_dim; d += blockDim.x) {
        float acc = 0.0f;
        for (int64_t p = 0; p < n_seen; ++p) acc += scores[p] * a.v[static_cast<int64_t>(a.read_cells[p]) * a.row + kv_offset + d];
        oh[d] = acc * inv_sum;
    }
    if (a.weights) {
        float* w = a.weights + task * a.weights_stride;
        for (int64_t p = threadIdx.x; p < a.weights_stride; p += blockDim.x) w[p] = p < n_seen ? scores[p] * inv_sum : 0.0f;
    }
}

} // namespace

extern "C" int octo_cuda_attention(OctoCudaContext* ctx, const OctoCudaKv* kv, int64_t layer, const float* q,
                                   float* out, const OctoCudaCells* cells, int64_t n_head, float* weights,
                                   int64_t weights_stride, char* err, size_t err_len) {
    OCTO_ENTER("octo_cuda_attention");
    if (!kv || !cells || layer < 0 || layer >= kv->n_layer || n_head <= 0 || n_head % kv->n_head_kv) {
        OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_attention", "bad cache, layer or head count");
    }
    if (cells->n_tokens <= 0) return OCTO_CUDA_OK;
    if (cells->n_positions <= 0) OCTO_FAIL(OCTO_CUDA_EARG, "octo_cuda_attention", "no read cells");
    const void* dev_positions = nullptr;
    const void* dev_read = nullptr;
    if (int rc = octo_cuda::stage_host(ctx, octo_cuda::kStagePositions, cells->positions,
                                       cells->n_tokens * sizeof(int32_t), &dev_positions, out_)) {
        return rc;
    }
    if (int rc = octo_cuda::stage_host(ctx, octo_cuda::kStageReadCells, cells->read_cells,
                                       cells->n_positions * sizeof(int32_t), &dev_read, out_)) {
        return rc;
    }
    const int64_t n_tasks = cells->n_tokens * n_head;
    if (int rc = octo_cuda::ensure_scratch(ctx, ctx->scores, static_cast<size_t>(n_tasks * cells->n_positions) * sizeof(float), out_)) {
        return rc;
    }
    const int64_t row = kv->n_head_kv * kv->head_dim;
    AttentionArgs a{};
    a.k = kv->k + layer * kv->n_cells * row;
    a.v = kv->v + layer * kv->n_cells * row;
    a.row = row;
    a.q = q;
    a.out = out;
    a.positions = static_cast<const int32_t*>(dev_positions);
    a.read_cells = static_cast<const int32_t*>(dev_read);
    a.n_positions = cells->n_positions;
    a.n_head = n_head;
    a.group = n_head / kv->n_head_kv;
    a.head_dim = kv->head_dim;
    a.scale = 1.0f / sqrtf(static_cast<float>(kv->head_dim));
    a.scores = static_cast<float*>(ctx->scores.ptr);
    a.weights = weights;
    a.weights_stride = weights_stride;
    attention_kernel<<<static_cast<unsigned int>(n_tasks), kAttentionThreads, 0, ctx->stream>>>(a);
    OCTO_CHECK_LAUNCH("attention_kernel");
    return OCTO_CUDA_OK;
}
