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
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/backend/backend.h"
#include "engine/backend/precision.h"
#include "engine/core/result.h"
#include "engine/instrumentation/logit_lens_values.h"
#include "engine/model/model.h"

namespace octo {

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
