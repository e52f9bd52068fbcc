// A mixture of experts' calibrated expert map and the rule that says whether a calibrated map is
// earned: value types kept by the open model's description (head_map_source.h resolves them).
#pragma once

#include <optional>

#include "engine/instrumentation/head_map.h"

namespace octo {

// Whether a calibrated map is earned (docs/router.md): it separates the dev probes better than
// both nulls — shuffled labels and token-identity units, what random weights reach from the
// probes' surface tokens — by kMapMargin or more, and better than chance (1/8). A report without
// the token-identity null (calibrated before it existed) earns nothing: recalibrate.
inline constexpr double kMapMargin = 0.05;
bool map_earned(double separation, double null_separation, std::optional<double> token_null_separation);

// A mixture of experts' calibrated expert → subsystem map (calibrate --experts, docs/moe.md) and
// how well it separated the probes, against its shuffled-label null.
struct ExpertMap {
    HeadMap map; // "heads" are the experts of each layer
    double separation = 0.0;
    double null_separation = 0.0;
    std::optional<double> token_null_separation;

    // Whether the experts specialise by subsystem on the probe set (map_earned).
    bool specialises() const { return map_earned(separation, null_separation, token_null_separation); }
};

} // namespace octo
