// Occupancy of a KvPool: a snapshot (KvPoolStats) and the samples of its bounded history.
// Counts are blocks; one block holds block_size positions (tokens) of every layer's K and V.
#pragma once

#include <cstdint>
#include <vector>

namespace octo {

using KvSeqId = int32_t;

struct KvSequenceStats {
    KvSeqId seq = 0;
    int32_t tokens = 0;        // positions held
    int32_t blocks = 0;        // entries in its block table
    int32_t shared_blocks = 0; // of those, blocks another sequence also holds
    int32_t reused_tokens = 0; // positions taken from the prefix cache when it began
};

// blocks_total = blocks_used + blocks_cached + blocks_free.
struct KvPoolStats {
    int32_t block_size = 0;    // tokens per block
    int32_t blocks_total = 0;
    int32_t blocks_used = 0;   // held by at least one sequence
    int32_t blocks_cached = 0; // held by none, kept for prefix reuse (evictable, LRU)
    int32_t blocks_free = 0;   // holding nothing
    int32_t blocks_shared = 0; // held by two sequences or more (part of blocks_used)
    int64_t evictions = 0;     // cached blocks evicted since the pool was created
    int64_t block_copies = 0;  // copy-on-write copies since the pool was created
    std::vector<KvSequenceStats> sequences; // by ascending id
};

// What a block holds now (KvPool::block_states).
enum class KvBlockState : uint8_t {
    Free,   // holds nothing
    Used,   // held by one sequence
    Shared, // held by two sequences or more
    Cached, // held by none, kept for prefix reuse
};

// One history sample, taken after every operation that changes the pool.
struct KvPoolSample {
    uint64_t step = 0; // the pool's operation counter (1 = first operation)
    int32_t blocks_used = 0;
    int32_t blocks_cached = 0;
    int32_t blocks_free = 0;
    int32_t blocks_shared = 0;
    int32_t sequences = 0;
};

} // namespace octo
