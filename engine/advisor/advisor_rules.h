// The advisor's rule file (resources/rules/advisor_rules.json; schema and every rule in
// docs/advisor.md): each rule names a subsystem, a detector, a severity, a source (the seed
// article's heuristic or the project's own), texts in English and Chinese and an optional
// rewrite of the prompt. Prompt detectors are data (PCRE2 patterns); output checks are C++ code
// chosen by name. Loading validates strictly: an error names the file, the rule and the field.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/regex_pattern.h"
#include "engine/core/result.h"

namespace octo {

enum class Severity { Info, Warning, Error };       // "info" | "warning" | "error"
enum class RuleSource { Article, Project };         // "article" | "project"
enum class FindingPlace { Prompt, Output };         // "prompt" | "output"

const char* severity_name(Severity s);
const char* rule_source_name(RuleSource s);
const char* finding_place_name(FindingPlace p);

struct LocalText {
    std::string en;
    std::string zh;
    const std::string& in(bool chinese) const { return chinese ? zh : en; }
};

// "replace_span" | "append" | "prepend" | "append_json_schema" (append `text` with {schema}
// replaced by a schema of the fields the prompt names, engine/advisor/prompt_fields.h, or
// `fallback` when it names none) | "append_table_columns" (the same with {columns} replaced by a
// Markdown header row of those fields: | code | team |).
enum class RewriteAction { ReplaceSpan, Append, Prepend, AppendJsonSchema, AppendTableColumns };

inline constexpr const char* kSchemaPlaceholder = "{schema}";
inline constexpr const char* kColumnsPlaceholder = "{columns}";

// The placeholder an action fills from the prompt's fields; null for the others.
const char* fields_placeholder(RewriteAction action);

struct RuleRewrite {
    RewriteAction action = RewriteAction::Append;
    LocalText text;     // inserted in the prompt's language
    LocalText fallback; // the actions built from fields only: appended when the prompt names none
};

// Conditions on the prompt: every `required` group has a pattern that matches, and no `unless`
// pattern matches. Both kinds of detector use them (an output check looks at the prompt too,
// e.g. "JSON was asked for").
struct PromptCondition {
    std::vector<std::vector<RegexPattern>> required;
    std::vector<RegexPattern> unless;
    bool holds(std::string_view prompt) const;
};

// Which output check a "check" detector runs (engine/advisor/output_checks.h).
enum class OutputCheck { JsonValid, MarkdownTableColumns, PythonIndentation, ArithmeticClaims, ConstraintBent };

// How the matches of a "patterns" detector become findings.
enum class MatchScope {
    Each,     // one finding per match (when the prompt has at least min_matches)
    First,    // one finding at the first match (when the prompt has at least min_matches)
    Sentence, // one finding per sentence with at least min_matches, spanning them
    Prompt,   // one finding spanning all matches, when there are at least min_matches
};

struct DetectorSpec {
    FindingPlace place = FindingPlace::Prompt; // "patterns" detectors look at the prompt, "check" at the output
    std::vector<RegexPattern> any;             // patterns: what counts as a match
    int min_matches = 1;
    MatchScope scope = MatchScope::Each;
    OutputCheck check = OutputCheck::JsonValid; // check detectors only
    PromptCondition condition;
};

struct AdvisorRule {
    std::string id;
    int subsystem = 0; // 0..7 = rte-a..rte-h
    Severity severity = Severity::Info;
    FindingPlace place = FindingPlace::Prompt;
    RuleSource source = RuleSource::Project;
    LocalText title, explanation, suggestion;
    std::optional<RuleRewrite> rewrite;
    DetectorSpec detector;
};

// Where the shipped rule file lies inside the resource folder (app/common/resource_dir.h).
inline constexpr const char* kAdvisorRulesFile = "rules/advisor_rules.json";

class AdvisorRules {
public:
    static Result<AdvisorRules> load(const std::string& path);
    // Errors read "<origin>: rule <id>: \"<field>\": <what is wrong>".
    static Result<AdvisorRules> parse(std::string_view json, std::string_view origin);
    // <resource_dir>/rules/advisor_rules.json; the caller finds the resource folder.
    static Result<AdvisorRules> load_default(const std::string& resource_dir);

    const std::vector<AdvisorRule>& rules() const { return rules_; }
    const AdvisorRule* find(std::string_view id) const;

private:
    std::vector<AdvisorRule> rules_;
};

struct Finding {
    std::string rule;
    int subsystem = 0;
    Severity severity = Severity::Info;
    FindingPlace place = FindingPlace::Prompt;
    size_t start = 0, end = 0; // UTF-8 byte offsets [start, end) into the prompt or output, on code-point boundaries
    std::string evidence;      // the text of the span
    LocalText detail;          // e.g. "(3832.9-3731.5)/3731.5 = 0.0271740..., stated 2.8%" and its Chinese; may be empty
    RuleSource source = RuleSource::Project;
};

// A finding of `rule` over [start, end) of `text`.
Finding make_finding(const AdvisorRule& rule, std::string_view text, size_t start, size_t end, LocalText detail = {});

} // namespace octo
