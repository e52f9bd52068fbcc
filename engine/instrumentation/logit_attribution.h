// Direct logit attribution (DLA) of each attention head (docs/instrumentation.md, "Metrics").
//
// The logit of token t is u_t · (g ⊙ x_final) · r, with u_t the unembedding row of t
// (output.weight), g the final RMSNorm weight and r = 1 / rms(x_final) at that position. The
// residual x_final is a sum of contributions, among them every head's W_h z_h; holding r fixed
// (its value at that position), head h of layer l adds
//     dla[l][h] = (W_h z_h) · (g ⊙ u_t) · r = z_hᵀ (W_Oᵀ a)_h     with a = g ⊙ u_t · r,
// so one transposed projection W_Oᵀ a per layer (n_embd² multiply-adds) gives every head's
// value. Positive values push the logit of t up. Values are in logit units.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/result.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/model/model.h"

namespace octo {

class LogitAttribution {
public:
    // Dequantises the output projections once per model (Model::output_projections()).
    static Result<LogitAttribution> create(const Model& model);

    // dla[n_layer][n_head] of the position `probe` measured, toward token `target`. The probe
    // needs head_outputs ([n_layer][n_embd]) and final_inv_rms. InvalidArgument otherwise or
    // when target is outside the vocabulary.
    Result<std::vector<float>> attribute(const TokenProbe& probe, int32_t target) const;

private:
    LogitAttribution(const Model& model, const std::vector<std::vector<float>>& w_o)
        : model_(&model), w_o_(&w_o) {}

    const Model* model_;
    const std::vector<std::vector<float>>* w_o_; // [n_layer][n_embd][n_embd]
};

} // namespace octo
