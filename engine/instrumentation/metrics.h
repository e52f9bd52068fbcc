// Per-token subsystem metrics from per-head contribution norms (docs/instrumentation.md,
// "Metrics"). Per-head values are [n_layer][n_head]; results are 8 shares summing to 1.
#pragma once

#include <span>

#include "engine/core/result.h"
#include "engine/instrumentation/subsystem_grouping.h"

namespace octo {

// norm_share: each subsystem's mean head contribution norm, normalised to sum 1.
Result<SubsystemValues> norm_share(const HeadMap& map, std::span<const float> head_norms);

// relative: each head's norm divided by that head's mean norm over a baseline (the run's
// prompt tokens without BOS by default; mean_head_norms), then grouped (mean per head) and
// normalised to sum 1. A head whose baseline mean is 0 contributes 0. InvalidArgument when the
// sizes differ.
Result<SubsystemValues> relative_share(const HeadMap& map, std::span<const float> head_norms,
                                       std::span<const float> baseline_norms);

// dla: each subsystem's mean direct logit attribution per head ([n_layer][n_head], logit units,
// any sign), its positive part normalised to sum 1 — the share of the push toward the chosen
// token. When no subsystem pushes toward it, the non-empty subsystems share equally.
Result<SubsystemValues> dla_share(const HeadMap& map, std::span<const float> dla);

// gates: a router's gates ([n_layer][n_groups], group k = heads [k·H/G, (k+1)·H/G)) given to
// each head, then grouped through the map (mean per head) and normalised to sum 1.
Result<SubsystemValues> gate_share(const HeadMap& map, std::span<const float> gates, int64_t n_groups);

} // namespace octo
