// A compiled PCRE2 pattern (UTF, Unicode properties, case-insensitive) and its matches as UTF-8
// byte spans. Shared by the data-driven rule files: the router's feature rules and the
// advisor's prompt detectors.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"

namespace octo {

struct TextSpan {
    size_t start = 0; // UTF-8 byte offsets, [start, end), on code-point boundaries
    size_t end = 0;
};

class RegexPattern {
public:
    // An error says "pattern \"<source>\" at offset N: <what PCRE2 reports>".
    static Result<RegexPattern> compile(std::string_view source);

    // Non-overlapping, non-empty matches from left to right; none when `text` is not valid UTF-8.
    std::vector<TextSpan> find_all(std::string_view text) const;
    bool found_in(std::string_view text) const;

private:
    struct Code;
    std::shared_ptr<const Code> code_; // compiled code is immutable: copies share it
};

} // namespace octo
