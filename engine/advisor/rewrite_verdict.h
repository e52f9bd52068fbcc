// Did a rewrite make the answer better or worse? After "Apply & compare" the old prompt (A) and the
// rewritten one (B) ran with the same settings and seed; this judges B's answer against A's with
// checks that can be computed from the texts alone, and says so in both languages:
//  - JSON (when either prompt mentions JSON): the answer's JSON part (output_checks.h) parses in
//    one answer and not in the other;
//  - asked fields (when A's prompt, else B's, names fields: prompt_fields.h): how many of them
//    are keys of the answer's JSON object (names compared case-insensitively, "_", "-" and spaces
//    ignored);
//  - a table (when either prompt asks for one: "table", 表格): whether the answer holds a Markdown
//    table, and how many asked fields are cells of its first header row;
//  - every other output check of the rule file (tables, Python indentation, arithmetic claims):
//    how many findings each answer has;
//  - an empty answer.
// Any check that got worse makes the verdict "worse" (what improved is still listed); "better"
// needs at least one improvement and nothing worse; otherwise "no change", which names what
// neither answer did (no table, no parsing JSON) rather than calling two broken answers fine.
// Log-probabilities are not used: a more confident answer is not a better one.
#pragma once

#include <string_view>
#include <vector>

#include "engine/advisor/advisor_rules.h"

namespace octo {

enum class VerdictKind { Better, NoChange, Worse };

const char* verdict_kind_name(VerdictKind kind); // "better" | "no_change" | "worse"

struct RewriteVerdict {
    VerdictKind kind = VerdictKind::NoChange;
    std::vector<LocalText> worse;  // what got worse from A to B, one reason each
    std::vector<LocalText> better; // what got better
    std::vector<LocalText> unmet;  // what the prompts ask for and neither answer gives ("a Markdown table")
    bool same_answer = false;      // A and B answered with the same text
    LocalText summary;             // "The rewrite made the answer worse: the JSON no longer parses."
};

RewriteVerdict judge_rewrite(const AdvisorRules& rules, std::string_view prompt_a, std::string_view answer_a,
                             std::string_view prompt_b, std::string_view answer_b);

} // namespace octo
