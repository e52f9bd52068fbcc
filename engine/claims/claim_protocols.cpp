#include "engine/claims/claim_protocols.h"

#include <cstdio>

#include "engine/core/json_fields.h"

namespace octo {

namespace {

constexpr ProtocolInfo kProtocols[] = {
    {"router_accuracy", protocol_router_accuracy},
    {"token_after_number", protocol_token_after_number},
    {"position_profile", protocol_position_profile},
    {"prompt_ab", protocol_prompt_ab},
    {"degrade", protocol_degrade},
    {"cross_effect", protocol_cross_effect},
    {"latency", protocol_latency},
    {"kv_reuse", protocol_kv_reuse},
    {"head_groups", protocol_head_groups},
    {"multi_turn", protocol_multi_turn},
};

} // namespace

const ProtocolInfo* find_protocol(std::string_view id) {
    for (const ProtocolInfo& p : kProtocols) {
        if (id == p.id) return &p;
    }
    return nullptr;
}

ClaimResult not_measurable(std::string reason, std::string method) {
    ClaimResult r;
    r.verdict = Verdict::NotMeasurable;
    r.reason = std::move(reason);
    r.method = std::move(method);
    return r;
}

std::string fmt(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

nlohmann::json bars_plot(const std::vector<std::string>& labels, const std::vector<double>& values,
                         const std::vector<Interval>& ci, const std::string& y_label) {
    return grouped_bars_plot(labels, {BarSeries{"", values, ci}}, y_label);
}

nlohmann::json grouped_bars_plot(const std::vector<std::string>& labels, const std::vector<BarSeries>& series,
                                 const std::string& y_label) {
    nlohmann::json out = nlohmann::json::array();
    for (const BarSeries& s : series) {
        nlohmann::json lo = nlohmann::json::array();
        nlohmann::json hi = nlohmann::json::array();
        for (const Interval& i : s.ci) {
            lo.push_back(i.lo);
            hi.push_back(i.hi);
        }
        out.push_back({{"name", s.name}, {"values", s.values}, {"lo", lo}, {"hi", hi}});
    }
    return {{"kind", "bars"}, {"labels", labels}, {"series", out}, {"y_label", y_label}};
}

int64_t int_param(const nlohmann::json& params, const char* key, int64_t fallback) {
    const int64_t v = json_integer_or(params, key, 0);
    return v >= 1 ? v : fallback;
}

} // namespace octo
