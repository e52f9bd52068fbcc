// Bookkeeping of the paged KV pool: which cell holds which position of which sequence.
//
// The pool owns no K/V floats (the backend does); it decides where they go. Cell c of the
// backend's storage is block c / block_size, slot c % block_size; position p of a sequence is
// in cell table[p / block_size] * block_size + p % block_size (see cell()).
//
// Life of a sequence:
//   begin(prompt, context_key)  reuses the longest cached block-aligned prefix (reused_tokens)
//   append(seq, tokens)         room for the next positions; do the returned copies first
//   … the backend writes K/V of those positions …
//   commit(seq)                 publishes its full blocks for reuse by later begin() calls
//   truncate(seq, n) / fork(seq) / release(seq)
//
// Blocks are reference-counted (one reference per sequence table holding them). A released
// block that was published stays cached until the pool needs room; then idle cached blocks are
// evicted least recently released first (deeper blocks of a chain before shallower ones on
// ties). Not thread-safe: one owner calls it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <span>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "engine/core/result.h"
#include "engine/kv/kv_pool_stats.h"

namespace octo {

using KvBlockId = int32_t;

struct KvPoolConfig {
    int32_t block_size = 16;         // tokens per block
    int32_t n_blocks = 0;            // blocks in the pool, allocated once
    int32_t history_capacity = 4096; // samples kept; the oldest is dropped beyond that
};

struct KvBegin {
    KvSeqId seq = 0;
    int32_t reused_tokens = 0; // positions 0..reused_tokens-1 already hold valid K/V
};

// Copy-on-write: copy cells [0, n_cells) of block `from` to block `to` (every layer, K and V).
struct KvBlockCopy {
    KvBlockId from = 0;
    KvBlockId to = 0;
    int32_t n_cells = 0;
};

struct KvAppend {
    int32_t first_position = 0;      // the first appended token's position
    std::vector<KvBlockCopy> copies; // to perform before writing the new positions
};

class KvPool {
public:
    // InvalidArgument unless block_size >= 1, n_blocks >= 1, n_blocks * block_size < 2^31
    // and history_capacity >= 0.
    static Result<KvPool> create(const KvPoolConfig& config);

    // Starts a sequence for `prompt` evaluated under `context_key` (kv_context_key). It takes
    // the longest chain of cached full blocks matching the prompt's start, at most
    // (prompt.size() - 1) / block_size blocks: the last prompt token is always recomputed, so
    // its logits come from a forward pass. The sequence holds prompt[0, reused_tokens); append
    // the rest. Allocates nothing, so it cannot fail.
    KvBegin begin(std::span<const int32_t> prompt, uint64_t context_key);

    // A new sequence holding the same positions as `parent`, sharing every block with it
    // (its partial last block too, copied on the first write by either).
    Result<KvSeqId> fork(KvSeqId parent);

    // Makes room for `tokens` at the next positions. When the block to write into is shared,
    // it is replaced by a fresh copy (returned in `copies`); a published block that only this
    // sequence holds is withdrawn from the cache and written in place. Errors, with nothing
    // changed: InvalidArgument when the sequence alone would need more blocks than the pool
    // has; OutOfMemory ("out of blocks") when free and evictable blocks do not suffice.
    Result<KvAppend> append(KvSeqId seq, std::span<const int32_t> tokens);

    // Publishes the sequence's full blocks that are not cached yet and lie wholly before position
    // `end` (call once their K/V are written). A block whose key is already cached (computed by
    // another sequence) stays private.
    Status commit(KvSeqId seq, int32_t end = INT32_MAX);

    // Frees every cached block that no sequence holds (as if evicted; counted in evictions), so
    // that what follows reuses nothing computed before — a measurement that must not depend on
    // the pool's history (the claims lab) starts here. Returns the blocks freed.
    int32_t forget_cached();

    // Keeps positions [0, n_tokens); blocks past them are released.
    Status truncate(KvSeqId seq, int32_t n_tokens);

    // Drops the sequence; its published blocks stay cached, the others become free.
    Status release(KvSeqId seq);

    // Cell holding `position` of `seq`, or -1 for an unknown sequence or position.
    int32_t cell(KvSeqId seq, int32_t position) const;
    // The sequence's blocks in position order (empty for an unknown sequence).
    std::span<const KvBlockId> block_table(KvSeqId seq) const;

    int32_t block_size() const { return block_size_; }
    int32_t n_blocks() const { return static_cast<int32_t>(blocks_.size()); }
    KvPoolStats stats() const;
    // The state of every block, by block id (the workbench's block grid).
    std::vector<KvBlockState> block_states() const;
    // Oldest first, at most history_capacity samples.
    const std::deque<KvPoolSample>& history() const { return history_; }

private:
    struct Block {
        int32_t refs = 0;
        bool published = false;      // in cache_ under `key`
        uint64_t key = 0;            // chain key (when published)
        uint64_t parent_key = 0;     // previous block's key, or the context key (when published)
        int32_t depth = 0;           // index in its chain (when published)
        uint64_t idle_since = 0;     // step at which refs dropped to 0 (when published)
        std::vector<int32_t> tokens; // its token ids (when published), checked on lookup
    };
    struct Sequence {
        uint64_t context_key = 0;
        std::vector<int32_t> tokens;  // token id of each position held
        std::vector<KvBlockId> table; // ceil(tokens / block_size) blocks
        std::vector<uint64_t> keys;   // chain keys of the first keys.size() full blocks
        int32_t reused_tokens = 0;
    };
    // Idle cached blocks in eviction order: (idle_since, -depth, id).
    using IdleEntry = std::tuple<uint64_t, int32_t, KvBlockId>;

    KvPool(const KvPoolConfig& config);

    Sequence* find(KvSeqId seq);
    const Sequence* find(KvSeqId seq) const;
    Error unknown(KvSeqId seq) const;
    void ref(KvBlockId id);
    void unref(KvBlockId id);
    void unpublish(KvBlockId id);
    KvBlockId take_block(); // needs a free or idle cached block
    int32_t available() const { return static_cast<int32_t>(free_.size() + idle_.size()); }
    void record();

    int32_t block_size_ = 0;
    size_t history_capacity_ = 0;
    std::vector<Block> blocks_;
    std::vector<KvBlockId> free_; // taken from the back
    std::set<IdleEntry> idle_;
    std::unordered_map<uint64_t, KvBlockId> cache_;
    std::map<KvSeqId, Sequence> sequences_;
    KvSeqId next_seq_ = 0;
    uint64_t step_ = 0;
    int64_t evictions_ = 0;
    int64_t block_copies_ = 0;
    std::deque<KvPoolSample> history_;
};

} // namespace octo
