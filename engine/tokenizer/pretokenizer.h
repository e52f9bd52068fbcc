// Regex pre-tokenizer for byte-level BPE: splits text into the pieces that are
// BPE-encoded independently, following a PreTokenizerRules list (PCRE2, UTF + UCP).
//
// To give exactly llama.cpp's pieces (which come partly from std::regex, partly
// from hand-written matchers), the text is matched in a normalised form:
//  - the text is decoded as UTF-8; each malformed byte becomes U+FFFD;
//  - whitespace is the Unicode White_Space set (U+0009..U+000D, U+0020, U+0085,
//    U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000);
//    non-ASCII whitespace is matched as if it were U+000B, so it is `\s` but never
//    falls inside a literal range such as DeepSeek's U+0800..U+4E00, and `\s` in a
//    pattern means [\t-\r ];
//  - `$` matches only at the very end of a piece.
// Pieces are returned as UTF-8 of the decoded code points.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/result.h"
#include "engine/tokenizer/pretokenizer_rules.h"

namespace octo {

class PreTokenizer {
public:
    static Result<PreTokenizer> create(const PreTokenizerRules& rules);

    Result<std::vector<std::string>> split(std::string_view text) const;

private:
    struct Pattern;
    std::vector<std::shared_ptr<const Pattern>> patterns_;
};

} // namespace octo
