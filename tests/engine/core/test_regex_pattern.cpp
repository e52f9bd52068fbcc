// The rule files' patterns: case-insensitive Unicode matching reported as UTF-8 byte spans, and
// a malformed pattern refused with its offset.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/core/regex_pattern.h"

namespace octo {
namespace {

std::vector<std::pair<size_t, size_t>> spans(const RegexPattern& p, std::string_view text) {
    std::vector<std::pair<size_t, size_t>> out;
    for (const TextSpan& s : p.find_all(text)) out.emplace_back(s.start, s.end);
    return out;
}

TEST(RegexPattern, MatchesCaseInsensitivelyAsByteSpans) {
    Result<RegexPattern> p = RegexPattern::compile("translate");
    ASSERT_TRUE(p.ok()) << p.error().message;
    EXPECT_EQ(spans(*p, "Translate this, then TRANSLATE that"),
              (std::vector<std::pair<size_t, size_t>>{{0, 9}, {21, 30}}));
    EXPECT_TRUE(p->found_in("please translate"));
    EXPECT_FALSE(p->found_in("transl ate"));
}

TEST(RegexPattern, UnicodePropertiesAndMultiByteOffsets) {
    Result<RegexPattern> p = RegexPattern::compile("\\p{Han}+");
    ASSERT_TRUE(p.ok()) << p.error().message;
    // "é" is 2 bytes, each Han character 3: 中文 starts at byte 3 and ends at byte 9.
    EXPECT_EQ(spans(*p, "\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87!"), (std::vector<std::pair<size_t, size_t>>{{3, 9}}));
    Result<RegexPattern> cyrillic = RegexPattern::compile("привет");
    ASSERT_TRUE(cyrillic.ok());
    EXPECT_TRUE(cyrillic->found_in("ПРИВЕТ")) << "case folding beyond ASCII";
}

TEST(RegexPattern, InvalidUtf8TextMatchesNothing) {
    Result<RegexPattern> p = RegexPattern::compile("a");
    ASSERT_TRUE(p.ok());
    EXPECT_TRUE(p->find_all("a\xFF").empty());
}

TEST(RegexPattern, EmptyMatchesAreSkipped) {
    Result<RegexPattern> p = RegexPattern::compile("x*");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(spans(*p, "axxb"), (std::vector<std::pair<size_t, size_t>>{{1, 3}}));
}

TEST(RegexPattern, MalformedPatternNamesItsOffset) {
    Result<RegexPattern> p = RegexPattern::compile("(unclosed");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().code, ErrorCode::Format);
    EXPECT_EQ(p.error().message.rfind("pattern \"(unclosed\" at offset 9: ", 0), 0u) << p.error().message;
}

} // namespace
} // namespace octo
