// The operations a forward pass needs, as one table a backend implements. The CPU backend
// (backend/cpu/) is the reference; a CUDA backend implements the same table and is tested op by
// op against it. The forward pass (inference/) reaches activations only through these calls:
// activation buffers come from allocate(), and logits leave through read().
//
// Shapes are written innermost last, as C arrays: x[n_tokens, n_in] is n_tokens rows of n_in
// floats. Weight matrices keep the GGUF layout: W[n_out, n_in], one row per output, each row in
// the weight type's block layout.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/gguf/tensor_type.h"

namespace octo {

// A weight matrix W[n_out, n_in] as stored in the model file (memory-mapped, never copied).
struct WeightMatrix {
    TensorType type = TensorType::F32;
    const uint8_t* data = nullptr; // [n_out][row_bytes]
    int64_t n_in = 0;              // values per row (GGUF ne[0])
    int64_t n_out = 0;             // rows (GGUF ne[1])
    uint64_t row_bytes = 0;        // bytes per row in the type's layout
    // Q4_0 only: llama.cpp's x86 builds repack such a matrix into interleaved rows of 8 (when its
    // tensor has a multiple of 8 rows), and their repacked kernels add each 32-value block's
    // whole integer sum with one fused multiply-add. Reference precision then takes that order
    // (quant_matmul.h); weight_rows() sets it from the tensor.
    bool reference_blockwise = false;
    // F32 / F16 / BF16 and IQ4_NL only: whether the reference multiplies a batch of two or more
    // tokens with its tiled product (its tensor is a plain matrix, not the experts of a mixture;
    // float rows a multiple of 8 values long and a row count a multiple of 4); otherwise, and for
    // a token alone, it takes its dot product (ProductPrecision). weight_rows() sets it.
    bool reference_tiled = false;
};

// The precision of one matrix product (precision.h). At reference precision, F32 / F16 / BF16
// weights are summed per token in one of the reference's two float orders: its tiled product for
// a token it evaluates in a batch of two or more (`batched[t]` = 1, where the matrix is
// reference_tiled), its dot product for a token it evaluates alone (0; every token when
// `batched` is empty). Which tokens are batched is a property of the sequence (the prompt, as
// KvBatchCells::prompt_batch_end says), not of how Octoscope batches them, so logits do not
// depend on the split. Quantised weights other than IQ4_NL and exact precision ignore `batched`.
struct ProductPrecision {
    ProductPrecision(Precision p = Precision::Exact, std::span<const uint8_t> b = {}) : precision(p), batched(b) {}
    Precision precision;
    std::span<const uint8_t> batched; // [n_tokens] or empty
};

// One product of Backend::matmuls(): y[n_tokens, w->n_out] = x · wᵀ.
struct MatmulOutput {
    const WeightMatrix* w = nullptr;
    float* y = nullptr; // backend address
};

// Activations owned by a backend (host memory on the CPU, device memory on a GPU).
class DeviceBuffer {
public:
    virtual ~DeviceBuffer() = default;
    virtual float* data() = 0; // backend address: pass it to ops, never dereference it
    virtual int64_t size() const = 0; // floats
};

// Rotary position embedding of one head_dim-wide head.
enum class RopeLayout {
    Normal, // pairs (x[2i], x[2i+1])            — llama
    NeoX,   // pairs (x[i], x[i + n_rot / 2])    — qwen2, qwen3, phi3
};

struct RopeParams {
    RopeLayout layout = RopeLayout::Normal;
    int64_t n_rot = 0;            // rotated dims per head (even, <= head_dim); the rest pass through
    double freq_base = 10000.0;   // theta_i = pos * freq_scale * freq_base^(-2i / n_rot) / freq_factors[i]
    double freq_scale = 1.0;      // linear position scaling (1 / rope.scaling.factor)
    const float* freq_factors = nullptr; // [n_rot / 2] (`rope_freqs`, LongRoPE's factors), or null for all 1
    float attn_factor = 1.0f;     // multiplies cos(theta) and sin(theta), in float (LongRoPE's attention factor)
    // false (exact precision): each theta_i from freq_base^(-2i / n_rot) in double, each rotated
    // pair as two products and a sum. true (reference precision: the rounding llama.cpp-based tools
    // compute with): the reference's float recurrence theta_i = theta_(i-1) * freq_base^(-2 / n_rot)
    // from theta_0 = pos, and each pair rotated as its build computes it — GCC with the CPU's FMA
    // fuses the first product of a·b ± c·d: x0·cos − x1·sin = fma(x0, cos, −(x1·sin)),
    // x0·sin + x1·cos = fma(x0, sin, x1·cos) (YaRN's angle mix and scale likewise). The CUDA backend,
    // which runs reference precision as exact, computes the exact angles either way.
    bool reference_steps = false;
    // YaRN (ext_factor > 0): pair i's angle mixes the interpolated angle (theta · freq_scale) and
    // the original one (theta) by ramp_i · ext_factor, ramp_i = 1 - clamp((i - corr_low) /
    // max(0.001, corr_high - corr_low), 0, 1), and cos and sin are multiplied by
    // attn_factor · (1 + 0.1 ln(1 / freq_scale)). yarn_corr_dims() gives corr_low/high.
    float ext_factor = 0.0f;
    float corr_low = 0.0f;
    float corr_high = 0.0f;
};

// YaRN's correction range over the n_rot / 2 pairs for a model trained on n_ctx_orig positions
// (beta_fast 32 and beta_slow 1 rotations, as the published method and llama.cpp use):
// [max(0, floor(d(32))), min(n_rot - 1, ceil(d(1)))], d(b) = n_rot · ln(n_ctx_orig / (2π b)) / (2 ln base).
void yarn_corr_dims(int64_t n_rot, int64_t n_ctx_orig, double freq_base, float& low, float& high);

// Key/value storage: n_layer x n_cells cells of n_head_kv * head_dim floats for keys and the
// same for values. Which cell holds which position of which sequence is decided outside the
// backend (kv/kv_pool.h, a paged pool of fixed-size blocks); ops take the cells explicitly.
struct KvCacheShape {
    int64_t n_layer = 0;
    int64_t n_cells = 0;   // positions it can hold, over all sequences
    int64_t n_head_kv = 0;
    int64_t head_dim = 0;
    // How keys and values are stored (the reference's cache types): F32, or F16 — written rounded
    // to nearest; at reference precision attention then treats them as the reference does (the
    // query rounded to F16 for an F16 key, the softmax weights for an F16 value).
    TensorType k_type = TensorType::F32;
    TensorType v_type = TensorType::F32;
    // Latent attention: a cell's key row is also its value row (no value storage; v_type is
    // k_type). attention() then weights the key rows themselves.
    bool values_in_keys = false;
};

class KvCache {
public:
    virtual ~KvCache() = default;
    virtual const KvCacheShape& shape() const = 0;
    virtual int64_t bytes() const = 0;
};

// One batch of one sequence: token i of the batch is at positions[i] and is written to cell
// write_cells[i]; attention reads position p (0 <= p <= max(positions)) from cell read_cells[p].
struct KvBatchCells {
    std::span<const int32_t> positions;   // [n_tokens]
    std::span<const int32_t> write_cells; // [n_tokens]
    std::span<const int32_t> read_cells;  // [n_positions] of the sequence, max(positions) < n_positions
    // Reference precision: positions before it belong to a prompt of two or more tokens, which the
    // reference evaluates as one batch; attention sums their values in its batched order, and the
    // values of later positions (generated tokens, which it evaluates one at a time) in its
    // one-token order (reference_float.h: ValueSumOrder). A property of the sequence, not of how
    // its tokens are batched, so any split gives the same logits.
    int64_t prompt_batch_end = 0;
};

// Grouped-query attention: query head h reads kv head h / (n_head / n_head_kv).
struct AttentionShape {
    int64_t n_head = 0;
    int64_t n_head_kv = 0;
    int64_t head_dim = 0;
    float scale = 0.0f;   // scores are q·k · scale; 0: 1 / sqrt(head_dim)
    float softcap = 0.0f; // > 0: scores become softcap · tanh(scores / softcap) before the softmax (gemma2)
    int64_t window = 0;   // > 0: the query at p sees only positions j with p - j < window (sliding window)
    // Reference: q·k, the softmax's exp and sums and the weighted values as the reference computes
    // them (engine/backend/cpu/reference_float.h); Exact: the C library's exp, eight-lane dots.
    Precision precision = Precision::Exact;
    // Reference precision: the queries are multiplied by the scale before q·k, not the scores
    // (the reference does so for phi3 and gemma: ArchitectureInfo::scales_queries).
    bool scale_queries = false;
    // [n_head] (host) or null: query head h's softmax has one more logit, sinks[h], in its
    // denominator and maximum, with no value (gpt-oss's attention sinks); the weights then sum to
    // less than 1, the rest being the sink's.
    const float* sinks = nullptr;
};

// How gelu_gate computes GELU (tanh form).
enum class GeluMode {
    Exact,       // 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))) in float
    F16Rounding, // the reference's table: x rounded to fp16, the fp16 value of GELU(x) returned;
                 // x <= -10 gives 0, x >= 10 gives x (reference precision)
};

// What a forward pass asks of a backend beyond the llama block's ops; a backend without one
// says so before a model that needs it is run there (Backend::missing_features).
struct ForwardFeatures {
    bool gelu = false;           // gelu_gate
    bool softcap = false;        // softcap, AttentionShape::softcap
    bool sliding_window = false; // AttentionShape::window
    bool scale = false;          // scale
    bool yarn = false;           // RopeParams::ext_factor
    bool experts = false;        // gather_rows, scatter_rows, weighted_sum (mixture of experts)
    bool sinks = false;          // AttentionShape::sinks
    bool clamped_swiglu = false; // clamped_swiglu
    bool latent_attention = false; // head_matmul, copy_columns, KvCacheShape::values_in_keys
    std::vector<TensorType> weight_types; // of the matrices matmul() and embed() take, each once
};

class Backend {
public:
    virtual ~Backend() = default;

