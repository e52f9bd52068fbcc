// Valid UTF-8 from token bytes: invalid sequences replaced by U+FFFD or written as \xNN, code
// points read one at a time. Expected bytes written literally from the UTF-8 definition (RFC 3629).
#include <gtest/gtest.h>

#include <string>

#include "engine/core/utf8_text.h"

namespace octo {
namespace {

TEST(Utf8Text, ValidTextIsKeptByteForByte) {
    const std::string text = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80"; // a é 中 😀
    EXPECT_EQ(valid_utf8(text), text);
    EXPECT_EQ(utf8_with_escaped_bytes(text), text);
}

TEST(Utf8Text, EachByteStartingNoSequenceIsReplaced) {
    // A token cut mid-character: the first two bytes of 中 (E4 B8 AD).
    EXPECT_EQ(valid_utf8("x\xE4\xB8"), "x\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_EQ(utf8_with_escaped_bytes("x\xE4\xB8"), "x\\xE4\\xB8");
    // A lone continuation byte, an overlong encoding of '/', a UTF-16 surrogate, past U+10FFFF.
    EXPECT_EQ(utf8_with_escaped_bytes("\x80"), "\\x80");
    EXPECT_EQ(utf8_with_escaped_bytes("\xC0\xAF"), "\\xC0\\xAF");
    EXPECT_EQ(utf8_with_escaped_bytes("\xED\xA0\x80"), "\\xED\\xA0\\x80");
    EXPECT_EQ(utf8_with_escaped_bytes("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");
    EXPECT_EQ(valid_utf8(""), "");
}

TEST(Utf8Text, CodePointAtReadsOneCharacter) {
    const std::string text = "a\xC3\xA9\xF0\x9F\x98\x80";
    auto a = code_point_at(text, 0);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->value, U'a');
    EXPECT_EQ(a->size, 1u);
    auto e = code_point_at(text, 1);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->value, U'\u00E9');
    EXPECT_EQ(e->size, 2u);
    EXPECT_FALSE(code_point_at(text, 2)) << "a continuation byte starts nothing";
    auto smile = code_point_at(text, 3);
    ASSERT_TRUE(smile);
    EXPECT_EQ(smile->value, U'\U0001F600');
    EXPECT_EQ(smile->size, 4u);
    EXPECT_FALSE(code_point_at(text, text.size()));
    EXPECT_FALSE(code_point_at("\xF0\x9F\x98", 0)) << "cut short by the end of the text";
}

} // namespace
} // namespace octo
