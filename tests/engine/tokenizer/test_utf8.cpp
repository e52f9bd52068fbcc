// The tokenizers' two UTF-8 readers (lenient lead-byte lengths, strict decoding with U+FFFD one
// byte at a time) and the encoder. Expected values from the UTF-8 definition (RFC 3629).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/tokenizer/utf8.h"

namespace octo {
namespace {

TEST(Utf8, SequenceLengthTrustsTheLeadByteAlone) {
    EXPECT_EQ(utf8_sequence_length(0x41), 1u);
    EXPECT_EQ(utf8_sequence_length(0x80), 1u) << "a continuation byte counts as one";
    EXPECT_EQ(utf8_sequence_length(0xC3), 2u);
    EXPECT_EQ(utf8_sequence_length(0xE4), 3u);
    EXPECT_EQ(utf8_sequence_length(0xF0), 4u);
    EXPECT_EQ(utf8_sequence_length(0xC0), 2u) << "an invalid lead still announces its length";
    EXPECT_EQ(utf8_sequence_length(0xFF), 4u) << "an invalid lead still announces its length";
}

TEST(Utf8, DecodingIsStrictOneReplacementPerBadByte) {
    EXPECT_EQ(decode_utf8("a\xC3\xA9\xF0\x9F\x98\x80"), (std::vector<uint32_t>{0x61, 0xE9, 0x1F600}));
    EXPECT_EQ(decode_utf8("\xE4\xB8x"), (std::vector<uint32_t>{kReplacementChar, kReplacementChar, 0x78}));
    EXPECT_EQ(decode_utf8("\xC0\xAF"), (std::vector<uint32_t>{kReplacementChar, kReplacementChar})) << "overlong";
    EXPECT_TRUE(decode_utf8("").empty());
}

TEST(Utf8, EncodesEveryLength) {
    EXPECT_EQ(utf8_from_code_point(0x24), "\x24");
    EXPECT_EQ(utf8_from_code_point(0xA2), "\xC2\xA2");
    EXPECT_EQ(utf8_from_code_point(0x20AC), "\xE2\x82\xAC");
    EXPECT_EQ(utf8_from_code_point(0x10348), "\xF0\x90\x8D\x88");
    std::string out = "x";
    append_utf8(0x10FFFF, out);
    EXPECT_EQ(out, "x\xF4\x8F\xBF\xBF");
    EXPECT_EQ(decode_utf8(out), (std::vector<uint32_t>{0x78, 0x10FFFF}));
}

} // namespace
} // namespace octo
