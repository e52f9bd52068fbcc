// Direct logit attribution (DLA) of each attention head (docs/instrumentation.md, "Metrics").
//
// The logit of token t is u_t · (g ⊙ x_final) · r, with u_t the unembedding row of t
// (output.weight), g the final RMSNorm weight and r = 1 / rms(x_final) at that position. The
// residual x_final is a sum of contributions, among them every head's W_h z_h; holding r fixed
// (its value at that position), head h of layer l adds
//     dla[l][h] = (W_h z_h) · (g ⊙ u_t) · r = z_hᵀ (W_Oᵀ a)_h     with a = g ⊙ u_t · r,
// so one transposed projection W_Oᵀ a per layer (n_embd² multiply-adds) gives every head's
// value. Positive values push the logit of t up. Values are in logit units.
//
// With a post-attention norm (gemma2/3) the attention output o = Σ_h W_h z_h reaches the residual
// as p ⊙ o · s, s = 1 / rms(o); holding s fixed too (its value at that position and layer), head h
// adds (W_h z_h) · (p ⊙ g ⊙ u_t) · r · s. With a final logit soft-cap the values are in units of
// the logit before the cap (the cap is monotonic: the ranking of tokens is the same).
//
// The positions of a batch are attributed together: per layer, one threaded matrix product of
// the backend, [n positions, n_embd] · W_O (exact precision, reduced in a fixed order, so the
// values do not depend on how positions are batched).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/backend/backend.h"
#include "engine/core/result.h"
#include "engine/instrumentation/forward_probe.h"
#include "engine/model/model.h"

namespace octo {

class LogitAttribution {
public:
    // Dequantises and transposes the output projections once per model (Model::output_projections()).
    static Result<LogitAttribution> create(const Model& model);

    // Sets probes[i]->dla ([n_layer][n_head]) toward targets[i]. Each probe needs head_outputs
    // ([n_layer][n_head * head_dim]) and final_inv_rms. InvalidArgument otherwise or when a target is
    // outside the vocabulary (no probe is changed then).
    Status attribute(Backend& backend, std::span<TokenProbe* const> probes, std::span<const int32_t> targets) const;

private:
    LogitAttribution(const Model& model, const std::vector<std::vector<float>>& w_o_t)
        : model_(&model), w_o_t_(&w_o_t) {}

    const Model* model_;
    const std::vector<std::vector<float>>* w_o_t_; // [n_layer][n_embd in][n_embd out]
};

} // namespace octo
