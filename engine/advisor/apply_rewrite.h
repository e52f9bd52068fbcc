// Applies a finding's rule rewrite to the prompt ("Apply" in the editor).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/advisor/advisor_rules.h"
#include "engine/advisor/prompt_fields.h"

namespace octo {

// True when `text` holds a Han (Chinese) character.
bool contains_cjk(std::string_view text);

// {"name": string, "age": number}: the fields as a schema in the article's notation, names
// JSON-escaped.
std::string json_schema_text(const std::vector<PromptField>& fields);

// The same fields as a JSON Schema a run can be constrained to (structured output): an object of
// exactly those properties, each required, typed string or number; any JSON object when there are
// none. The advisor's constrained A/B partner of its JSON rewrite.
std::string json_schema_of_fields(const std::vector<PromptField>& fields);

// | code | team |: the fields as a Markdown header row, "|" in a name escaped as \|.
std::string markdown_header_text(const std::vector<PromptField>& fields);

// The text the finding's rewrite puts into `prompt`, in the prompt's language (Chinese when the
// prompt contains CJK): the rule's text, with {schema} or {columns} filled from the fields the
// prompt names (prompt_fields.h), or the rule's fallback when it names none. What the advisor
// shows before Apply, so the user sees the prompt's own field names, never translated ones. An
// error when the rule is unknown or has no rewrite.
Result<std::string> rewrite_text(const AdvisorRules& rules, const Finding& finding, std::string_view prompt);

// The prompt after applying that text: replace_span replaces [start, end) (a prompt finding only;
// an ASCII replacement takes the capital of a capitalised span), the other actions add it at the
// end (prepend: at the start) with a space between English words. An error as for rewrite_text,
// or when the span no longer holds the finding's evidence.
Result<std::string> apply_rewrite(const AdvisorRules& rules, const Finding& finding, std::string_view prompt);

} // namespace octo
