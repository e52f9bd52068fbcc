// Prompt detectors (before a run): every "patterns" rule of the advisor rule file, matched
// against the prompt. A prompt that no detector matches yields no findings.
#pragma once

#include <string_view>
#include <vector>

#include "engine/advisor/advisor_rules.h"

namespace octo {

// Findings ordered by start offset (then by rule order).
std::vector<Finding> check_prompt(const AdvisorRules& rules, std::string_view prompt);

} // namespace octo
