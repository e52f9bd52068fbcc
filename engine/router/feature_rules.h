// Router stage 2: one scoring function per subsystem, defined in a data file
// (resources/rules/router_features.json; schema in docs/router.md). A feature is a set of
// PCRE2 patterns (UTF, Unicode properties, case-insensitive) matched against the prompt;
// its value is 1 when any matches ("present") or min(matches, cap) / cap ("count"), and a
// subsystem's score is Σ weight × value.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/regex_pattern.h"
#include "engine/core/result.h"
#include "engine/instrumentation/subsystem.h"

namespace octo {

using FeatureMatch = TextSpan; // UTF-8 byte offsets into the prompt

struct FiredFeature {
    std::string id;          // "rte-c.digits"
    int subsystem = 0;
    double value = 0.0;      // in [0, 1]
    double weight = 0.0;
    std::vector<FeatureMatch> spans;
};

struct FeatureScores {
    std::array<double, kSubsystemCount> score{}; // Σ weight × value per subsystem
    std::vector<FiredFeature> fired;             // features with a non-zero value
    std::vector<double> values;                  // every feature's value in [0, 1], in file order
};

class FeatureRules {
public:
    // Parses and validates a rule file's JSON text (errors name the feature and the problem,
    // prefixed with `origin`), compiling every pattern.
    static Result<FeatureRules> parse(std::string_view json_text, const std::string& origin);
    static Result<FeatureRules> load(const std::string& path);

    FeatureScores score(std::string_view prompt) const;

    struct Feature;
    size_t size() const;
    // For each subsystem, the sum of its features' weights (the largest score it can reach).
    std::array<double, kSubsystemCount> max_scores() const;

private:
    std::vector<std::shared_ptr<const Feature>> features_;
};

} // namespace octo
