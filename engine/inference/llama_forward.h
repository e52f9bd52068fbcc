// The transformer forward pass of every supported architecture (model/architecture.h), written
// only in Backend ops. The architectures differ in the flags of their ArchitectureInfo row,
// never in names compared here:
//
//   x = embed(tokens)                                      // [n, n_embd]
//   per layer:
//     h = rms_norm(x) · attn_norm
//     q, k, v = h · Wqᵀ (+bq), h · Wkᵀ (+bk), h · Wvᵀ (+bv)   // q [n, n_head·head_dim]; biases: qkv_bias;
//                                                         // fused_qkv: Wq, Wk, Wv are row ranges of attn_qkv
//     q_h = rms_norm(q_h) · q_norm, k_h likewise          // QkNorm::PerHead (Whole: all of q, all of k)
//     rope(q), rope(k)                                    // (2i, 2i+1) pairs, or NeoX (i, i + n_rot/2);
//                                                         // factors: rope_freqs or LongRoPE by context
//     kv_write(k, v); a = attention(q, cache)             // grouped-query, causal, paged cells
//     a_h *= softmax(h · Rᵀ)[group(h)]                     // router (octet); 0 at position 0
//     ablate_heads(a), head_norms(a)                      // only when configured
//     x += a · Woᵀ
//     h = rms_norm(x) · ffn_norm
//     x += (silu(h · Wgateᵀ) * (h · Wupᵀ)) · Wdownᵀ       // fused_gate_up: row ranges of ffn_up;
//                                                         // experts: moe_block.h
//   logits = (rms_norm(x) · output_norm) · Woutputᵀ      // only for the rows asked for
//
// Gemma 2 adds: x = embed(tokens) · √n_embd; attention scores soft-capped (c · tanh(s / c)) and,
// on sliding layers (ModelParams::layer_window), limited to the last `window` positions; each
// block's output RMS-normalised (post_attention_norm, post_ffw_norm) before its residual add;
// GELU instead of SiLU in the FFN (the reference's fp16 table at reference precision); the
// logits soft-capped. Phi-3's window applies to every layer. Gemma 3 drops the soft-caps, adds
// per-head q/k norms and slides five of every six layers, which rotate with a base of their own.
// gpt-oss slides the even layers, adds a bias after W_O (not a head's contribution: the
// instrumentation leaves it out), gives each head a sink logit in its softmax (AttentionShape::
// sinks; probes get the sink's weight) and runs biased experts with the clamped SwiGLU.
//
// deepseek2's multi-head latent attention (published definition, nope = head_dim - n_rot):
//   q = rms_norm(h · Wq_aᵀ) · q_a_norm · Wq_bᵀ     // [n, n_head, nope | n_rot] (or h · Wqᵀ)
//   c, k_r = h · Wkv_aᵀ                            // c [n, n_lora_kv], k_r [n, n_rot] shared by all heads
//   c = rms_norm(c) · kv_a_norm; rope(q_r), rope(k_r)
//   head h: k_h = [Wk_h c | k_r], v_h = Wv_h c     // Wk_h, Wv_h: head h's rows of attn_kv_b
//           a_h = softmax(q_h · k_h · scale) · v_h // scale mscale² / √head_dim (YaRN's mscale, else 1)
// computed in the absorbed form: the cache holds only [k_r | c] per position (one row, keys and
// values at once), the query becomes q̃_h = [q_r,h | Wk_hᵀ q_nope,h] so that q̃_h · [k_r | c] = q_h · k_h,
// attention over the latent gives o_h = Σ w c, and a_h = Wv_h o_h. Every head's a_h is a
// head_dim_v slice of the attention output, as in the other architectures: "a head" for the
// instrumentation (norms, outputs, ablation, attribution) is that slice.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/core/result.h"
#include "engine/inference/moe_block.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/model/model.h"

namespace octo {

// Rows [first_row, first_row + n_rows) of a batch that holds several sequences (a server's
// continuous batching): they attend to `read_cells`, that sequence's cells, instead of the
// batch's read_cells.
struct BatchSequence {
    int64_t first_row = 0;
    int64_t n_rows = 0;
    std::span<const int32_t> read_cells; // [positions reached] of that sequence
    int64_t prompt_batch_end = 0;        // of that sequence (KvBatchCells::prompt_batch_end)
};

// The weight matrices of one layer as the backend multiplies them (fused tensors split into
// their row ranges: each output row of a product depends only on its weight row).
struct LayerMatrices {
    WeightMatrix q, k, v, output, gate, up, down;
    WeightMatrix q_a, kv_a; // latent attention: attn_q_a (with q_lora_rank), attn_kv_a_mqa; q: attn_q_b or attn_q
};

class LlamaForward {
public:
    // Buffers for batches of up to n_batch tokens; every matrix product at `precision`. n_ctx:
    // the positions a sequence may reach (chooses LongRoPE's factors, as llama.cpp does).
    LlamaForward(const Model& model, Backend& backend, int64_t n_batch, Precision precision, int64_t n_ctx);

