// Per-head values → 8 per-subsystem values, through a HeadMap.
//
// Per-head values are laid out [n_layer][n_head] (layer-major, n_layer * n_head floats), one
// value per query head (e.g. a contribution norm ‖W_h z_h‖ in residual-stream units).
//
// Grouping is the *mean* over a subsystem's heads (all layers together), not the sum, so a
// subsystem that owns more heads (H not divisible by 8) is not favoured; an empty subsystem
// gets 0. Shares are the grouped values divided by their sum, so they sum to 1.
#pragma once

#include <array>
#include <span>

#include "engine/core/result.h"
#include "engine/instrumentation/head_map.h"

namespace octo {

// Mean per head of each subsystem (accumulated in double); empty subsystems are 0. Values may
// have any sign. Error (InvalidArgument) if per_head.size() != n_layer * n_head.
Result<SubsystemValues> group_mean_per_head(const HeadMap& map, std::span<const float> per_head);

// group_mean_per_head, then normalised to sum 1. Every value must be finite and >= 0
// (InvalidArgument naming the layer and head otherwise). When every value is 0 (nothing
// measurable, e.g. every head ablated) no subsystem is favoured: each of the k non-empty
// subsystems gets 1/k and empty ones 0, so the result still sums to 1.
Result<SubsystemValues> subsystem_shares(const HeadMap& map, std::span<const float> per_head);

} // namespace octo
