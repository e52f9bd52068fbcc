#include "engine/advisor/output_checks.h"

#include <algorithm>

#include "engine/advisor/output_check_kinds.h"

namespace octo {

namespace {

std::vector<CheckHit> run_check(OutputCheck check, std::string_view output) {
    switch (check) {
    case OutputCheck::JsonValid: return check_json_valid(output);
    case OutputCheck::MarkdownTableColumns: return check_markdown_table_columns(output);
    case OutputCheck::PythonIndentation: return check_python_indentation(output);
    case OutputCheck::ArithmeticClaims: return check_arithmetic_claims(output);
    }
    return {};
}

} // namespace

std::vector<Finding> check_output(const AdvisorRules& rules, std::string_view prompt, std::string_view output) {
    std::vector<Finding> out;
    for (const AdvisorRule& rule : rules.rules()) {
        if (rule.place != FindingPlace::Output || !rule.detector.condition.holds(prompt)) continue;
        for (CheckHit& hit : run_check(rule.detector.check, output)) {
            out.push_back(make_finding(rule, output, hit.start, hit.end, std::move(hit.detail)));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) { return a.start < b.start; });
    return out;
}

} // namespace octo
