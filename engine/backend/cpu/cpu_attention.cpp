// KV writes, copies and causal grouped-query attention over the paged KV cache (positions reach
// their cells through the batch's read_cells). At reference precision the work is split into
// tiles of queries sharing a kv head (attention_tiles.h); at exact precision by (token, query
// head), each output row reduced over positions 0..p in order by one thread.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "engine/backend/cpu/attention_tiles.h"
#include "engine/backend/cpu/cpu_backend.h"
#include "engine/backend/cpu/cpu_features.h"
#include "engine/backend/cpu/cpu_kv_cache.h"
#include "engine/backend/cpu/lane_dot.h"
#include "engine/backend/cpu/reference_float.h"
#include "engine/core/half.h"
#include "engine/gguf/dequantize.h"
#include "engine/gguf/quantize.h"

namespace octo {

namespace {


// One query head of one token: scores over positions 0..n_seen-1 (key and value rows of its kv
// head through `rows`), softmax, the weighted sum of values into oh[head_dim]; optionally the
// weights into w[weights_stride]. Positions before `first` are masked (a sliding window): weight 0.
OCTO_FMA_CLONES
void attend(const AttentionRows& rows, const float* qh, int64_t first, int64_t n_seen, int64_t head_dim, float scale,
            float softcap, float sink, float* scores, float* oh, float* w, int64_t weights_stride) {
    float max_score = sink; // -inf without a sink
    const float inv_cap = softcap > 0.0f ? 1.0f / softcap : 0.0f;
    for (int64_t p = 0; p < first; ++p) scores[p] = 0.0f;
    for (int64_t p = first; p < n_seen; ++p) {
        const float* kp = rows.k + rows.cell[p] * rows.stride; // [head_dim]
        float s = lane8_dot(qh, kp, head_dim) * scale;
        if (softcap > 0.0f) s = std::tanh(s * inv_cap) * softcap; // as the reference: scale, tanh, scale
        scores[p] = s;
        max_score = std::max(max_score, s);
    }
    // Weights normalised before they weight the values (p = e * (1 / sum), the sum in double), the
    // order the reference computes in.
    double sum = 0.0;
    for (int64_t p = first; p < n_seen; ++p) {
        scores[p] = std::exp(scores[p] - max_score);
        sum += static_cast<double>(scores[p]);
    }
    sum += softmax_sink_term(sink, max_score); // the sink's share, last
    const auto inv_sum = static_cast<float>(1.0 / sum);
    for (int64_t p = first; p < n_seen; ++p) scores[p] *= inv_sum;
    std::fill(oh, oh + head_dim, 0.0f);
    for (int64_t p = first; p < n_seen; ++p) {
        const float* vp = rows.v + rows.cell[p] * rows.stride; // [head_dim]
        const float sp = scores[p];
        for (int64_t d = 0; d < head_dim; ++d) oh[d] += sp * vp[d];
    }
    if (w) {
        std::copy(scores, scores + n_seen, w);
        std::fill(w + n_seen, w + weights_stride, 0.0f);
    }
}

inline float round_f16(float x) { return fp16_to_fp32(fp32_to_fp16(x)); }

// attend() at reference precision: every float step as the reference computes it
// (reference_float.h), the values summed in the order `order` names; with F16 keys (k_half) the
// query rounded to F16 and a batched query's scores in the tiled product's order, with F16 values
// (v_half) the weights rounded to F16 (attention_tiles.h computes the same in tiles).
void attend_reference(const AttentionRows& rows, const float* qh, int64_t first, int64_t n_seen, int64_t head_dim,
                      float scale, bool scale_queries, float softcap, float sink, bool k_half, bool v_half,
                      ValueSumOrder order, float* scores, float* oh, float* w, int64_t weights_stride) {
    thread_local std::vector<float> prepared; // [head_dim] the query times the scale, rounded for F16 keys
    if (scale_queries || k_half) {
        prepared.resize(static_cast<size_t>(head_dim));
        for (int64_t d = 0; d < head_dim; ++d) {
            const float x = scale_queries ? qh[d] * scale : qh[d];
            prepared[static_cast<size_t>(d)] = k_half ? round_f16(x) : x;
        }
        qh = prepared.data();
        if (scale_queries) scale = 1.0f;
    }
    const bool lanes = k_half && order == ValueSumOrder::Batch && head_dim % 8 == 0;
    float max_score = sink; // -inf without a sink
    const float inv_cap = softcap > 0.0f ? 1.0f / softcap : 0.0f;
    for (int64_t p = first; p < n_seen; ++p) {
        const float* kp = rows.k + rows.cell[p] * rows.stride; // [head_dim]
        const float dot = lanes ? reference_lanes_dot(qh, kp, head_dim)
                                : k_half ? reference_dot_f16(qh, kp, head_dim) : reference_dot(qh, kp, head_dim);
        float s = dot * scale;
        if (softcap > 0.0f) s = std::tanh(s * inv_cap) * softcap;
        scores[p] = s;
        max_score = std::max(max_score, s);
    }
    double sum = reference_softmax_exp(scores, first, n_seen, max_score);
    sum += softmax_sink_term(sink, max_score);
    const auto inv_sum = static_cast<float>(1.0 / sum);
    for (int64_t p = first; p < n_seen; ++p) scores[p] *= inv_sum;
    if (w) {
        std::copy(scores, scores + n_seen, w);
        std::fill(w + n_seen, w + weights_stride, 0.0f);
    }
    if (v_half) {
        for (int64_t p = first; p < n_seen; ++p) scores[p] = round_f16(scores[p]);
    }
    const ValueRows values{rows.v, rows.stride, rows.cell};
    reference_weighted_values(scores, first, n_seen, values, head_dim, order, oh);
}

} // namespace

void CpuBackend::kv_write(KvCache& cache, int64_t layer, const float* k, const float* v,
                          const KvBatchCells& cells) {
    auto& kv = static_cast<CpuKvCache&>(cache);
    const int64_t row = kv.row();
    const int64_t head_dim = kv.shape().head_dim;
    // F16 rounds to nearest; Q8_0 / Q4_0 quantise each block of 32 (engine/gguf/quantize.h)
    const auto store = [head_dim](const float* from, TensorType type, uint8_t* to) {
        switch (type) {
        case TensorType::F16: {
            auto* h = reinterpret_cast<uint16_t*>(to);
            for (int64_t i = 0; i < head_dim; ++i) h[i] = fp32_to_fp16(from[i]);
            return;
        }
        case TensorType::Q8_0:
        case TensorType::Q4_0: return quantize_row(type, from, to, head_dim);
        default: std::memcpy(to, from, static_cast<size_t>(head_dim) * sizeof(float));
        }
    };
    for (size_t i = 0; i < cells.write_cells.size(); ++i) {
        const int32_t cell = cells.write_cells[i];
        for (int64_t h = 0; h < kv.shape().n_head_kv; ++h) {
            const int64_t at = static_cast<int64_t>(i) * row + h * head_dim;
            store(k + at, kv.shape().k_type, kv.k_at(layer, h, cell));
            if (kv.values_in_keys()) continue; // the key rows serve as values
            store(v + at, kv.shape().v_type, kv.v_at(layer, h, cell));
        }
    }
}

namespace {

// One stored row of `type` (F32, F16 or a quantised kind) as `n` floats.
void row_as_floats(TensorType type, const uint8_t* stored, float* out, int64_t n) {
    if (type == TensorType::F16) widen_f16(reinterpret_cast<const uint16_t*>(stored), out, n);
    else if (kv_type_is_quantised(type)) dequantize_row(type, stored, out, n);
    else std::copy_n(reinterpret_cast<const float*>(stored), n, out);
}

} // namespace

void CpuBackend::kv_read_keys(const KvCache& cache, int64_t layer, std::span<const int32_t> cells, float* out) {
    const auto& kv = static_cast<const CpuKvCache&>(cache);
    const int64_t head_dim = kv.shape().head_dim;
    for (size_t i = 0; i < cells.size(); ++i) {
        for (int64_t h = 0; h < kv.shape().n_head_kv; ++h) {
            row_as_floats(kv.shape().k_type, kv.k_at(layer, h, cells[i]), out + static_cast<int64_t>(i) * kv.row() + h * head_dim,
                          head_dim);
        }
    }
}

void CpuBackend::kv_copy(KvCache& cache, int64_t from, int64_t to, int64_t n) {
    auto& kv = static_cast<CpuKvCache&>(cache);
    const size_t k_bytes = static_cast<size_t>(n * kv.k_head_bytes());
    const size_t v_bytes = static_cast<size_t>(n * kv.v_head_bytes());
    for (int64_t l = 0; l < kv.shape().n_layer; ++l) {
        for (int64_t h = 0; h < kv.shape().n_head_kv; ++h) {
            std::memmove(kv.k_at(l, h, to), kv.k_at(l, h, from), k_bytes);
            if (!kv.values_in_keys()) std::memmove(kv.v_at(l, h, to), kv.v_at(l, h, from), v_bytes);
        }
    }
}

namespace {

// The layer's rows as the cache stores them, for F32 and F16 kinds (F16 ones in k16 / v16, widened
// as the kernels load them).
LayerRows stored_rows(const CpuKvCache& kv, int64_t layer, std::span<const int32_t> read_cells) {
    const int64_t head_dim = kv.shape().head_dim;
    const auto floats = [](const uint8_t* p) { return reinterpret_cast<const float*>(p); };
    const auto halves = [](const uint8_t* p) { return reinterpret_cast<const uint16_t*>(p); };
    const uint8_t* k = kv.k_at(layer, 0, 0);
    const uint8_t* v = kv.v_at(layer, 0, 0);
    return {{kv.k_half() ? nullptr : floats(k), kv.v_half() ? nullptr : floats(v), head_dim, read_cells.data(),
             kv.k_half() ? halves(k) : nullptr, kv.v_half() ? halves(v) : nullptr},
            kv.shape().n_cells * head_dim};
}

} // namespace

// The layer's rows as floats: the cache's own for an F32 cache; otherwise every position's rows
// widened or dequantised (an F32 kind copied) into widened_, head by head, position p in row p,
// once for all the queries of the call. Attending row by row reads these; the tiles read F16 rows
// in place and these only for a quantised kind.
LayerRows CpuBackend::readable_rows(const CpuKvCache& kv, int64_t layer, std::span<const int32_t> read_cells) {
    const int64_t head_dim = kv.shape().head_dim;
    const int64_t n_head_kv = kv.shape().n_head_kv;
    const bool as_floats = kv.shape().k_type == TensorType::F32 && kv.shape().v_type == TensorType::F32;
    if (as_floats) return stored_rows(kv, layer, read_cells);
    const auto n = static_cast<int64_t>(read_cells.size());
    widened_.resize(static_cast<size_t>(2 * n * kv.row()));
    identity_.resize(static_cast<size_t>(n));
    float* k_rows = widened_.data();         // [n_head_kv][n][head_dim]
    float* v_rows = k_rows + n * kv.row();  // the same
    constexpr int64_t kChunk = 64; // positions a task
    pool_.parallel_for((n + kChunk - 1) / kChunk, [&](int64_t task, int) {
        for (int64_t p = task * kChunk; p < std::min(n, (task + 1) * kChunk); ++p) {
            const int32_t cell = read_cells[static_cast<size_t>(p)];
            for (int64_t h = 0; h < n_head_kv; ++h) {
                row_as_floats(kv.shape().k_type, kv.k_at(layer, h, cell), k_rows + (h * n + p) * head_dim, head_dim);
                row_as_floats(kv.shape().v_type, kv.v_at(layer, h, cell), v_rows + (h * n + p) * head_dim, head_dim);
            }
            identity_[static_cast<size_t>(p)] = static_cast<int32_t>(p);
        }
    });
    return {{k_rows, v_rows, head_dim, identity_.data()}, n * head_dim};
}

// Tiles of up to kTileQueries queries, each a run of tokens × the query heads of one kv head
// (fewer heads when there would be fewer tiles than threads). A prompt's tile transposes the key
// and value rows it reads, so larger tiles transpose less per query (docs/performance.md, "Tuning
// constants"); a generated token's reads them in place.
void CpuBackend::attend_tiles(const CpuKvCache& kv, int64_t layer, const float* q, float* out, const KvBatchCells& cells,
                              const AttentionShape& s, float scale, float* weights, int64_t weights_stride) {
    constexpr int64_t kTileQueries = 64;
    const int64_t group = s.n_head / s.n_head_kv;
    const int64_t n_tokens = static_cast<int64_t>(cells.positions.size());
    const int64_t tile_tokens = std::clamp<int64_t>(kTileQueries / group, 1, n_tokens);
    const int64_t token_tiles = (n_tokens + tile_tokens - 1) / tile_tokens;
    int64_t tile_heads = group;
    if (s.n_head_kv * token_tiles < n_threads()) {
        const int64_t splits = (n_threads() + s.n_head_kv * token_tiles - 1) / (s.n_head_kv * token_tiles);
        tile_heads = std::max<int64_t>(1, (group + splits - 1) / splits);
    }
    const int64_t head_tiles = (group + tile_heads - 1) / tile_heads;
    tile_scratch_.resize(static_cast<size_t>(n_threads()));
    tile_queries_.resize(static_cast<size_t>(n_threads()));
    const AttentionTileShape shape{s.head_dim, scale, s.softcap, s.scale_queries, weights_stride, kv.k_half(), kv.v_half()};
    // The layer's rows as stored, F16 ones widened as the kernels load them; with a quantised
    // kind, every row dequantised (and F16 ones widened) first by readable_rows.
    const LayerRows layer_rows = kv.k_quantised() || kv.v_quantised() ? readable_rows(kv, layer, cells.read_cells)
                                                                      : stored_rows(kv, layer, cells.read_cells);
    // the kernel path's vector width (a forced AVX2 path runs the AVX2 kernels; the bits are the same)
    const AttentionTileWidth width =
        path_ == CpuPath::Avx512 || path_ == CpuPath::Avx512Vnni ? AttentionTileWidth::Wide : AttentionTileWidth::Avx2;

    pool_.parallel_for(s.n_head_kv * token_tiles * head_tiles, [&](int64_t task, int thread) {
        const int64_t g = task / (token_tiles * head_tiles);
        const int64_t t0 = (task / head_tiles % token_tiles) * tile_tokens;
        const int64_t h0 = g * group + task % head_tiles * tile_heads;
        const int64_t h1 = std::min(h0 + tile_heads, (g + 1) * group);
        auto& queries = tile_queries_[static_cast<size_t>(thread)];
        queries.clear();
        for (int64_t t = t0; t < std::min(t0 + tile_tokens, n_tokens); ++t) {
            const int64_t position = cells.positions[static_cast<size_t>(t)];
            const int64_t n_seen = position + 1;
            const int64_t first = s.window > 0 ? std::max<int64_t>(0, n_seen - s.window) : 0; // p - j < window
            const ValueSumOrder order = position < cells.prompt_batch_end ? ValueSumOrder::Batch : ValueSumOrder::Single;
            for (int64_t h = h0; h < h1; ++h) {
                const int64_t at = t * s.n_head + h;
                queries.push_back({q + at * s.head_dim, out + at * s.head_dim,
                                   weights ? weights + at * weights_stride : nullptr, first, n_seen, order,
                                   s.sinks ? s.sinks[h] : -INFINITY});
            }
        }
        attend_tile(queries, layer_rows.head(g), shape, tile_scratch_[static_cast<size_t>(thread)], width);
    });
}

void CpuBackend::attention(const KvCache& cache, int64_t layer, const float* q, float* out,
                           const KvBatchCells& cells, const AttentionShape& s, float* weights,
                           int64_t weights_stride) {
    const auto& kv = static_cast<const CpuKvCache&>(cache);
    const int64_t group = s.n_head / s.n_head_kv;
    const float scale = s.scale != 0.0f ? s.scale : 1.0f / std::sqrt(static_cast<float>(s.head_dim));
    const int64_t n_tokens = static_cast<int64_t>(cells.positions.size());
    if (s.precision == Precision::Reference && path_ != CpuPath::Scalar && attention_tiles_supported()) {
        attend_tiles(kv, layer, q, out, cells, s, scale, weights, weights_stride);
        return;
    }
    scratch_.resize(static_cast<size_t>(n_threads()));
    for (auto& scores : scratch_) scores.resize(cells.read_cells.size());
    const LayerRows layer_rows = readable_rows(kv, layer, cells.read_cells);

    pool_.parallel_for(n_tokens * s.n_head, [&](int64_t task, int thread) {
        const int64_t t = task / s.n_head;
        const int64_t h = task % s.n_head;
        const int64_t n_seen = cells.positions[static_cast<size_t>(t)] + 1;
        const int64_t first = s.window > 0 ? std::max<int64_t>(0, n_seen - s.window) : 0; // p - j < window
        const float* qh = q + (t * s.n_head + h) * s.head_dim; // [head_dim]
        float* oh = out + (t * s.n_head + h) * s.head_dim;     // [head_dim]
        float* w = weights ? weights + (t * s.n_head + h) * weights_stride : nullptr;
        float* scores = scratch_[static_cast<size_t>(thread)].data();
        const AttentionRows rows = layer_rows.head(h / group);
        const float sink = s.sinks ? s.sinks[h] : -INFINITY;
        if (s.precision == Precision::Reference) {
            const ValueSumOrder value_order =
                cells.positions[static_cast<size_t>(t)] < cells.prompt_batch_end ? ValueSumOrder::Batch : ValueSumOrder::Single;
            attend_reference(rows, qh, first, n_seen, s.head_dim, scale, s.scale_queries, s.softcap, sink, kv.k_half(),
                             kv.v_half(), value_order, scores, oh, w, weights_stride);
        } else {
            attend(rows, qh, first, n_seen, s.head_dim, scale, s.softcap, sink, scores, oh, w, weights_stride);
        }
    });
}

} // namespace octo
