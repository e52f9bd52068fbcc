#include "engine/kv/prefix_key.h"

#include <string>

#include <xxhash.h>

namespace octo {
namespace {

// Appends a length-prefixed field, so that ("ab", "c") and ("a", "bc") differ.
void put(std::string& out, std::string_view field) {
    const uint64_t n = field.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out.append(field);
}

} // namespace

uint64_t kv_digest(std::string_view bytes, uint64_t seed) {
    return XXH3_64bits_withSeed(bytes.data(), bytes.size(), seed);
}

uint64_t kv_context_key(const KvContext& context) {
    std::string bytes = "octoscope-kv-context-3";
    put(bytes, context.model_identity);
    put(bytes, context.precision);
    bytes.push_back(static_cast<char>(context.measurements));
    bytes.push_back(static_cast<char>(context.ablated));
    if (context.ablated != 0) {
        put(bytes, context.ablation_mode);
        bytes.append(reinterpret_cast<const char*>(&context.ablation_digest), sizeof context.ablation_digest);
    }
    if (!context.rope_factors.empty()) put(bytes, context.rope_factors); // absent: the keys of before
    return kv_digest(bytes);
}

uint64_t block_key(uint64_t previous_key, std::span<const int32_t> tokens) {
    return XXH3_64bits_withSeed(tokens.data(), tokens.size_bytes(), previous_key);
}

} // namespace octo
