#include "engine/sampling/sampler_chain.h"

#include "engine/sampling/greedy.h"
#include "engine/sampling/logit_bias.h"
#include "engine/sampling/random_draw.h"
#include "engine/sampling/repetition_penalty.h"
#include "engine/sampling/temperature.h"
#include "engine/sampling/top_k.h"
#include "engine/sampling/top_p.h"

namespace octo {

Result<SamplerChain> SamplerChain::create(const SamplerConfig& config) {
    if (Status valid = validate_sampler_config(config); !valid) return valid.error();
    SamplerChain chain;
    if (!config.logit_bias.empty()) chain.stages_.push_back(std::make_unique<LogitBias>(config.logit_bias));
    const bool penalties = config.repeat_penalty != 1.0f || config.frequency_penalty != 0.0f || config.presence_penalty != 0.0f;
    if (penalties && config.repeat_last_n > 0) {
        chain.stages_.push_back(std::make_unique<RepetitionPenalty>(config.repeat_penalty, static_cast<size_t>(config.repeat_last_n),
                                                                    config.frequency_penalty, config.presence_penalty));
    }
    if (config.temperature == 0.0f) {
        chain.stages_.push_back(std::make_unique<Greedy>());
        return chain;
    }
    chain.stages_.push_back(std::make_unique<Temperature>(config.temperature));
    if (config.top_k > 0) chain.stages_.push_back(std::make_unique<TopK>(static_cast<size_t>(config.top_k)));
    if (config.top_p < 1.0f) chain.stages_.push_back(std::make_unique<TopP>(config.top_p));
    chain.stages_.push_back(std::make_unique<RandomDraw>(config.seed));
    return chain;
}

int32_t SamplerChain::sample(std::span<const float> logits) {
    CandidateList candidates = CandidateList::from_logits(logits);
    for (const std::unique_ptr<Sampler>& stage : stages_) stage->apply(candidates);
    return candidates.selected;
}

void SamplerChain::accept(int32_t token) {
    for (const std::unique_ptr<Sampler>& stage : stages_) stage->accept(token);
}

void SamplerChain::reset() {
    for (const std::unique_ptr<Sampler>& stage : stages_) stage->reset();
}

} // namespace octo
