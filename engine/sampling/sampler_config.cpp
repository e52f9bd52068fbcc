#include "engine/sampling/sampler_config.h"

#include <cmath>

namespace octo {

Status validate_sampler_config(const SamplerConfig& config) {
    auto bad = [](const char* message) { return make_error(ErrorCode::InvalidArgument, message); };
    if (!std::isfinite(config.temperature) || config.temperature < 0.0f) {
        return bad("temperature must be a finite number >= 0");
    }
    if (config.top_k < 0) {
        return bad("top-k must be >= 0 (0 turns it off)");
    }
    if (!(config.top_p > 0.0f && config.top_p <= 1.0f)) {
        return bad("top-p must be in (0, 1] (1 turns it off)");
    }
    if (!std::isfinite(config.repeat_penalty) || config.repeat_penalty <= 0.0f) {
        return bad("repeat penalty must be a finite number > 0 (1 turns it off)");
    }
    if (config.repeat_last_n < 0) {
        return bad("repeat-last-n must be >= 0 (0 turns the penalty off)");
    }
    if (!std::isfinite(config.frequency_penalty) || !std::isfinite(config.presence_penalty)) {
        return bad("frequency and presence penalties must be finite numbers (0 turns them off)");
    }
    for (const auto& [id, bias] : config.logit_bias) {
        if (id < 0 || !std::isfinite(bias)) return bad("a logit bias needs a token id >= 0 and a finite bias");
    }
    return Ok{};
}

} // namespace octo
