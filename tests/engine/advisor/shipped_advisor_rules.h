// The advisor's shipped rules (resources/rules/advisor_rules.json), loaded once for the advisor's
// engine tests.
#pragma once

#include <string>

#include "engine/advisor/advisor_rules.h"

namespace octo::test {

inline const AdvisorRules& shipped_advisor_rules() {
    static const AdvisorRules rules = AdvisorRules::load(std::string(OCTOSCOPE_SOURCE_DIR) + "/resources/rules/advisor_rules.json").value();
    return rules;
}

} // namespace octo::test
