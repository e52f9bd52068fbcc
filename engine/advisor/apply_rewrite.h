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

// The prompt after applying the rewrite of the finding's rule, in the prompt's language (Chinese
// when the prompt contains CJK): replace_span replaces [start, end) (a prompt finding only; an
// ASCII replacement takes the capital of a capitalised span), append and prepend add the text
// with a space between English words; append_json_schema appends the text with {schema} filled
// from the fields the prompt names (prompt_fields.h), or the rule's fallback when it names none. An error when the rule is unknown, has no rewrite, or the
// span no longer holds the finding's evidence.
Result<std::string> apply_rewrite(const AdvisorRules& rules, const Finding& finding, std::string_view prompt);

} // namespace octo
