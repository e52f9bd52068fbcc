// Which head map a run uses, in this order of precedence: a map file when given; else the
// model's own (GGUF metadata key `octoscope.head_map`, the version-1 JSON of head_map.h); else
// a map calibrated for this model file (calibrated_maps.h); else the default contiguous blocks.
#pragma once

#include <optional>
#include <string>

#include "engine/core/result.h"
#include "engine/instrumentation/head_map.h"
#include "engine/model/model.h"

namespace octo {

// The GGUF metadata key holding a model's own head map (a string with the version-1 JSON).
inline constexpr const char* kHeadMapKey = "octoscope.head_map";

// Errors name the file or the metadata key: an unreadable or invalid map is never replaced by
// the default silently.
Result<HeadMap> resolve_head_map(const Model& model, const std::string& map_file = {});

// A mixture of experts' calibrated expert → subsystem map (calibrate --experts, docs/moe.md) and
// how well it separated the probes, against its shuffled-label null.
// Whether a calibrated map is earned (docs/router.md): it separates the dev probes better than
// both nulls — shuffled labels and token-identity units, what random weights reach from the
// probes' surface tokens — by kMapMargin or more, and better than chance (1/8). A report without
// the token-identity null (calibrated before it existed) earns nothing: recalibrate.
inline constexpr double kMapMargin = 0.05;
bool map_earned(double separation, double null_separation, std::optional<double> token_null_separation);

struct ExpertMap {
    HeadMap map; // "heads" are the experts of each layer
    double separation = 0.0;
    double null_separation = 0.0;
    std::optional<double> token_null_separation;

    // Whether the experts specialise by subsystem on the probe set (map_earned).
    bool specialises() const { return map_earned(separation, null_separation, token_null_separation); }
};

// The calibrated expert map of this model, if one was saved; errors for a saved map that does not
// fit the model (never silently dropped).
Result<std::optional<ExpertMap>> resolve_expert_map(const Model& model);

} // namespace octo