    virtual std::string name() const = 0;
    // Whether matmul() and embed() accept weights of this type.
    virtual bool supports(TensorType type) const = 0;
    // The first failure of an operation (a device error; the ops return nothing). After one,
    // later operations do nothing and read() yields NaN. The CPU backend never fails.
    virtual Status status() const { return Ok{}; }
    // The features of `needed` this backend lacks, in words ("soft-capping, IQ4_XS weights");
    // empty: it runs them all. This default names the weight types supports() refuses; a backend
    // that lacks ops as well lists those first and then these (missing_weight_types).
    virtual std::string missing_features(const ForwardFeatures& needed) const { return missing_weight_types(needed); }

    // "IQ4_XS weights, Q2_K weights": the weight types of `needed` that supports() refuses.
    std::string missing_weight_types(const ForwardFeatures& needed) const;

    // --- memory -------------------------------------------------------------------------------
    virtual std::unique_ptr<DeviceBuffer> allocate(int64_t n_floats) = 0;
    // Copies n floats starting at src (a backend address) into host memory.
    virtual void read(const float* src, std::span<float> dst) = 0;
    // Copies host floats into dst (a backend address) — constants such as head Gram matrices.
    virtual void write(std::span<const float> src, float* dst) = 0;
    virtual Result<std::unique_ptr<KvCache>> create_kv_cache(const KvCacheShape& shape) = 0;
    // Whether create_kv_cache stores keys or values of `type` (F32 always).
    virtual bool stores_kv(TensorType type) const { return type == TensorType::F32; }

