// The router's decision for one prompt (router.h makes it; docs/router.md explains the two
// stages): a value type kept by captures, the workbench and the CLI's reports.
#pragma once

#include <array>
#include <vector>

#include "engine/instrumentation/subsystem.h"
#include "engine/router/feature_rules.h"

namespace octo {

struct RouteCandidate {
    int subsystem = 0;
    float stage1 = 0.0f;  // cosine to the centroid
    double stage2 = 0.0;  // the feature score, divided by the subsystem's largest possible score
    double final_score = 0.0;
};

struct RouteDecision {
    int route = 0;                                  // the chosen subsystem
    int stage1_route = 0;                           // what stage 1 alone would choose
    std::vector<RouteCandidate> top3;               // stage 1's best three, best first
    std::array<float, kSubsystemCount> similarity{}; // stage 1, every subsystem
    std::array<double, kSubsystemCount> composition{};
    std::vector<FiredFeature> features;             // every feature that fired, with spans
};

} // namespace octo
