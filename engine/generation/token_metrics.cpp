#include "engine/generation/token_metrics.h"

#include <nlohmann/json.hpp>

namespace octo {

const char* metric_name(Metric metric) {
    switch (metric) {
    case Metric::NormShare: return "norm_share";
    case Metric::Relative: return "relative";
    case Metric::Dla: return "dla";
    case Metric::Gates: return "gates";
    case Metric::Experts: return "experts";
    }
    return "unknown";
}

std::optional<Metric> parse_metric(std::string_view name) {
    for (Metric m : kAllMetrics) {
        if (name == metric_name(m)) return m;
    }
    return std::nullopt;
}

const std::optional<SubsystemValues>& TokenMetrics::get(Metric metric) const {
    switch (metric) {
    case Metric::Relative: return relative;
    case Metric::Dla: return dla;
    case Metric::Gates: return gates;
    case Metric::Experts: return experts;
    case Metric::NormShare: break;
    }
    return norm_share;
}

nlohmann::json metrics_json(const TokenMetrics& m) {
    nlohmann::json out = nlohmann::json::object();
    for (Metric metric : kAllMetrics) {
        if (m.get(metric)) out[metric_name(metric)] = *m.get(metric);
    }
    return out;
}

} // namespace octo
