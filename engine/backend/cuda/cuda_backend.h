// The Backend table on a CUDA device, through the octoscope-cuda module's C entry points
// (cuda_api.h; no CUDA header here). Weight matrices are uploaded once each, keyed by their
// host data pointer; host constants passed where the table allows them (norm weights, biases,
// RoPE frequency factors) are uploaded once the same way. So host data must stay unchanged at
// its address while the backend lives: a model's memory map, one backend per loaded model. Operations return nothing, so the
// first failure is kept (status()) and later operations do nothing; a sticky CUDA error also
// disables CUDA for the rest of the process (cuda_disabled_reason()).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "engine/backend/backend.h"
#include "engine/backend/cuda/cuda_api.h"

namespace octo {

struct CudaBackendOptions {
    int device = 0;
    std::string module_path; // empty: cuda_module_path()
};

class CudaBackend final : public Backend {
public:
    // Errors: Unsupported (no module, driver or GPU; CUDA disabled in this process), Device,
    // OutOfMemory.
    static Result<std::unique_ptr<CudaBackend>> create(const CudaBackendOptions& options = {});
    ~CudaBackend() override;
    CudaBackend(const CudaBackend&) = delete;
    CudaBackend& operator=(const CudaBackend&) = delete;

    const CudaApi& api() const { return *api_; }

    // Reference rates for the benchmark (octo_cuda_api.h octo_cuda_bench_*): GB/s of a
    // device-to-device copy of `bytes` (read plus written), TFLOP/s of an F16 cuBLAS GEMM
    // [m, k] x [k, n] with F32 accumulation.
    Result<double> copy_rate(uint64_t bytes, int iters);
    Result<double> gemm_rate(int64_t m, int64_t n, int64_t k, int iters);

    std::string name() const override;
    bool supports(TensorType type) const override;
    Status status() const override;

    std::unique_ptr<DeviceBuffer> allocate(int64_t n_floats) override;
    void read(const float* src, std::span<float> dst) override;
    void write(std::span<const float> src, float* dst) override;
    Result<std::unique_ptr<KvCache>> create_kv_cache(const KvCacheShape& shape) override;

    void embed(const WeightMatrix& table, std::span<const int32_t> tokens, float* out) override;
    void matmul(const WeightMatrix& w, const float* x, float* y, int64_t n_tokens, const ProductPrecision& precision) override;
    void rms_norm(const float* x, const float* weight, float* y, int64_t n_tokens, int64_t n,
                  float eps) override;
    void add_bias(float* y, const float* bias, int64_t n_tokens, int64_t n) override;
    void add(float* y, const float* x, int64_t n) override;
    void swiglu(const float* gate, const float* up, float* out, int64_t n_rows, int64_t row, Precision precision) override;
    void clamped_swiglu(const float* gate, const float* up, float* out, int64_t n, float alpha, float limit) override;
    void copy_columns(const float* x, int64_t x_stride, float* y, int64_t y_stride, int64_t n_rows, int64_t width) override;
    void kv_read_keys(const KvCache& cache, int64_t layer, std::span<const int32_t> cells, float* out) override;
    void head_matmul(const HeadProduct& product, const float* x, float* y, int64_t n_tokens, int64_t n_head) override;
    void gelu_gate(const float* gate, const float* up, float* out, int64_t n, GeluMode mode) override;
    void scale(float* x, int64_t n, float s) override;
    void softcap(float* x, int64_t n, float cap) override;
    std::string missing_features(const ForwardFeatures& needed) const override;
    void rope(float* x, int64_t n_tokens, int64_t n_heads, int64_t head_dim,
              std::span<const int32_t> positions, const RopeParams& params) override;
    void kv_write(KvCache& cache, int64_t layer, const float* k, const float* v,
                  const KvBatchCells& cells) override;
    void kv_copy(KvCache& cache, int64_t from, int64_t to, int64_t n) override;
    void attention(const KvCache& cache, int64_t layer, const float* q, float* out, const KvBatchCells& cells,
                   const AttentionShape& shape, float* weights, int64_t weights_stride) override;
    void gather_rows(const float* x, std::span<const int32_t> rows, float* out, int64_t n) override;
    void scatter_rows(const float* x, std::span<const int32_t> rows, float* out, int64_t n) override;
    void weighted_sum(const float* x, const float* w, float* out, int64_t n_tokens, int64_t n_slots,
                      int64_t n) override;
    void softmax_rows(float* x, int64_t n_rows, int64_t n) override;
    void scale_head_groups(float* z, const float* scales, int64_t n_tokens, int64_t n_head, int64_t head_dim,
                           int64_t n_groups) override;
    void head_norms(const float* z, const float* grams, float* norms, int64_t n_tokens, int64_t n_head,
                    int64_t head_dim) override;
    void ablate_heads(float* z, std::span<const uint8_t> heads, const float* replacement, int64_t n_tokens,
                      int64_t n_head, int64_t head_dim) override;

    // Called by buffers and caches when they go.
    void release(void* device_ptr);

private:
    CudaBackend(std::shared_ptr<const CudaApi> api, OctoCudaContext* ctx, std::string device_name);

    // Runs one module call unless a failure is already kept; keeps the first one.
    template <class Call>
    bool guarded(Call&& call);
    void not_implemented(const char* op); // the sticky error for an op the module lacks
    const OctoCudaWeight* device_weight(const WeightMatrix& w);
    // p itself when it lies in a buffer of this backend, else a device copy of n host floats.
    const float* device_constant(const float* p, int64_t n);

    std::shared_ptr<const CudaApi> api_;
    OctoCudaContext* ctx_;
    std::string device_name_;
    std::optional<Error> error_;
    std::map<const float*, int64_t> buffers_; // device base -> floats, for device_constant
    // Uploaded weights by host address and rows: a fused tensor's row ranges (e.g. phi3's Q of
    // attn_qkv) start at the tensor's address, so the address alone does not name a matrix.
    std::map<std::pair<const uint8_t*, int64_t>, OctoCudaWeight*> weights_;
    std::unordered_map<const float*, float*> constants_;
    bool reference_noted_ = false; // the exact fallback for reference precision was logged
};

// Why CUDA is disabled in this process (after a sticky error), or empty.
std::string cuda_disabled_reason();

} // namespace octo
