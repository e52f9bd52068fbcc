// Which head map a run uses, in this order of precedence: a map file when given; else the
// model's own (GGUF metadata key `octoscope.head_map`, the version-1 JSON of head_map.h); else
// a map calibrated for this model file (calibrated_maps.h); else the default contiguous blocks.
#pragma once

#include <optional>
#include <string>

#include "engine/core/result.h"
#include "engine/instrumentation/expert_map.h"
#include "engine/instrumentation/head_map.h"
#include "engine/model/model.h"

namespace octo {

// The GGUF metadata key holding a model's own head map (a string with the version-1 JSON).
inline constexpr const char* kHeadMapKey = "octoscope.head_map";

// Errors name the file or the metadata key: an unreadable or invalid map is never replaced by
// the default silently.
Result<HeadMap> resolve_head_map(const Model& model, const std::string& map_file = {});

// The calibrated expert map of this model, if one was saved; errors for a saved map that does not
// fit the model (never silently dropped).
Result<std::optional<ExpertMap>> resolve_expert_map(const Model& model);

} // namespace octo
