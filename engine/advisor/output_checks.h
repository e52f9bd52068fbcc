// Output checks (after a run): every "check" rule of the advisor rule file whose prompt
// condition holds runs its C++ check on the output: json_valid, markdown_table_columns,
// python_indentation, constraint_bent (rte-g) and arithmetic_claims (rte-c). Spans are byte
// offsets into the output.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/advisor/advisor_rules.h"
#include "engine/generation/run_trace.h"

namespace octo {

// A generated token of a constrained run (structured output, tool calls): where its text is in
// the output, the probability the grammar's mask removed there (ConstraintStep::removed_mass)
// and the text of the most probable removed token — what the model wanted to write.
struct ConstrainedToken {
    size_t start = 0;
    size_t end = 0;
    double removed_mass = 0.0;
    std::string wanted;
    double wanted_probability = 0.0;
};

// The generated tokens of a run as ConstrainedTokens, offsets into the concatenation of their
// visible texts (the run's output); `token_text` gives a removed token's text. Empty when the run
// had no grammar.
std::vector<ConstrainedToken> constrained_tokens(std::span<const TraceToken> generated,
                                                 const std::function<std::string(int32_t)>& token_text);

// Findings ordered by start offset (then by rule order). `constrained`: the run's tokens when it
// was constrained (the constraint_bent check reads them; empty: that check finds nothing).
std::vector<Finding> check_output(const AdvisorRules& rules, std::string_view prompt, std::string_view output,
                                  std::span<const ConstrainedToken> constrained = {});

} // namespace octo
