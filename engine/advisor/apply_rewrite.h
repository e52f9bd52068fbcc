// Applies a finding's rule rewrite to the prompt ("Apply" in the editor).
#pragma once

#include <string>
#include <string_view>

#include "engine/advisor/advisor_rules.h"

namespace octo {

// True when `text` holds a Han (Chinese) character.
bool contains_cjk(std::string_view text);

// The prompt after applying the rewrite of the finding's rule, in the prompt's language (Chinese
// when the prompt contains CJK): replace_span replaces [start, end) (a prompt finding only; an
// ASCII replacement takes the capital of a capitalised span), append and prepend add the text
// with a space between English words. An error when the rule is unknown, has no rewrite, or the
// span no longer holds the finding's evidence.
Result<std::string> apply_rewrite(const AdvisorRules& rules, const Finding& finding, std::string_view prompt);

} // namespace octo
