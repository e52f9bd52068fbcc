// A fake octoscope-cuda module for machines without a GPU: the C API of kernels/octo_cuda_api.h
// implemented on the host with the CPU backend ("device" memory is host memory). The engine's
// CudaBackend runs against it in CI: its plumbing (argument passing, weight and constant caches,
// KV handles, error paths, fault injection) is tested, not the kernels. Built twice: with the
// real API version and with a wrong one (FAKE_API_VERSION) for the loader's refusal.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/backend/cpu/cpu_backend.h"
#include "engine/gguf/tensor_type.h"
#include "kernels/octo_cuda_api.h"

struct OctoCudaContext {
    std::unique_ptr<octo::CpuBackend> cpu;
    bool sticky = false;
    std::string sticky_reason;
};

struct OctoCudaWeight {
    std::vector<uint8_t> bytes;
    octo::WeightMatrix w;
};

struct OctoCudaKv {
    std::unique_ptr<octo::KvCache> cache;
};

namespace {

int g_fault_kind = OCTO_CUDA_FAULT_NONE;
int g_fault_countdown = 0;

bool fault_fires(int kind) {
    if (g_fault_kind != kind) return false;
    if (g_fault_countdown-- > 0) return false;
    g_fault_kind = OCTO_CUDA_FAULT_NONE;
    return true;
}

int fail(char* err, size_t len, int code, const char* call, int line, const char* reason) {
    if (err && len) std::snprintf(err, len, "%s, fake_cuda_module.cpp:%d: %s", call, line, reason);
    return code;
}

// The checks every operation starts with: a poisoned context, an injected sticky error.
int enter(OctoCudaContext* ctx, const char* call, int line, char* err, size_t len) {
    if (!ctx->sticky && fault_fires(OCTO_CUDA_FAULT_STICKY)) {
        ctx->sticky = true;
        fail(err, len, OCTO_CUDA_ESTICKY, call, line, "an illegal memory access was encountered (cudaErrorIllegalAddress, injected)");
        ctx->sticky_reason = err;
        return OCTO_CUDA_ESTICKY;
    }
    if (ctx->sticky) {
        std::snprintf(err, len, "%s", ctx->sticky_reason.c_str());
        return OCTO_CUDA_ESTICKY;
    }
    return OCTO_CUDA_OK;
}

#define FAKE_ENTER(name) \
    if (int rc_ = enter(ctx, name, __LINE__, err, err_len)) return rc_
#define FAKE_ALLOC_FAULT(name) \
    if (fault_fires(OCTO_CUDA_FAULT_ALLOC)) \
        return fail(err, err_len, OCTO_CUDA_ENOMEM, name, __LINE__, "out of memory (cudaErrorMemoryAllocation, injected)")

octo::KvBatchCells engine_cells(const OctoCudaCells* c) {
    return {std::span<const int32_t>(c->positions, static_cast<size_t>(c->n_tokens)),
            std::span<const int32_t>(c->write_cells, static_cast<size_t>(c->n_tokens)),
            std::span<const int32_t>(c->read_cells, static_cast<size_t>(c->n_positions))};
}

} // namespace

