// Stop strings over streamed pieces: held-back prefixes, matches across token
// boundaries, earliest match, flush, and UTF-8 sequences split between tokens.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/generation/stop_matcher.h"

namespace octo {
namespace {

// Pushes every piece and records what was shown after each one.
std::vector<std::string> shown(StopMatcher& m, const std::vector<std::string>& pieces) {
    std::vector<std::string> out;
    for (const std::string& p : pieces) out.push_back(m.push(p).text);
    return out;
}

TEST(StopMatcher, WithoutStopsPiecesPassThrough) {
    StopMatcher m({});
    EXPECT_EQ(shown(m, {"Hel", "lo", " world"}), (std::vector<std::string>{"Hel", "lo", " world"}));
    EXPECT_EQ(m.flush(), "");
    EXPECT_FALSE(m.stopped());
}

TEST(StopMatcher, StopSpanningSeveralTokensIsNotEmitted) {
    StopMatcher m({"\n\nUser:"});
    EXPECT_EQ(shown(m, {"Hi", "\n", "\nUs"}), (std::vector<std::string>{"Hi", "", ""}));
    const StopMatcher::Output last = m.push("er: more");
    EXPECT_TRUE(last.stopped);
    EXPECT_EQ(last.text, "");
    EXPECT_TRUE(m.stopped());
    EXPECT_EQ(m.flush(), "");
}

TEST(StopMatcher, HeldPrefixIsReleasedWhenItStopsMatching) {
    StopMatcher m({"END"});
    EXPECT_EQ(shown(m, {"The E", "Nd", " EN"}), (std::vector<std::string>{"The ", "ENd", " "}));
    EXPECT_EQ(m.flush(), "EN");
}

TEST(StopMatcher, TextBeforeTheStopInTheSamePieceIsEmitted) {
    StopMatcher m({"STOP"});
    const StopMatcher::Output out = m.push("abcSTOPdef");
    EXPECT_TRUE(out.stopped);
    EXPECT_EQ(out.text, "abc");
    const StopMatcher::Output after = m.push("more");
    EXPECT_TRUE(after.stopped);
    EXPECT_EQ(after.text, "");
    EXPECT_EQ(m.flush(), "");
}

TEST(StopMatcher, EarliestOccurrenceWins) {
    StopMatcher m({"world", "lo w"});
    const StopMatcher::Output out = m.push("hello world");
    EXPECT_TRUE(out.stopped);
    EXPECT_EQ(out.text, "hel");
}

TEST(StopMatcher, OverlappingPrefixKeepsOnlyWhatCanStillMatch) {
    // Full text "aaab": the stop "aab" starts at byte 1, so only "a" is shown.
    StopMatcher m({"aab"});
    EXPECT_EQ(m.push("aaa").text, "a");
    const StopMatcher::Output out = m.push("b");
    EXPECT_TRUE(out.stopped);
    EXPECT_EQ(out.text, "");
}

TEST(StopMatcher, FlushReturnsTheHeldTail) {
    StopMatcher m({"###"});
    EXPECT_EQ(shown(m, {"x#", "#"}), (std::vector<std::string>{"x", ""}));
    EXPECT_EQ(m.flush(), "##");
    EXPECT_EQ(m.flush(), "");
}

TEST(StopMatcher, IncompleteUtf8IsHeldUntilComplete) {
    StopMatcher m({});
    // "é" = C3 A9 split over two pieces; "€" = E2 82 AC over three.
    EXPECT_EQ(shown(m, {"caf\xC3", "\xA9!", "\xE2", "\x82", "\xAC"}),
              (std::vector<std::string>{"caf", "\xC3\xA9!", "", "", "\xE2\x82\xAC"}));
    // A stray continuation byte is not a sequence start: it is shown as is.
    EXPECT_EQ(m.push("\x80").text, "\x80");
    EXPECT_EQ(m.push("\xF0\x9F").text, "");
    EXPECT_EQ(m.flush(), "\xF0\x9F");
}

TEST(StopMatcher, MultiByteStopSplitInsideCharacters) {
    StopMatcher m({"\xE6\x97\xA5\xE6\x9C\xAC"}); // "日本"
    EXPECT_EQ(m.push("x\xE6\x97").text, "x");
    EXPECT_EQ(m.push("\xA5").text, "");          // "日" complete, still a prefix of the stop
    const StopMatcher::Output out = m.push("\xE6\x9C\xAC!");
    EXPECT_TRUE(out.stopped);
    EXPECT_EQ(out.text, "");

    StopMatcher other({"\xC3\xA9"}); // "é"
    EXPECT_EQ(other.push("\xC3\xA8").text, "\xC3\xA8"); // "è" shares the lead byte only
    EXPECT_FALSE(other.stopped());
}

TEST(StopMatcher, EmptyStopStringsAreIgnored) {
    StopMatcher m({"", "zz"});
    EXPECT_EQ(m.push("abc").text, "abc");
    EXPECT_FALSE(m.stopped());
}

} // namespace
} // namespace octo
