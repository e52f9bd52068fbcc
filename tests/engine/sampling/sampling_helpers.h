// What the sampling tests share: candidate lists read back, a chain made or failed, and logits of
// known probabilities.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "engine/sampling/candidates.h"
#include "engine/sampling/sampler_chain.h"

namespace octo::sampling_test {

inline constexpr float kNegInf = -std::numeric_limits<float>::infinity();

inline std::vector<int32_t> ids_of(const CandidateList& list) {
    std::vector<int32_t> ids;
    for (const TokenCandidate& c : list.items) ids.push_back(c.id);
    return ids;
}

inline std::vector<float> logits_of(const CandidateList& list) {
    std::vector<float> logits;
    for (const TokenCandidate& c : list.items) logits.push_back(c.logit);
    return logits;
}

inline SamplerChain make_chain(const SamplerConfig& config) {
    Result<SamplerChain> chain = SamplerChain::create(config);
    EXPECT_TRUE(chain.ok()) << (chain.ok() ? "" : chain.error().message);
    return std::move(chain).value();
}

// Logits whose softmax is (1, 2, 3, 4) / 10 for ids 0..3.
inline const std::vector<float> kTenths = {std::log(1.0f), std::log(2.0f), std::log(3.0f), std::log(4.0f)};

} // namespace octo::sampling_test
