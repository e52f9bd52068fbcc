// What the logit lens found at one position (logit_lens.h computes it): value types kept with a
// run by the workbench and in captures.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace octo {

struct LensEntry {
    int32_t token = -1;
    float prob = 0.0f;
    bool operator==(const LensEntry&) const = default;
};

// One layer's prediction: its top k tokens, most probable first (ties: the lower id first), and
// where the chosen token stands.
struct LensLayer {
    std::vector<LensEntry> top;
    int64_t chosen_rank = 0;  // 1: the layer's most probable token; 0: no chosen token
    float chosen_prob = 0.0f;
    bool operator==(const LensLayer&) const = default;
};

struct LogitLens {
    int64_t position = 0;   // the position whose residuals were read
    int32_t chosen = -1;    // the token that followed it (generated or in the prompt); -1: none yet
    std::vector<LensLayer> layers; // [n_layer], the first layer first
    // How many top tokens each layer holds (the k it was computed with).
    int64_t top_k() const { return layers.empty() ? 0 : static_cast<int64_t>(layers.front().top.size()); }
    bool operator==(const LogitLens&) const = default;
};

// A lens as it is kept with a run (the workbench) and in a capture: with the bytes of every token
// it names (its tops and the chosen one), so it can be shown without the model's tokenizer.
struct NamedLens {
    LogitLens lens;
    std::map<int32_t, std::string> texts;
    bool operator==(const NamedLens&) const = default;
};

} // namespace octo
