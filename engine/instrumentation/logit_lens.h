// The logit lens (docs/instrumentation.md, "Logit lens"): what each layer would predict at one
// position. The residual stream after layer l, h_l, goes through the model's own last steps — the
// final RMSNorm (output_norm), the output matrix and, where the model has one, the final logit
// soft-cap — as if the layers after l were not there:
//     logits_l = W_out · (g ⊙ h_l / rms(h_l)),    p_l = softmax(logits_l)
// After the last layer this is the model's own output: the lens's last row equals the logits the
// run sampled from, bit for bit (the products run as the model's output product of a lone token).
// Cost: one output product per layer per position asked (n_layer × n_vocab × n_embd
// multiply-adds), which is why the workbench computes it on demand for the selected token.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/backend/backend.h"
#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/model/model.h"

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
// The lens with its tokens' texts from `text`.
NamedLens name_lens(LogitLens lens, const std::function<std::string(int32_t)>& text);

// [n_layer][n_vocab] the logits each layer's residual gives (layer_hidden: [n_layer][n_embd], as
// TokenProbe::layer_hidden holds it), through `backend` at `precision`. InvalidArgument when the
// residuals do not fit the model.
Result<std::vector<float>> lens_logits(const Model& model, Backend& backend, Precision precision,
                                       std::span<const float> layer_hidden);

// The lens of one position from its per-layer logits: top `k` (1 … n_vocab) per layer and the
// chosen token's rank and probability (chosen -1: none). Probabilities are softmaxes in double.
LogitLens lens_from_logits(std::span<const float> logits, int64_t n_layer, int64_t n_vocab, int64_t position,
                           int32_t chosen, int64_t k);

// {"position", "chosen", "layers": [{"layer", "top": [{"token", "prob"}], "chosen_rank", "chosen_prob"}]}
// — with `text` set, each token also carries its text (valid UTF-8).
nlohmann::json logit_lens_json(const LogitLens& lens, const std::function<std::string(int32_t)>& text = {});
Result<LogitLens> logit_lens_from_json(const nlohmann::json& j);

} // namespace octo