    // --- operations ---------------------------------------------------------------------------
    // out[n_tokens, table.n_in] = rows tokens[i] of table[n_vocab, n_embd]; ids already checked.
    virtual void embed(const WeightMatrix& table, std::span<const int32_t> tokens, float* out) = 0;

    // y[n_tokens, w.n_out] = x[n_tokens, w.n_in] · Wᵀ, with the activations treated as
    // `precision` says (precision.h). Each y element is reduced in one fixed order, the same for
    // any n_tokens and any thread count. A backend without reference kernels computes exact.
    virtual void matmul(const WeightMatrix& w, const float* x, float* y, int64_t n_tokens,
                        const ProductPrecision& precision) = 0;

    // Several products of one x[n_tokens, n_in] (every w->n_in the same: a layer's q, k and v;
    // gate and up), each computed exactly as matmul() computes it. A backend may round or
    // quantise x once for all of them and share out their rows as one job.
    virtual void matmuls(std::span<const MatmulOutput> products, const float* x, int64_t n_tokens,
                         const ProductPrecision& precision) {
        for (const MatmulOutput& p : products) matmul(*p.w, x, p.y, n_tokens, precision);
    }

    // y[n_tokens, n] = x / sqrt(mean(x²) + eps) * weight[n], per row. y may alias x.
    virtual void rms_norm(const float* x, const float* weight, float* y, int64_t n_tokens, int64_t n,
                          float eps) = 0;

