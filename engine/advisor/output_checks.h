// Output checks (after a run): every "check" rule of the advisor rule file whose prompt
// condition holds runs its C++ check on the output: json_valid, markdown_table_columns,
// python_indentation (rte-g) and arithmetic_claims (rte-c). Spans are byte offsets into the
// output.
#pragma once

#include <string_view>
#include <vector>

#include "engine/advisor/advisor_rules.h"

namespace octo {

// Findings ordered by start offset (then by rule order).
std::vector<Finding> check_output(const AdvisorRules& rules, std::string_view prompt, std::string_view output);

} // namespace octo
