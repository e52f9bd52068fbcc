#include "engine/instrumentation/forward_probe.h"

#include <string>

namespace octo {

namespace {

Result<std::vector<float>> mean_of(std::span<const TokenProbe> probes, std::vector<float> TokenProbe::*field,
                                   const char* name) {
    if (probes.empty()) return make_error(ErrorCode::InvalidArgument, "no positions to average");
    const size_t n = (probes.front().*field).size();
    std::vector<double> sum(n, 0.0);
    for (const TokenProbe& p : probes) {
        const std::vector<float>& v = p.*field;
        if (n == 0 || v.size() != n) {
            return make_error(ErrorCode::InvalidArgument, std::string("a position lacks ") + name);
        }
        for (size_t i = 0; i < n; ++i) sum[i] += v[i];
    }
    std::vector<float> mean(n);
    for (size_t i = 0; i < n; ++i) mean[i] = static_cast<float>(sum[i] / static_cast<double>(probes.size()));
    return mean;
}

} // namespace

const char* ablation_mode_name(AblationMode mode) { return mode == AblationMode::Zero ? "zero" : "mean"; }

HeadAblation ablate_subsystems(const HeadMap& map, const std::array<bool, kSubsystemCount>& disabled,
                               AblationMode mode, std::vector<float> baseline) {
    HeadAblation a;
    a.mode = mode;
    a.baseline = std::move(baseline);
    bool any = false;
    for (bool d : disabled) any = any || d;
    if (!any) return a;
    a.heads.resize(static_cast<size_t>(map.n_layer() * map.n_head()));
    for (int64_t l = 0; l < map.n_layer(); ++l) {
        for (int64_t h = 0; h < map.n_head(); ++h) {
            a.heads[static_cast<size_t>(l * map.n_head() + h)] =
                disabled[static_cast<size_t>(map.subsystem_of(l, h))] ? 1 : 0;
        }
    }
    return a;
}

Result<std::vector<float>> mean_head_outputs(std::span<const TokenProbe> probes) {
    return mean_of(probes, &TokenProbe::head_outputs, "head_outputs");
}

Result<std::vector<float>> mean_head_norms(std::span<const TokenProbe> probes) {
    return mean_of(probes, &TokenProbe::head_norms, "head_norms");
}

} // namespace octo

namespace octo {

Result<ExpertAblation> ablate_experts(std::span<const ExpertSwitch> switches, int64_t n_layer, int64_t n_expert,
                                      int64_t n_used) {
    ExpertAblation a;
    if (switches.empty()) return a;
    if (n_expert == 0) {
        return make_error(ErrorCode::InvalidArgument, "the model has no experts to disable (it is not a mixture of experts)");
    }
    a.experts.assign(static_cast<size_t>(n_layer * n_expert), 0);
    for (const ExpertSwitch& s : switches) {
        if (s.layer < -1 || s.layer >= n_layer || s.expert < 0 || s.expert >= n_expert) {
            return make_error(ErrorCode::InvalidArgument, "expert " + expert_switch_text(s) + " does not exist (layers 0.." +
                                                              std::to_string(n_layer - 1) + ", experts 0.." +
                                                              std::to_string(n_expert - 1) + ")");
        }
        for (int64_t l = s.layer < 0 ? 0 : s.layer; l < (s.layer < 0 ? n_layer : s.layer + 1); ++l) {
            a.experts[static_cast<size_t>(l * n_expert + s.expert)] = 1;
        }
    }
    for (int64_t l = 0; l < n_layer; ++l) {
        int64_t left = 0;
        for (int64_t e = 0; e < n_expert; ++e) left += a.experts[static_cast<size_t>(l * n_expert + e)] == 0 ? 1 : 0;
        if (left < n_used) {
            return make_error(ErrorCode::InvalidArgument, "layer " + std::to_string(l) + " would keep " + std::to_string(left) +
                                                              " experts, fewer than the " + std::to_string(n_used) +
                                                              " each token runs through");
        }
    }
    return a;
}

Result<ExpertSwitch> parse_expert_switch(std::string_view text) {
    const auto bad = [&] {
        return make_error(ErrorCode::InvalidArgument,
                          "'" + std::string(text) + "' is not LAYER:EXPERT (e.g. 3:5, or *:5 for every layer)");
    };
    const size_t colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) return bad();
    const auto number = [](std::string_view s) -> int64_t {
        if (s.empty() || s.size() > 6) return -1;
        int64_t v = 0;
        for (char c : s) {
            if (c < '0' || c > '9') return -1;
            v = v * 10 + (c - '0');
        }
        return v;
    };
    ExpertSwitch s;
    const std::string_view layer = text.substr(0, colon);
    s.layer = layer == "*" ? -1 : number(layer);
    s.expert = number(text.substr(colon + 1));
    if ((layer != "*" && s.layer < 0) || s.expert < 0) return bad();
    return s;
}

std::string expert_switch_text(const ExpertSwitch& s) {
    return (s.layer < 0 ? std::string("*") : std::to_string(s.layer)) + ":" + std::to_string(s.expert);
}

} // namespace octo