    // y[n_tokens, n] += bias[n]
    virtual void add_bias(float* y, const float* bias, int64_t n_tokens, int64_t n) = 0;

    // y[n] += x[n] (the residual stream)
    virtual void add(float* y, const float* x, int64_t n) = 0;

    // out[n_rows, row] = silu(gate) * up, element by element; out may alias gate. Reference
    // precision: silu's exp as the reference computes it row by row (its vector exp over whole
    // groups of eight from a row's start, the C library's expf for the rest), Exact: expf.
    virtual void swiglu(const float* gate, const float* up, float* out, int64_t n_rows, int64_t row,
                        Precision precision) = 0;

    // out[n] = g · sigmoid(alpha · g) · (u + 1) with g = min(gate[n], limit) and u = clamp(up[n],
    // ±limit), element by element in float, sigmoid as 1 / (1 + expf(-alpha · g)) (gpt-oss); out may
    // alias gate.
    virtual void clamped_swiglu(const float* gate, const float* up, float* out, int64_t n, float alpha, float limit) = 0;

    // out[n] = gelu(gate[n]) * up[n] (tanh form, computed as `mode` says); out may alias gate
    virtual void gelu_gate(const float* gate, const float* up, float* out, int64_t n, GeluMode mode) = 0;

    // x[n] *= s
    virtual void scale(float* x, int64_t n, float s) = 0;

    // y[r, 0..width) = x[r, 0..width) for every row r < n_rows, the rows x_stride and y_stride
    // floats apart (x and y do not overlap): a strided block copy.
    virtual void copy_columns(const float* x, int64_t x_stride, float* y, int64_t y_stride, int64_t n_rows,
                              int64_t width) = 0;

    // One small product per head (latent attention's absorbed projections): for every token
    // t < n_tokens and head h < n_head, y[t, h, 0..n_out) = W_h · x[t, h, 0..n_in), where
    // w[n_head, n_out, n_in] (a backend address), x[t, h, :] starts at x + t·x_stride + h·x_head
    // and y[t, h, :] at y + t·y_stride + h·y_head. Each value is one dot product over n_in,
    // reduced in a fixed order (any thread count).
    struct HeadProduct {
        const float* w = nullptr;
        int64_t n_in = 0, n_out = 0;
        int64_t x_stride = 0, x_head = 0;
        int64_t y_stride = 0, y_head = 0;
    };
    virtual void head_matmul(const HeadProduct& product, const float* x, float* y, int64_t n_tokens, int64_t n_head) = 0;

    // x[n] = cap · tanh(x[n] / cap), with x / cap computed as x · (1 / cap) (final logit soft-capping)
    virtual void softcap(float* x, int64_t n, float cap) = 0;

    // Rotates x[n_tokens, n_heads, head_dim] in place; token i is at positions[i].
    virtual void rope(float* x, int64_t n_tokens, int64_t n_heads, int64_t head_dim,
                      std::span<const int32_t> positions, const RopeParams& params) = 0;

