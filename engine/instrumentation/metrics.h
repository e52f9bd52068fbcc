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

} // namespace octo
