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
