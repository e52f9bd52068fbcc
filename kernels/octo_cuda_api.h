/* The C entry points of the octoscope-cuda module (a MODULE library loaded with dlopen).
 * Plain C types only: the engine includes this header without any CUDA header, and a
 * machine without CUDA libraries, driver or GPU still starts — the loader just reports
 * why the module cannot be used.
 *
 * Every function that can fail returns 0 on success; on failure it returns an OCTO_CUDA_E*
 * code and writes one line "call, file:line: reason" into err (err_len bytes, always
 * NUL-terminated). After a sticky CUDA error (the device context is lost, e.g. an illegal
 * address) every later call on that context returns OCTO_CUDA_ESTICKY with the first reason.
 *
 * The operations mirror engine/backend/backend.h (see its comments for shapes and semantics).
 * Float pointers are device addresses from octo_cuda_alloc; pointers documented as "host"
 * (token ids, positions, cells, head masks) are read before the call returns. Operations are
 * queued on the context's stream in call order; octo_cuda_download and octo_cuda_synchronize
 * wait for them. */
#ifndef OCTO_CUDA_API_H
#define OCTO_CUDA_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OCTO_CUDA_API_VERSION 4

enum {
    OCTO_CUDA_OK = 0,
    OCTO_CUDA_ECUDA = 1,        /* a CUDA runtime call failed (not sticky) */
    OCTO_CUDA_ESTICKY = 2,      /* a sticky error: the context is unusable */
    OCTO_CUDA_ENOMEM = 3,       /* device allocation failed */
    OCTO_CUDA_ECUBLAS = 4,      /* a cuBLAS call failed */
    OCTO_CUDA_EARG = 5,         /* invalid argument (shape, type, null pointer) */
    OCTO_CUDA_EUNSUPPORTED = 6, /* a weight type the module cannot run */
};

/* Faults the module can be told to raise (octo_cuda_inject_fault). */
enum {
    OCTO_CUDA_FAULT_NONE = 0,
    OCTO_CUDA_FAULT_ALLOC = 1,  /* the next allocation (buffer, weight, KV cache) fails: ENOMEM */
    OCTO_CUDA_FAULT_CUBLAS = 2, /* the next cuBLAS call fails: ECUBLAS */
    OCTO_CUDA_FAULT_STICKY = 3, /* the next operation raises a sticky error: ESTICKY */
};

/* RoPE layouts (engine RopeLayout). */
enum { OCTO_CUDA_ROPE_NORMAL = 0, OCTO_CUDA_ROPE_NEOX = 1 };

typedef struct OctoCudaDeviceInfo {
    char name[256];             /* e.g. "NVIDIA H200" */
    int compute_major;          /* compute capability, e.g. 9 */
    int compute_minor;          /* e.g. 0 */
    uint64_t total_memory;      /* bytes of device memory */
    uint64_t free_memory;       /* bytes free when asked */
} OctoCudaDeviceInfo;

typedef struct OctoCudaContext OctoCudaContext; /* a device, a stream, a cuBLAS handle, scratch */
typedef struct OctoCudaWeight OctoCudaWeight;   /* a weight matrix in device memory */
typedef struct OctoCudaKv OctoCudaKv;           /* a KV cache in device memory */

typedef struct OctoCudaRope {
    int layout;               /* OCTO_CUDA_ROPE_* */
    int64_t n_rot;            /* rotated dims per head (even, <= head_dim) */
    double freq_base;
    double freq_scale;
    const float* freq_factors; /* device [n_rot / 2], or NULL */
    float attn_factor;         /* multiplies cos and sin, in float (1 for none) */
} OctoCudaRope;

/* One batch of one sequence (engine KvBatchCells); all arrays are host memory. */
typedef struct OctoCudaCells {
    const int32_t* positions;   /* [n_tokens] */
    const int32_t* write_cells; /* [n_tokens] */
    int64_t n_tokens;
    const int32_t* read_cells;  /* [n_positions], max(positions) < n_positions */
    int64_t n_positions;
} OctoCudaCells;

/* --- discovery ------------------------------------------------------------------------------ */
/* OCTO_CUDA_API_VERSION of the module; the loader refuses a module of another version. */
int octo_cuda_api_version(void);
/* Number of usable CUDA devices. No driver or no GPU is an error with its reason. */
int octo_cuda_device_count(int* count, char* err, size_t err_len);
/* Properties of device `index` (0 <= index < count). */
int octo_cuda_device_info(int index, OctoCudaDeviceInfo* info, char* err, size_t err_len);

/* --- fault injection (tests) ----------------------------------------------------------------- */
/* Arms fault `kind` to fire on the (after_n_calls + 1)-th call that can raise it, once;
 * OCTO_CUDA_FAULT_NONE disarms. Process-wide. */
int octo_cuda_inject_fault(int kind, int after_n_calls);

/* --- context ---------------------------------------------------------------------------------- */
int octo_cuda_context_create(int device, OctoCudaContext** ctx, char* err, size_t err_len);
void octo_cuda_context_destroy(OctoCudaContext* ctx);
/* Waits for every queued operation; reports asynchronous kernel faults. */
int octo_cuda_synchronize(OctoCudaContext* ctx, char* err, size_t err_len);

