// Keys of the KV pool's cached blocks (XXH3, 64 bits).
//
// A full block's key chains over everything before it:
//   key(block 0) = block_key(context_key, tokens[0, B))
//   key(block i) = block_key(key(block i-1), tokens[i*B, (i+1)*B))
// so equal keys mean equal token prefixes computed under the same context. The context key
// covers everything besides the tokens that changes K/V — the model and the ablation — and
// which measurements are cached with the blocks (a run that needs norms must not reuse blocks
// cached without them).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace octo {

struct KvContext {
    // Identifies the weights, e.g. the file's path, size and modification time, or a digest.
    std::string_view model_identity;
    // Nonzero when anything is ablated (e.g. bit s set: subsystem s, rte-a = bit 0, is ablated).
    uint8_t ablated = 0;
    // "zero" or "mean". Ignored when ablated == 0: ablating nothing computes the same K/V
    // whatever the mode, so such runs share blocks.
    std::string_view ablation_mode;
    // kv_digest of everything else that fixes the ablated heads' values — the head map's
    // JSON, and for "mean" the baseline means. Ignored when ablated == 0.
    uint64_t ablation_digest = 0;
    // Bits of the measurements cached with the blocks (KvMeasurement in session.h); 0: none.
    uint8_t measurements = 0;
    // How matrix products treated activations ("reference", "exact"): K/V differ between them.
    std::string_view precision = {};
    // Which LongRoPE factors rotated the keys ("short", "long"; the context length chooses);
    // empty for models without them.
    std::string_view rope_factors = {};
};

uint64_t kv_context_key(const KvContext& context);

// XXH3-64 of arbitrary bytes (for KvContext::ablation_digest).
uint64_t kv_digest(std::string_view bytes, uint64_t seed = 0);

// Key of a full block holding `tokens`, chained on the previous block's key (or the context key
// for the first block).
uint64_t block_key(uint64_t previous_key, std::span<const int32_t> tokens);

} // namespace octo