    // Stores k, v [n_tokens, n_head_kv * head_dim] of layer `layer` in cells.write_cells[i].
    virtual void kv_write(KvCache& cache, int64_t layer, const float* k, const float* v,
                          const KvBatchCells& cells) = 0;

    // out[i, :] = the key row of `cells[i]` in layer `layer` as floats (n_head_kv * head_dim values,
    // F16 widened, quantised rows dequantised): latent attention's expanded form reads the cached
    // latent back this way.
    virtual void kv_read_keys(const KvCache& cache, int64_t layer, std::span<const int32_t> cells, float* out) = 0;

    // Copies cells [from, from + n) to [to, to + n) in every layer, keys and values
    // (the pool's copy-on-write of a shared block).
    virtual void kv_copy(KvCache& cache, int64_t from, int64_t to, int64_t n) = 0;

    // Causal attention: query i (at positions[i]) attends to positions 0..positions[i] (the last
    // shape.window of them with a window), read through cells.read_cells.
    // q[n_tokens, n_head, head_dim] -> out[n_tokens, n_head, head_dim]; softmax(q·k · scale),
    // soft-capped first when shape.softcap > 0, with each head's sink logit when shape.sinks is set.
    // Masked positions get weight 0. With `weights` (optional), also writes the softmax weights:
    // weights[n_tokens, n_head, weights_stride], position p at index p, zeros past positions[i]
    // (weights_stride >= max(positions) + 1).
    virtual void attention(const KvCache& cache, int64_t layer, const float* q, float* out,
                           const KvBatchCells& cells, const AttentionShape& shape, float* weights = nullptr,
                           int64_t weights_stride = 0) = 0;

    // --- mixture of experts (inference/moe_block.h) ----------------------------------------------
    // out[i, :] = x[rows[i], :] for every i (rows of n floats; rows on the host): the tokens an
    // expert was chosen for, gathered into one batch.
    virtual void gather_rows(const float* x, std::span<const int32_t> rows, float* out, int64_t n) = 0;
    // out[rows[i], :] = x[i, :]: an expert's outputs back into their tokens' slots.
    virtual void scatter_rows(const float* x, std::span<const int32_t> rows, float* out, int64_t n) = 0;
    // out[t, :] = Σ_s w[t, s] · x[t, s, :] for x[n_tokens, n_slots, n], w[n_tokens, n_slots]: each
    // product rounded to float, the first one taken as it is and the others added in slot order.
    virtual void weighted_sum(const float* x, const float* w, float* out, int64_t n_tokens, int64_t n_slots,
                              int64_t n) = 0;

    // x[n_rows, n] = softmax of each row (max-subtracted, in float).
    virtual void softmax_rows(float* x, int64_t n_rows, int64_t n) = 0;

    // z[t, h, :] *= scales[t, h / (n_head / n_groups)] for every token and head: a router's
    // gates scaling its head groups (n_groups divides n_head).
    virtual void scale_head_groups(float* z, const float* scales, int64_t n_tokens, int64_t n_head,
                                   int64_t head_dim, int64_t n_groups) = 0;

    // --- instrumentation (docs/instrumentation.md) ---------------------------------------------
    // Per-head contribution norms ‖W_h z_h‖ = sqrt(z_hᵀ G_h z_h): z[n_tokens, n_head, head_dim]
    // (the attention output), grams[n_head, head_dim, head_dim] (G_h = W_hᵀ W_h) ->
    // norms[n_tokens, n_head]. Each norm is reduced in one fixed order (any thread count).
    virtual void head_norms(const float* z, const float* grams, float* norms, int64_t n_tokens,
                            int64_t n_head, int64_t head_dim) = 0;

    // Ablation: for every head h with heads[h] != 0 (host, [n_head]) and every token,
    // z[t, h, :] = replacement[h, :] (replacement [n_head, head_dim]; null: zeros).
    virtual void ablate_heads(float* z, std::span<const uint8_t> heads, const float* replacement,
                              int64_t n_tokens, int64_t n_head, int64_t head_dim) = 0;
};

} // namespace octo