    Precision precision() const { return precision_; }

    // Turns on measurements and ablation (both off by default). Computes the heads' Gram
    // matrices when norms are asked for. InvalidArgument when the ablation's sizes do not match
    // the model ([n_layer][n_head] heads; Mean: [n_layer][n_embd] baseline; [n_layer][n_expert]
    // experts, only on a model with experts).
    Status configure(const InstrumentOptions& options, const HeadAblation& ablation, const ExpertAblation& experts = {});

    // Runs tokens[n] at cells.positions[n] (n <= n_batch) through every layer, storing their keys
    // and values in cells.write_cells of `cache`, and writes the logits of the last n_logit_rows
    // tokens into logits[n_logit_rows, n_vocab] (host). Checks `cancel` between layers. With
    // measurements configured or a router, probes[n] receive the tokens' values.
    // With `sequences` (covering every row, in order), the batch holds several sequences and each
    // row attends only to its own (cells.read_cells is not used); every row's values are those of
    // a batch of that row alone. InvalidArgument when attention weights are recorded then.
    Status run(std::span<const int32_t> tokens, const KvBatchCells& cells, KvCache& cache, int64_t n_logit_rows,
               std::span<float> logits, const std::atomic<bool>* cancel, std::span<TokenProbe> probes = {},
               std::span<const BatchSequence> sequences = {});

private:
    void attention_block(const LayerWeights& lw, const LayerMatrices& m, int64_t layer, int64_t n, const KvBatchCells& cells,
                         KvCache& cache, std::span<TokenProbe> probes, std::span<const BatchSequence> sequences);
    // Latent attention's queries and cache rows, attention over the latent, and each head's
    // output expanded into attn_ (the absorbed form; see the opening comment).
    void latent_attention(const LayerWeights& lw, const LayerMatrices& m, int64_t layer, int64_t n,
                          const KvBatchCells& cells, KvCache& cache, float* weights, int64_t weights_stride,
                          std::span<const BatchSequence> sequences);
    bool expanded_is_cheaper(const KvBatchCells& cells) const;
    bool expanded_attention(int64_t layer, int64_t n, const KvBatchCells& cells, const KvCache& cache, float* weights,
                            int64_t weights_stride);
    // The most the expanded form's scratch may take; longer contexts keep the absorbed form.
    static constexpr int64_t kExpandedScratchBytes = int64_t{256} << 20;
    void route(const LayerWeights& lw, int64_t layer, int64_t n, const KvBatchCells& cells,
               std::span<TokenProbe> probes);
    void probe(int64_t layer, int64_t n, const KvBatchCells& cells, std::span<TokenProbe> probes);
    void probe_final_scale(int64_t n, std::span<TokenProbe> probes);
    void probe_post_norm_scale(int64_t layer, int64_t n, std::span<TokenProbe> probes);
    void probe_hidden(int64_t n, std::span<TokenProbe> probes);
    void probe_layer_hidden(int64_t layer, int64_t n, std::span<TokenProbe> probes);
    void ffn_block(const LayerWeights& lw, const LayerMatrices& m, int64_t layer, int64_t n, std::span<TokenProbe> probes);

    const Model& model_;
    Backend& backend_;
    int64_t n_embd_;
    int64_t n_q_;       // n_head * head_dim_v: the attention output (= the queries' width but under latent attention)
    int64_t n_embd_kv_; // n_head_kv * head_dim
    int64_t n_ff_;
    int64_t n_vocab_;
    RopeParams rope_;
    RopeParams rope_local_; // sliding layers' (rope_ unless the model has a local base)
    AttentionShape attn_shape_; // window 0: each layer sets its own (ModelParams::layer_window); head_dim: head_dim_v
    AttentionShape latent_shape_; // latent attention: n_head queries over one [n_rot | latent] row per position
    GeluMode gelu_mode_;        // the reference's fp16 table at reference precision
    float eps_;
    int64_t n_layer_;
    int64_t n_ctx_;
    int64_t n_batch_;
    Precision precision_;
    std::vector<LayerMatrices> matrices_; // [n_layer]
    // Per row of the batch being run: whether the reference multiplies it in a batch
    // (ProductPrecision::batched) — before the last layer's feed-forward, and from there on (where
    // the reference keeps only the rows whose logits are asked: the prompt's last one is alone).
    std::vector<uint8_t> batched_;
    std::vector<uint8_t> batched_last_;

