#include "engine/generation/run_spec.h"

namespace octo {

PromptSpec prompt_spec(const RunSpec& s) {
    PromptSpec p;
    p.text = s.prompt;
    p.chat = s.chat;
    p.system = s.system;
    p.parse_special = s.parse_special;
    return p;
}

InstrumentedRequest instrumented_request(const RunSpec& s, std::vector<int32_t> prompt_ids) {
    InstrumentedRequest request;
    request.generate.prompt_ids = std::move(prompt_ids);
    request.generate.max_tokens = s.max_tokens;
    request.generate.sampling = s.sampling;
    request.generate.stop_strings = s.stop_strings;
    request.generate.stop_at_eog = s.stop_at_eog;
    request.disabled = s.disabled;
    request.ablation_mode = s.ablation_mode;
    request.dla = s.dla;
    request.record_attention = s.record_attention;
    request.disabled_experts = s.disabled_experts;
    request.switch_target = s.switch_target;
    request.record_router_probs = s.record_router_probs;
    request.precision = s.precision;
    return request;
}

} // namespace octo
