// The subsystem metrics of one token (docs/instrumentation.md says how each is computed from a
// position's probe, instrumented_generation.h computes them): a value type kept by traces,
// events, captures and the workbench's session.
#pragma once

#include <optional>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "engine/instrumentation/subsystem.h"

namespace octo {

enum class Metric { NormShare, Relative, Dla, Gates, Experts };
const char* metric_name(Metric metric); // "norm_share", "relative", "dla", "gates", "experts"
std::optional<Metric> parse_metric(std::string_view name);
inline constexpr Metric kAllMetrics[] = {Metric::NormShare, Metric::Relative, Metric::Dla, Metric::Gates, Metric::Experts};

// One token's metrics; a metric is absent when it was not computed.
struct TokenMetrics {
    std::optional<SubsystemValues> norm_share;
    std::optional<SubsystemValues> relative;
    std::optional<SubsystemValues> dla;
    std::optional<SubsystemValues> gates;
    // A mixture of experts with a calibrated expert map (docs/moe.md): each subsystem's share of
    // the routing weight of the experts mapped to it, summed over layers, normalised to sum 1.
    std::optional<SubsystemValues> experts;

    const std::optional<SubsystemValues>& get(Metric metric) const;
};

// Every computed metric by name: {"norm_share": [8 floats], …}.
nlohmann::json metrics_json(const TokenMetrics& metrics);

} // namespace octo