    InstrumentOptions instrument_;
    HeadAblation ablation_;                          // heads empty: nothing ablated
    std::vector<std::unique_ptr<DeviceBuffer>> grams_; // [n_layer] of [n_head, head_dim, head_dim]
    std::unique_ptr<DeviceBuffer> gates_;            // [n_batch, n_router_groups] (models with a router)
    std::vector<float> host_gates_;                  // [n_batch, n_router_groups]
    std::unique_ptr<DeviceBuffer> attn_weights_;     // [n_batch, n_head, stride] (record attention)
    std::unique_ptr<DeviceBuffer> baseline_;         // [n_layer, n_q] mean-ablation values
    std::unique_ptr<DeviceBuffer> norms_;            // [n_batch, n_head]
    std::vector<float> host_;                        // [n_batch, max(n_embd, n_q)] staging for reads (when probing)

    std::unique_ptr<DeviceBuffer> x_;      // [n_batch, n_embd] residual stream
    std::unique_ptr<DeviceBuffer> normed_; // [n_batch, n_embd]
    std::unique_ptr<DeviceBuffer> q_;      // [n_batch, n_head, head_dim]
    std::unique_ptr<DeviceBuffer> k_;      // [n_batch, n_head_kv, head_dim]
    std::unique_ptr<DeviceBuffer> v_;      // [n_batch, n_head_kv, head_dim]
    std::unique_ptr<DeviceBuffer> attn_;   // [n_batch, n_head, head_dim]
    std::unique_ptr<DeviceBuffer> proj_;   // [n_batch, n_embd]
    std::unique_ptr<DeviceBuffer> gate_;   // [n_batch, n_ff]
    std::unique_ptr<DeviceBuffer> up_;     // [n_batch, n_ff]
    std::unique_ptr<DeviceBuffer> logits_; // [logits_rows_, n_vocab], grown to the most rows asked for
    std::unique_ptr<MoeBlock> moe_;        // mixture-of-experts models: the FFN (of the layers with experts)
    // Latent attention (empty otherwise):
    std::unique_ptr<DeviceBuffer> q_low_;  // [n_batch, n_lora_q] the queries' low-rank part
    std::unique_ptr<DeviceBuffer> kv_low_; // [n_batch, n_lora_kv + n_rot] attn_kv_a_mqa's output
    std::unique_ptr<DeviceBuffer> latent_; // [n_batch, n_lora_kv] normalised latent
    std::unique_ptr<DeviceBuffer> q_lat_;  // [n_batch, n_head, n_rot + n_lora_kv] absorbed queries
    std::unique_ptr<DeviceBuffer> o_lat_;  // [n_batch, n_head, n_rot + n_lora_kv] attention over the latent
    std::vector<std::unique_ptr<DeviceBuffer>> latent_keys_;   // [n_layer] of [n_head, n_lora_kv, nope]
    std::vector<std::unique_ptr<DeviceBuffer>> latent_values_; // [n_layer] of [n_head, head_dim_v, n_lora_kv]
    std::vector<std::unique_ptr<DeviceBuffer>> latent_expand_; // [n_layer] of [n_head, nope, n_lora_kv]
    Status latent_status_ = Ok{}; // why the projections could not be made
    // The expanded form's scratch (expanded_attention): per-head keys and values of every seen
    // position in a cache of one layer, the cached latent read back, the queries and outputs.
    std::unique_ptr<KvCache> expanded_cache_;
    std::unique_ptr<DeviceBuffer> expanded_rows_, expanded_k_, expanded_v_, q_exp_, o_exp_;
    std::vector<int32_t> identity_; // 0, 1, 2, … : the scratch cache's cells
    bool expanded_batch_ = false;   // the batch being run takes the expanded form (expanded_is_cheaper)
    int64_t logits_rows_ = 0;
};

// What running `model` with sessions of n_ctx positions asks of a backend beyond the llama
// block (a window no shorter than the context masks nothing and is not asked for).
ForwardFeatures forward_features(const Model& model, int64_t n_ctx);

// The backend's view of a weight matrix tensor [n_in, n_out] (GGUF ne order).
WeightMatrix weight_matrix(const GgufTensorInfo& t);
// Rows [first, first + n) of it. Both mark what the reference does with the whole tensor
// (WeightMatrix::reference_blockwise, reference_tiled).
WeightMatrix weight_rows(const GgufTensorInfo& t, int64_t first, int64_t n);

// The matrices of every layer of `model`, fused tensors split.
std::vector<LayerMatrices> layer_matrices(const Model& model);

} // namespace octo