/* --- memory ----------------------------------------------------------------------------------- */
int octo_cuda_alloc(OctoCudaContext* ctx, uint64_t bytes, void** ptr, char* err, size_t err_len);
int octo_cuda_free(OctoCudaContext* ctx, void* ptr, char* err, size_t err_len);
/* host -> device; the host bytes may be reused when it returns */
int octo_cuda_upload(OctoCudaContext* ctx, void* dst, const void* src, uint64_t bytes, char* err, size_t err_len);
/* device -> host; waits for queued operations first */
int octo_cuda_download(OctoCudaContext* ctx, void* dst, const void* src, uint64_t bytes, char* err, size_t err_len);

/* --- weights ---------------------------------------------------------------------------------- */
/* Whether matmul and embed accept this GGUF type id. */
int octo_cuda_supports_type(uint32_t ggml_type);
/* Copies W[n_out, n_in] (rows of row_bytes in the type's block layout, host memory) to the device. */
int octo_cuda_weight_upload(OctoCudaContext* ctx, uint32_t ggml_type, const void* rows, int64_t n_in,
                            int64_t n_out, uint64_t row_bytes, OctoCudaWeight** weight, char* err,
                            size_t err_len);
void octo_cuda_weight_free(OctoCudaContext* ctx, OctoCudaWeight* weight);

/* --- KV cache --------------------------------------------------------------------------------- */
int octo_cuda_kv_create(OctoCudaContext* ctx, int64_t n_layer, int64_t n_cells, int64_t n_head_kv,
                        int64_t head_dim, OctoCudaKv** kv, char* err, size_t err_len);
void octo_cuda_kv_free(OctoCudaContext* ctx, OctoCudaKv* kv);
int octo_cuda_kv_write(OctoCudaContext* ctx, OctoCudaKv* kv, int64_t layer, const float* k, const float* v,
                       const OctoCudaCells* cells, char* err, size_t err_len);
int octo_cuda_kv_copy(OctoCudaContext* ctx, OctoCudaKv* kv, int64_t from, int64_t to, int64_t n, char* err,
                      size_t err_len);

/* --- operations (backend.h) ------------------------------------------------------------------- */
int octo_cuda_embed(OctoCudaContext* ctx, const OctoCudaWeight* table, const int32_t* tokens, int64_t n_tokens,
                    float* out, char* err, size_t err_len); /* tokens: host */
/* n_tokens <= 8: fused dequantise-and-multiply; more: dequantise to F16 (F32 for F32/BF16) + cuBLAS */
int octo_cuda_matmul(OctoCudaContext* ctx, const OctoCudaWeight* w, const float* x, float* y, int64_t n_tokens,
                     char* err, size_t err_len);
int octo_cuda_rms_norm(OctoCudaContext* ctx, const float* x, const float* weight, float* y, int64_t n_tokens,
                       int64_t n, float eps, char* err, size_t err_len);
int octo_cuda_add_bias(OctoCudaContext* ctx, float* y, const float* bias, int64_t n_tokens, int64_t n, char* err,
                       size_t err_len);
int octo_cuda_add(OctoCudaContext* ctx, float* y, const float* x, int64_t n, char* err, size_t err_len);
int octo_cuda_swiglu(OctoCudaContext* ctx, const float* gate, const float* up, float* out, int64_t n, char* err,
                     size_t err_len);
int octo_cuda_rope(OctoCudaContext* ctx, float* x, int64_t n_tokens, int64_t n_heads, int64_t head_dim,
                   const int32_t* positions, const OctoCudaRope* params, char* err,
                   size_t err_len); /* positions: host [n_tokens] */
int octo_cuda_attention(OctoCudaContext* ctx, const OctoCudaKv* kv, int64_t layer, const float* q, float* out,
                        const OctoCudaCells* cells, int64_t n_head, float* weights, int64_t weights_stride,
                        char* err, size_t err_len); /* weights: device or NULL */
int octo_cuda_softmax_rows(OctoCudaContext* ctx, float* x, int64_t n_rows, int64_t n, char* err, size_t err_len);
int octo_cuda_scale_head_groups(OctoCudaContext* ctx, float* z, const float* scales, int64_t n_tokens,
                                int64_t n_head, int64_t head_dim, int64_t n_groups, char* err, size_t err_len);
int octo_cuda_head_norms(OctoCudaContext* ctx, const float* z, const float* grams, float* norms, int64_t n_tokens,
                         int64_t n_head, int64_t head_dim, char* err, size_t err_len);
int octo_cuda_ablate_heads(OctoCudaContext* ctx, float* z, const uint8_t* heads, const float* replacement,
                           int64_t n_tokens, int64_t n_head, int64_t head_dim, char* err,
                           size_t err_len); /* heads: host [n_head]; replacement: device or NULL */

/* Reference rates for `octoscope-cli bench` (docs/cuda.md, "Targets"), measured with CUDA events
   on the context's stream after one untimed repetition:
   - a device-to-device copy of `bytes` bytes, `iters` times: GB/s counting bytes read plus
     written (2 * bytes per copy);
   - cublasGemmEx of [m, k] x [k, n] with F16 operands and F32 accumulation and output (the
     prefill path), `iters` times: TFLOP/s (2 m n k per product). */
int octo_cuda_bench_copy(OctoCudaContext* ctx, uint64_t bytes, int iters, double* gb_per_s, char* err, size_t err_len);
int octo_cuda_bench_gemm(OctoCudaContext* ctx, int64_t m, int64_t n, int64_t k, int iters, double* tflop_per_s,
                         char* err, size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* OCTO_CUDA_API_H */
