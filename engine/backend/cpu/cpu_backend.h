// The CPU implementation of the Backend table: a thread pool, matrix products through the
// kernel of the chosen instruction path (matmul_kernels.h), and plain C++ for the other ops.
// Work is split so that each output element is computed by one thread in a fixed order:
// results are bit-identical for any thread count and any split of a prompt into batches.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/backend/cpu/activation_quant.h"
#include "engine/backend/cpu/attention_tiles.h"
#include "engine/backend/cpu/cpu_features.h"
#include "engine/backend/cpu/matmul_kernels.h"
#include "engine/backend/cpu/quant_matmul.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/kv/kv_types.h"

namespace octo {

class CpuKvCache;

struct CpuBackendOptions {
    int n_threads = 0;                // <= 0: every hardware thread
    std::optional<CpuPath> path;      // force a kernel path; default: best_cpu_path()
};

class CpuBackend final : public Backend {
public:
    // Errors (InvalidArgument) when a forced path is not supported by this CPU.
    static Result<std::unique_ptr<CpuBackend>> create(const CpuBackendOptions& options = {});

    int n_threads() const { return pool_.n_threads(); }
    CpuPath path() const { return path_; }

    std::string name() const override;
    bool supports(TensorType type) const override;

    std::unique_ptr<DeviceBuffer> allocate(int64_t n_floats) override;
    void read(const float* src, std::span<float> dst) override;
    void write(std::span<const float> src, float* dst) override;
    Result<std::unique_ptr<KvCache>> create_kv_cache(const KvCacheShape& shape) override;
    bool stores_kv(TensorType type) const override {
        return type == TensorType::F32 || type == TensorType::F16 || kv_type_is_quantised(type);
    }

    void embed(const WeightMatrix& table, std::span<const int32_t> tokens, float* out) override;
    void matmul(const WeightMatrix& w, const float* x, float* y, int64_t n_tokens, const ProductPrecision& precision) override;
    void matmuls(std::span<const MatmulOutput> products, const float* x, int64_t n_tokens, const ProductPrecision& precision) override;
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

private:
    CpuBackend(int n_threads, CpuPath path) : pool_(n_threads), path_(path) {}
    template <class Fn>
    void for_each_chunk(int64_t n, Fn&& fn); // cpu_ops.cpp
    void attend_tiles(const CpuKvCache& kv, int64_t layer, const float* q, float* out, const KvBatchCells& cells,
                      const AttentionShape& s, float scale, float* weights, int64_t weights_stride); // cpu_attention.cpp
    LayerRows readable_rows(const CpuKvCache& kv, int64_t layer, std::span<const int32_t> read_cells);

    // One form of a matmuls() call's activations (cpu_backend.cpp): rows of `format`, `bytes` per
    // token, or (prepare set) those rows (forms_[source]) in a kernel's layout, `bytes` in all.
    struct ActivationForm {
        ActivationFormat format = ActivationFormat::F32;
        void (*prepare)(const QuantMatmulArgs& args, int64_t token, uint8_t* prepared) = nullptr;
        int64_t bytes = 0;
        int source = -1;
        const WeightMatrix* w = nullptr; // a product using the layout (prepare reads its shape)
        uint8_t* data = nullptr;
    };
    // How one product of a matmuls() call runs: its kernel, its forms, its row chunks (tasks
    // first_task .. of the call's job).
    struct ProductPlan {
        MatmulRowsKernel rows_kernel = nullptr; // F32 / F16 / BF16 activations
        QuantKernel quant_kernel;               // quantised activations
        int input = -1;                         // forms_ index of its rows (-1: x itself)
        int prepared = -1;                      // forms_ index of its kernel's layout, if any
        int64_t rows_per_task = 1;
        int64_t first_task = 0;
    };

    ThreadPool pool_;
    CpuPath path_;
    std::vector<ActivationForm> forms_; // of the current matmuls() call
    std::vector<ProductPlan> plans_;
    std::vector<std::vector<float>> scratch_; // [n_threads][n_cells] attention scores
    std::vector<AttentionTileScratch> tile_scratch_;         // [n_threads]
    std::vector<std::vector<AttentionQuery>> tile_queries_;  // [n_threads] the current tile's queries
    std::vector<float> widened_;    // F16 keys or values of a layer as floats (readable_rows)
    std::vector<int32_t> identity_; // ... position p in row p of each head
    // The activations of one matmuls() call in each form its products read (cpu_backend.cpp):
    // [n_tokens, n_in] rounded to fp16/bf16, or [n_tokens][row bytes] quantised to Q8_0/Q8_1/Q8_K,
    // or that in a kernel's own layout (QuantKernel::prepare); one buffer per form of the call.
    std::vector<std::vector<uint8_t>> activations_;
};

} // namespace octo