extern "C" {

int octo_cuda_api_version(void) { return FAKE_API_VERSION; }

int octo_cuda_device_count(int* count, char* err, size_t err_len) {
    if (const char* none = std::getenv("OCTOSCOPE_FAKE_CUDA_NO_DEVICE"); none && *none) {
        *count = 0;
        return fail(err, err_len, OCTO_CUDA_ECUDA, "cudaGetDeviceCount", __LINE__,
                    "CUDA driver version is insufficient for CUDA runtime version (cudaErrorInsufficientDriver)");
    }
    *count = 1;
    return OCTO_CUDA_OK;
}

int octo_cuda_device_info(int, OctoCudaDeviceInfo* info, char*, size_t) {
    std::memset(info, 0, sizeof *info);
    std::snprintf(info->name, sizeof info->name, "Fake CUDA device (host)");
    info->compute_major = 9;
    info->total_memory = info->free_memory = uint64_t{1} << 30;
    return OCTO_CUDA_OK;
}

int octo_cuda_inject_fault(int kind, int after_n_calls) {
    if (kind < OCTO_CUDA_FAULT_NONE || kind > OCTO_CUDA_FAULT_STICKY || after_n_calls < 0) return OCTO_CUDA_EARG;
    g_fault_kind = kind;
    g_fault_countdown = after_n_calls;
    return OCTO_CUDA_OK;
}

int octo_cuda_context_create(int, OctoCudaContext** ctx, char* err, size_t err_len) {
    auto cpu = octo::CpuBackend::create({1, {}});
    if (!cpu) return fail(err, err_len, OCTO_CUDA_ECUDA, "octo_cuda_context_create", __LINE__, cpu.error().message.c_str());
    *ctx = new OctoCudaContext{std::move(cpu.value()), false, {}};
    return OCTO_CUDA_OK;
}

void octo_cuda_context_destroy(OctoCudaContext* ctx) { delete ctx; }

int octo_cuda_synchronize(OctoCudaContext* ctx, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_synchronize");
    return OCTO_CUDA_OK;
}

int octo_cuda_alloc(OctoCudaContext* ctx, uint64_t bytes, void** ptr, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_alloc");
    FAKE_ALLOC_FAULT("cudaMalloc");
    *ptr = std::calloc(bytes ? bytes : 1, 1);
    return OCTO_CUDA_OK;
}

int octo_cuda_free(OctoCudaContext*, void* ptr, char*, size_t) {
    std::free(ptr);
    return OCTO_CUDA_OK;
}

int octo_cuda_upload(OctoCudaContext* ctx, void* dst, const void* src, uint64_t bytes, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_upload");
    std::memcpy(dst, src, bytes);
    return OCTO_CUDA_OK;
}

int octo_cuda_download(OctoCudaContext* ctx, void* dst, const void* src, uint64_t bytes, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_download");
    std::memcpy(dst, src, bytes);
    return OCTO_CUDA_OK;
}

// The types the real module's kernels decode (kernels/quant_decode.cuh dispatch_type).
int octo_cuda_supports_type(uint32_t ggml_type) {
    using octo::TensorType;
    switch (static_cast<TensorType>(ggml_type)) {
    case TensorType::F32: case TensorType::F16: case TensorType::BF16: case TensorType::Q4_0: case TensorType::Q4_1:
    case TensorType::Q5_0: case TensorType::Q5_1: case TensorType::Q8_0: case TensorType::Q4_K: case TensorType::Q5_K:
    case TensorType::Q6_K: return 1;
    default: return 0;
    }
}

int octo_cuda_weight_upload(OctoCudaContext* ctx, uint32_t ggml_type, const void* rows, int64_t n_in, int64_t n_out,
                            uint64_t row_bytes, OctoCudaWeight** weight, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_weight_upload");
    if (!octo_cuda_supports_type(ggml_type)) return fail(err, err_len, OCTO_CUDA_EUNSUPPORTED, "octo_cuda_weight_upload", __LINE__, "weight type not supported");
    FAKE_ALLOC_FAULT("cudaMalloc");
    auto* w = new OctoCudaWeight;
    const auto* bytes = static_cast<const uint8_t*>(rows);
    w->bytes.assign(bytes, bytes + static_cast<uint64_t>(n_out) * row_bytes);
    w->w = octo::WeightMatrix{static_cast<octo::TensorType>(ggml_type), w->bytes.data(), n_in, n_out, row_bytes};
    *weight = w;
    return OCTO_CUDA_OK;
}

void octo_cuda_weight_free(OctoCudaContext*, OctoCudaWeight* weight) { delete weight; }

int octo_cuda_kv_create(OctoCudaContext* ctx, int64_t n_layer, int64_t n_cells, int64_t n_head_kv, int64_t head_dim,
                        OctoCudaKv** kv, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_kv_create");
    FAKE_ALLOC_FAULT("cudaMalloc");
    auto cache = ctx->cpu->create_kv_cache({n_layer, n_cells, n_head_kv, head_dim});
    if (!cache) return fail(err, err_len, OCTO_CUDA_EARG, "octo_cuda_kv_create", __LINE__, cache.error().message.c_str());
    *kv = new OctoCudaKv{std::move(cache.value())};
    return OCTO_CUDA_OK;
}

void octo_cuda_kv_free(OctoCudaContext*, OctoCudaKv* kv) { delete kv; }

int octo_cuda_kv_write(OctoCudaContext* ctx, OctoCudaKv* kv, int64_t layer, const float* k, const float* v,
                       const OctoCudaCells* cells, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_kv_write");
    ctx->cpu->kv_write(*kv->cache, layer, k, v, engine_cells(cells));
    return OCTO_CUDA_OK;
}

int octo_cuda_kv_copy(OctoCudaContext* ctx, OctoCudaKv* kv, int64_t from, int64_t to, int64_t n, char* err,
                      size_t err_len) {
    FAKE_ENTER("octo_cuda_kv_copy");
    ctx->cpu->kv_copy(*kv->cache, from, to, n);
    return OCTO_CUDA_OK;
}

int octo_cuda_embed(OctoCudaContext* ctx, const OctoCudaWeight* table, const int32_t* tokens, int64_t n_tokens,
                    float* out, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_embed");
    ctx->cpu->embed(table->w, std::span<const int32_t>(tokens, static_cast<size_t>(n_tokens)), out);
    return OCTO_CUDA_OK;
}

int octo_cuda_matmul(OctoCudaContext* ctx, const OctoCudaWeight* w, const float* x, float* y, int64_t n_tokens,
                     char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_matmul");
    // Batches go through "cuBLAS" in the real module: that is where its fault fires.
    if (n_tokens > 8 && fault_fires(OCTO_CUDA_FAULT_CUBLAS)) {
        return fail(err, err_len, OCTO_CUDA_ECUBLAS, "cublasGemmEx", __LINE__, "injected cuBLAS failure");
    }
    ctx->cpu->matmul(w->w, x, y, n_tokens, octo::Precision::Exact);
    return OCTO_CUDA_OK;
}

int octo_cuda_rms_norm(OctoCudaContext* ctx, const float* x, const float* weight, float* y, int64_t n_tokens, int64_t n,
                       float eps, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_rms_norm");
    ctx->cpu->rms_norm(x, weight, y, n_tokens, n, eps);
    return OCTO_CUDA_OK;
}

int octo_cuda_add_bias(OctoCudaContext* ctx, float* y, const float* bias, int64_t n_tokens, int64_t n, char* err,
                       size_t err_len) {
    FAKE_ENTER("octo_cuda_add_bias");
    ctx->cpu->add_bias(y, bias, n_tokens, n);
    return OCTO_CUDA_OK;
}

int octo_cuda_add(OctoCudaContext* ctx, float* y, const float* x, int64_t n, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_add");
    ctx->cpu->add(y, x, n);
    return OCTO_CUDA_OK;
}

int octo_cuda_swiglu(OctoCudaContext* ctx, const float* gate, const float* up, float* out, int64_t n, char* err,
                     size_t err_len) {
    FAKE_ENTER("octo_cuda_swiglu");
    ctx->cpu->swiglu(gate, up, out, 1, n, octo::Precision::Exact);
    return OCTO_CUDA_OK;
}

int octo_cuda_rope(OctoCudaContext* ctx, float* x, int64_t n_tokens, int64_t n_heads, int64_t head_dim,
                   const int32_t* positions, const OctoCudaRope* p, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_rope");
    const octo::RopeParams params{p->layout == OCTO_CUDA_ROPE_NEOX ? octo::RopeLayout::NeoX : octo::RopeLayout::Normal,
                                  p->n_rot, p->freq_base, p->freq_scale, p->freq_factors, p->attn_factor};
    ctx->cpu->rope(x, n_tokens, n_heads, head_dim, std::span<const int32_t>(positions, static_cast<size_t>(n_tokens)),
                   params);
    return OCTO_CUDA_OK;
}

int octo_cuda_attention(OctoCudaContext* ctx, const OctoCudaKv* kv, int64_t layer, const float* q, float* out,
                        const OctoCudaCells* cells, int64_t n_head, float* weights, int64_t weights_stride, char* err,
                        size_t err_len) {
    FAKE_ENTER("octo_cuda_attention");
    const auto& s = kv->cache->shape();
    ctx->cpu->attention(*kv->cache, layer, q, out, engine_cells(cells), {n_head, s.n_head_kv, s.head_dim}, weights,
                        weights_stride);
    return OCTO_CUDA_OK;
}

int octo_cuda_softmax_rows(OctoCudaContext* ctx, float* x, int64_t n_rows, int64_t n, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_softmax_rows");
    ctx->cpu->softmax_rows(x, n_rows, n);
    return OCTO_CUDA_OK;
}

int octo_cuda_scale_head_groups(OctoCudaContext* ctx, float* z, const float* scales, int64_t n_tokens, int64_t n_head,
                                int64_t head_dim, int64_t n_groups, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_scale_head_groups");
    ctx->cpu->scale_head_groups(z, scales, n_tokens, n_head, head_dim, n_groups);
    return OCTO_CUDA_OK;
}

int octo_cuda_head_norms(OctoCudaContext* ctx, const float* z, const float* grams, float* norms, int64_t n_tokens,
                         int64_t n_head, int64_t head_dim, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_head_norms");
    ctx->cpu->head_norms(z, grams, norms, n_tokens, n_head, head_dim);
    return OCTO_CUDA_OK;
}

int octo_cuda_ablate_heads(OctoCudaContext* ctx, float* z, const uint8_t* heads, const float* replacement,
                           int64_t n_tokens, int64_t n_head, int64_t head_dim, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_ablate_heads");
    ctx->cpu->ablate_heads(z, std::span<const uint8_t>(heads, static_cast<size_t>(n_head)), replacement, n_tokens,
                           n_head, head_dim);
    return OCTO_CUDA_OK;
}

// The reference rates, measured on the host the same way (a memcpy; a plain triple loop), so
// that bench's arithmetic and JSON are exercised; the figures mean nothing about a GPU.
int octo_cuda_bench_copy(OctoCudaContext* ctx, uint64_t bytes, int iters, double* gb_per_s, char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_bench_copy");
    if (bytes == 0 || iters < 1 || !gb_per_s) return fail(err, err_len, OCTO_CUDA_EARG, "octo_cuda_bench_copy", __LINE__, "empty copy");
    std::vector<char> src(bytes, 1), dst(bytes);
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) std::memcpy(dst.data(), src.data(), bytes);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    *gb_per_s = 2.0 * static_cast<double>(bytes) * iters / std::max(s, 1e-9) / 1e9;
    return OCTO_CUDA_OK;
}

int octo_cuda_bench_gemm(OctoCudaContext* ctx, int64_t m, int64_t n, int64_t k, int iters, double* tflop_per_s,
                         char* err, size_t err_len) {
    FAKE_ENTER("octo_cuda_bench_gemm");
    if (m <= 0 || n <= 0 || k <= 0 || iters < 1 || !tflop_per_s) {
        return fail(err, err_len, OCTO_CUDA_EARG, "octo_cuda_bench_gemm", __LINE__, "empty product");
    }
    std::vector<float> a(static_cast<size_t>(m * k), 0.5f), b(static_cast<size_t>(k * n), 0.25f), c(static_cast<size_t>(m * n));
    const auto start = std::chrono::steady_clock::now();
    for (int it = 0; it < iters; ++it) {
        for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) {
                float acc = 0.0f;
                for (int64_t r = 0; r < k; ++r) acc += a[static_cast<size_t>(i * k + r)] * b[static_cast<size_t>(j * k + r)];
                c[static_cast<size_t>(j * m + i)] = acc;
            }
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    *tflop_per_s = 2.0 * static_cast<double>(m * n * k) * iters / std::max(s, 1e-9) / 1e12;
    return OCTO_CUDA_OK;
}

} // extern "C"
