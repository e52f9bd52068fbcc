#include "engine/advisor/output_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/advisor/output_check_kinds.h"

namespace octo {

namespace {

// One hit at the first step where the grammar bent the model (ConstraintStep::kBentMass).
std::vector<CheckHit> check_constraint_bent(std::span<const ConstrainedToken> tokens) {
    size_t bent = 0;
    const ConstrainedToken* first = nullptr;
    for (const ConstrainedToken& t : tokens) {
        if (t.removed_mass < ConstraintStep::kBentMass) continue;
        bent += 1;
        if (!first) first = &t;
    }
    if (!first) return {};
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.0f", 100.0 * first->removed_mass);
    char wanted_percent[16];
    std::snprintf(wanted_percent, sizeof wanted_percent, "%.0f", 100.0 * first->wanted_probability);
    const std::string counts = std::to_string(bent) + " of " + std::to_string(tokens.size());
    CheckHit hit;
    hit.start = first->start;
    hit.end = first->end;
    hit.detail.en = "The grammar removed at least half of the model's probability at " + counts + " generated tokens; at the first it removed " +
                    percent + " %, and the model wanted \"" + first->wanted + "\" (" + wanted_percent + " %).";
    hit.detail.zh = "在 " + std::to_string(tokens.size()) + " 个生成的词元中，有 " + std::to_string(bent) +
                    " 个处语法约束移除了模型至少一半的概率；第一处移除了 " + percent + " %，模型原本想写 “" + first->wanted + "”（" +
                    wanted_percent + " %）。";
    return {hit};
}

std::vector<CheckHit> run_check(OutputCheck check, std::string_view output, std::span<const ConstrainedToken> constrained) {
    switch (check) {
    case OutputCheck::ConstraintBent: return check_constraint_bent(constrained);
    case OutputCheck::JsonValid: return check_json_valid(output);
    case OutputCheck::MarkdownTableColumns: return check_markdown_table_columns(output);
    case OutputCheck::PythonIndentation: return check_python_indentation(output);
    case OutputCheck::ArithmeticClaims: return check_arithmetic_claims(output);
    }
    return {};
}

} // namespace

std::vector<ConstrainedToken> constrained_tokens(std::span<const TraceToken> generated,
                                                 const std::function<std::string(int32_t)>& token_text) {
    std::vector<ConstrainedToken> out;
    size_t at = 0;
    for (const TraceToken& t : generated) {
        ConstrainedToken c;
        c.start = at;
        at += t.visible_text.size();
        c.end = at;
        if (!t.constraint) return {}; // a run without a grammar
        c.removed_mass = t.constraint->removed_mass;
        if (!t.constraint->removed.empty()) {
            c.wanted = token_text ? token_text(t.constraint->removed.front().id) : std::string();
            c.wanted_probability = std::exp(t.constraint->removed.front().logprob);
        }
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<Finding> check_output(const AdvisorRules& rules, std::string_view prompt, std::string_view output,
                                  std::span<const ConstrainedToken> constrained) {
    std::vector<Finding> out;
    for (const AdvisorRule& rule : rules.rules()) {
        if (rule.place != FindingPlace::Output || !rule.detector.condition.holds(prompt)) continue;
        for (CheckHit& hit : run_check(rule.detector.check, output, constrained)) {
            out.push_back(make_finding(rule, output, hit.start, hit.end, std::move(hit.detail)));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) { return a.start < b.start; });
    return out;
}

} // namespace octo
