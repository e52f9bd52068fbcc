// Attention at reference precision over a tile of queries that read one kv head: several tokens
// of a batch and the query heads of one grouped-query group. Each key and value row is loaded
// once for the whole tile (keys in blocks that stay in L1 while every query passes them, values —
// and keys, for the wide kernels — transposed a block at a time so that positions fill vectors), where attending one
// (token, head) at a time reads the whole cache once per query.
//
// Tiling changes which elements are computed together, never the float steps of one element:
// every score is reference_dot's sum of its own q and k, every row's softmax is
// reference_softmax_exp's, every output value is summed over positions in the order its row's
// ValueSumOrder names (reference_float.h). Masked positions inside the tile's range weigh 0, as
// the reference's masked cells do. So the outputs equal attending row by row, bit for bit
// (tests/engine/backend/cpu/test_attention_tiles.cpp checks that against the row functions).
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/backend/cpu/reference_float.h"

namespace octo {

// One query of the tile: a (token, head) pair.
struct AttentionQuery {
    const float* q = nullptr; // [head_dim]
    float* out = nullptr;     // [head_dim]
    float* weights = nullptr; // [weights_stride]: the softmax weights, position p at index p; or null
    int64_t first = 0;        // positions first .. n_seen - 1 are attended (first > 0: a sliding window)
    int64_t n_seen = 0;
    ValueSumOrder order = ValueSumOrder::Batch;
    float sink = -INFINITY;   // the head's sink logit (AttentionShape::sinks), or -inf for none
};

// The tile's keys and values: position p's rows are k + cell[p] · stride and v + cell[p] · stride
// (elements). F16 keys or values (AttentionTileShape::k_half / v_half) are read from k16 / v16
// instead when set, and widened as they are loaded (or come widened in k / v: the shape's flags
// keep their semantics either way; the row-by-row path takes floats only).
struct AttentionRows {
    const float* k = nullptr;
    const float* v = nullptr;
    int64_t stride = 0;
    const int32_t* cell = nullptr;
    const uint16_t* k16 = nullptr;
    const uint16_t* v16 = nullptr;
};

// The rows of every kv head of one layer: head g's are `rows` with each pointer moved by
// g · head_step elements (the cache keeps each head's positions side by side: cpu_kv_cache.h).
struct LayerRows {
    AttentionRows rows;
    int64_t head_step = 0;

    AttentionRows head(int64_t g) const {
        const auto at = [this, g](const auto* p) { return p ? p + g * head_step : nullptr; };
        return {at(rows.k), at(rows.v), rows.stride, rows.cell, at(rows.k16), at(rows.v16)};
    }
};

struct AttentionTileShape {
    int64_t head_dim = 0;
    float scale = 0.0f;         // scores are q·k · scale
    float softcap = 0.0f;       // > 0: cap · tanh(score / cap)
    bool scale_queries = false; // q · scale first, then q·k (and no scale after)
    int64_t weights_stride = 0;
    // The cache stores F16 keys / values: an F16 key rounds the query
    // to F16 and makes a batched query's scores take the reference's tiled order; an F16 value
    // rounds the softmax weights to F16 (the reference's F16 products: reference_float.h).
    bool k_half = false;
    bool v_half = false;
};

// Per-thread buffers, grown as tiles need them.
struct AttentionTileScratch {
    std::vector<float> scores; // [queries][range] the tile's scores, then its weights
    std::vector<float> keys;   // [head_dim][block] a block of key rows, transposed (wide kernels)
    std::vector<float> values; // [head_dim][block] a block of value rows, transposed
    std::vector<float> sums;   // [queries][head_dim][lanes] running sums across value blocks
    std::vector<float> query;  // [queries][head_dim] the queries as their scores use them
    std::vector<float> key;    // [head_dim] an F16 key row widened (a score computed alone)
    std::vector<uint16_t> zeros_half; // [head_dim] F16 zeros: the rows of positions outside the tile
    std::vector<const void*> rows;    // [range] value rows read in place (floats or F16)
    std::vector<const float*> queries;   // [queries] each query as its scores use it
    std::vector<int64_t> sums_at;        // [queries] where its running sums start
    std::vector<int64_t> whole[2];       // the queries scoring eight positions at once (AVX2): [tiled product's order?]
};

// Which kernels compute a tile: eight elements a vector (AVX2), or sixteen (AVX-512, heads a
// multiple of 32; other heads take the AVX2 kernels). The same bits either way.
enum class AttentionTileWidth { Avx2, Wide };

// Whether attend_tile can run here (it needs AVX2 + FMA); otherwise attend row by row.
bool attention_tiles_supported();
// Whether the wide kernels can (AVX-512 F, VL and DQ).
bool attention_tiles_wide_supported();

// to[i] = from[i] (F16 bits) as floats, exactly (F16C where the CPU has it).
void widen_f16(const uint16_t* from, float* to, int64_t n);

// Attends every query of the tile (all reading the same kv head through `rows`).
void attend_tile(std::span<const AttentionQuery> queries, const AttentionRows& rows, const AttentionTileShape& shape,
                 AttentionTileScratch& scratch, AttentionTileWidth width);

} // namespace octo
