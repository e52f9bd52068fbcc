// One constrained step (ConstraintStep) as JSON, the same in `generate --json` and in the
// server's "octoscope" extension:
//   {"removed_mass": 0.81, "removed": [{"id", "piece", "logprob"}, …], "mask_ms": 0.4,
//    "removed_pull": {"rte-a": …, …, "rte-h": …}}
// removed_pull (with DLA, on steps where the mask removed ≥ 5 %) sums each subsystem's heads'
// ConstraintStep::removed_dla: how much it pulled toward the first removed token over the chosen one.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/generation/grammar_constraint.h"
#include "engine/instrumentation/head_map.h"
#include "engine/tokenizer/tokenizer.h"

#include <array>
#include <optional>

#include "engine/instrumentation/subsystem.h"

namespace octo {

// Each subsystem's summed removed_dla under `map`; nullopt without DLA or for another shape.
std::optional<std::array<double, kSubsystemCount>> constraint_pull(const ConstraintStep& step, const HeadMap& map);

nlohmann::json constraint_json(const ConstraintStep& step, const Tokenizer& tokenizer, const HeadMap* map);

} // namespace octo
